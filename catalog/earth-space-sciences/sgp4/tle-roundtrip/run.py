"""Build a satellite from mean elements, export it as a TLE, re-parse the TLE and propagate both in one batch.

Entry workflow: served by warm workers that import this module once; main() builds new objects only.
"""

import math

import numpy as np
from sgp4.api import WGS72, Satrec, SatrecArray, days2mdhms, jday
from sgp4.exporter import export_tle

SGP4_EPOCH0_JD = 2433281.5  # 1949 December 31 00:00 UT: origin of sgp4init's epoch argument
DEG = math.pi / 180.0
XPDOTP = 1440.0 / (2.0 * math.pi)  # rad/min -> rev/day


def main(scenario: dict) -> dict:
    year = int(scenario["epoch_year"])
    jd0, fr0 = jday(year, 1, 1, 0, 0, 0.0)
    epoch_jd = jd0 + fr0 + float(scenario["epoch_day_of_year"]) - 1.0
    sat = Satrec()
    sat.sgp4init(
        WGS72, "i", int(scenario["satnum"]),
        epoch_jd - SGP4_EPOCH0_JD,
        float(scenario["bstar"]),
        float(scenario["ndot_rev_day2"]) / (XPDOTP * 1440.0),
        0.0,
        float(scenario["eccentricity"]),
        float(scenario["argp_deg"]) * DEG,
        float(scenario["inclination_deg"]) * DEG,
        float(scenario["mean_anomaly_deg"]) * DEG,
        float(scenario["mean_motion_rev_day"]) / XPDOTP,
        float(scenario["raan_deg"]) * DEG,
    )
    line1, line2 = export_tle(sat)
    tle = Satrec.twoline2rv(line1, line2, WGS72)
    month, day, hour, minute, second = days2mdhms(tle.epochyr, tle.epochdays)

    step = float(scenario["step_min"])
    n = int(scenario["n_steps"])
    t_min = np.arange(n, dtype=float) * step
    jd = np.full(n, tle.jdsatepoch)
    fr = tle.jdsatepochF + t_min / 1440.0
    err, r, v = SatrecArray([tle, sat]).sgp4(jd, fr)
    if np.any(err):
        raise RuntimeError(f"sgp4 error codes {err.tolist()}")
    sep = np.linalg.norm(r[0] - r[1], axis=1)

    states = []
    for k in range(n):
        states.append({
            "t_min": float(t_min[k]),
            "r_km": [float(c) for c in r[0, k]],
            "v_km_s": [float(c) for c in v[0, k]],
            "roundtrip_sep_km": float(sep[k]),
        })
    return {
        "line1": line1,
        "line2": line2,
        "epoch": {
            "jd": float(tle.jdsatepoch),
            "jd_fraction": float(tle.jdsatepochF),
            "month": float(month),
            "day": float(day),
            "hour": float(hour),
            "minute": float(minute),
            "second": float(second),
        },
        "parsed_elements": {
            "mean_motion_rev_day": float(tle.no_kozai * XPDOTP),
            "eccentricity": float(tle.ecco),
            "inclination_deg": float(tle.inclo / DEG),
            "raan_deg": float(tle.nodeo / DEG),
            "argp_deg": float(tle.argpo / DEG),
            "mean_anomaly_deg": float(tle.mo / DEG),
            "bstar": float(tle.bstar),
            "ndot_rev_day2": float(tle.ndot * XPDOTP * 1440.0),
        },
        "states": states,
        "max_roundtrip_sep_km": float(sep.max()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
