"""Deep-space (SDP4) propagation of a high orbit with sgp4's pure-Python model (sgp4.model.Satrec: the _dscom /
_dsinit / _dspace / _dpper lunar-solar and resonance terms), and the osculating classical elements of each state
from sgp4.ext.rv2coe.

Entry workflow: main(dict) -> dict; builds new objects only.
"""

import math

from sgp4.api import WGS72, WGS84
from sgp4.earth_gravity import wgs72, wgs84
from sgp4.ext import rv2coe
from sgp4.model import Satrec

SGP4_EPOCH0_JD = 2433281.5  # 1949 December 31 00:00 UT: origin of sgp4init's epoch argument
DEG = math.pi / 180.0
GRAVITY = {"wgs72": (WGS72, wgs72), "wgs84": (WGS84, wgs84)}


def osculating(r, v, mu: float) -> dict:
    p, a, ecc, incl, raan, argp, nu, m, *_ = rv2coe(r, v, mu)
    return {"p_km": p, "a_km": a, "ecc": ecc, "incl_deg": incl / DEG, "raan_deg": raan / DEG,
            "argp_deg": argp / DEG, "true_anomaly_deg": nu / DEG, "mean_anomaly_deg": m / DEG}


def main(s: dict) -> dict:
    code, consts = GRAVITY[str(s["gravity_model"])]
    sat = Satrec()
    sat.sgp4init(code, str(s["opsmode"]), 1, float(s["epoch_jd"]) - SGP4_EPOCH0_JD, 0.0, 0.0, 0.0,
                 float(s["eccentricity"]), float(s["argp_deg"]) * DEG, float(s["inclination_deg"]) * DEG,
                 float(s["mean_anomaly_deg"]) * DEG, float(s["mean_motion_rev_day"]) * 2.0 * math.pi / 1440.0,
                 float(s["raan_deg"]) * DEG)
    if sat.error:
        raise RuntimeError(f"sgp4init error {sat.error}")
    states = []
    for t in s["times_days"]:
        err, r, v = sat.sgp4_tsince(float(t) * 1440.0)
        if err:
            raise RuntimeError(f"sgp4 error {err} at t={t} d")
        states.append({"t_days": float(t), "r_km": list(r), "v_km_s": list(v), "osculating": osculating(r, v, consts.mu)})
    re = sat.radiusearthkm
    return {
        "method": sat.method,
        "resonance": int(sat.irez),
        "semi_major_axis_km": sat.a * re,
        "perigee_alt_km": sat.altp * re,
        "apogee_alt_km": sat.alta * re,
        "mean_anomaly_rate_deg_day": sat.mdot * 1440.0 / DEG,
        "raan_rate_deg_day": sat.nodedot * 1440.0 / DEG,
        "argp_rate_deg_day": sat.argpdot * 1440.0 / DEG,
        "states": states,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
