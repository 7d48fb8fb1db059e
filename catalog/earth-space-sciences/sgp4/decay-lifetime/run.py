"""Orbital decay of a low satellite under SGP4's drag model with sgp4's pure-Python near-earth propagator
(sgp4.model.Satrec: sgp4init/_initl and sgp4's secular drag terms): sample the orbit until SGP4 reports an error
(code 6: decayed below the Earth's surface; code 1: mean eccentricity out of range), then bisect the onset to one
minute, as an analyst estimates a re-entry window from a TLE.

Entry workflow: main(dict) -> dict; builds new objects only.
"""

import math

from sgp4.api import WGS72, WGS84
from sgp4.model import Satrec

SGP4_EPOCH0_JD = 2433281.5  # 1949 December 31 00:00 UT: origin of sgp4init's epoch argument
DEG = math.pi / 180.0
GRAVITY = {"wgs72": WGS72, "wgs84": WGS84}
MINUTE_D = 1.0 / 1440.0


def main(s: dict) -> dict:
    sat = Satrec()
    sat.sgp4init(GRAVITY[str(s["gravity_model"])], "i", 1, float(s["epoch_jd"]) - SGP4_EPOCH0_JD,
                 float(s["bstar"]), 0.0, 0.0, float(s["eccentricity"]), 0.0, float(s["inclination_deg"]) * DEG,
                 0.0, float(s["mean_motion_rev_day"]) * 2.0 * math.pi / 1440.0, 0.0)
    re = sat.radiusearthkm
    step = float(s["sample_step_days"])
    t_end = float(int(s["max_days"]))
    history, k, code, t_err = [], 0, 0, None
    while k * step <= t_end:
        t = k * step
        err, r, v = sat.sgp4_tsince(t * 1440.0)
        if err:
            code, t_err = int(err), t
            break
        history.append({"t_days": t, "altitude_km": math.sqrt(sum(c * c for c in r)) - re,
                        "speed_km_s": math.sqrt(sum(c * c for c in v))})
        k += 1
    onset = None
    if t_err is not None:
        lo, hi = history[-1]["t_days"], t_err
        while hi - lo > MINUTE_D:
            mid = 0.5 * (lo + hi)
            err, _, _ = sat.sgp4_tsince(mid * 1440.0)
            if err:
                hi, code = mid, int(err)
            else:
                lo = mid
        onset = hi
    return {
        "perigee_alt_km": sat.altp * re,
        "apogee_alt_km": sat.alta * re,
        "decayed": onset is not None,
        "error_code": code,
        "lifetime_days": onset if onset is not None else t_end,
        "history": history,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
