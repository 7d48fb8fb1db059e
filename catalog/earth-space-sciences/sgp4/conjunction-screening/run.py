"""Conjunction screening of two satellites with sgp4's vectorised propagation (Satrec.sgp4_array over a time grid):
the closest approach on the grid, refined by a bounded scalar minimisation of the separation (Satrec.sgp4 per call),
with the miss vector resolved into the primary's radial / in-track / cross-track (RIC) frame, as a conjunction
assessment analyst screens a pair.

Entry workflow: main(dict) -> dict; builds new objects only.
"""

import math

import numpy as np
from scipy.optimize import minimize_scalar
from sgp4.api import WGS72, Satrec

SGP4_EPOCH0_JD = 2433281.5  # 1949 December 31 00:00 UT: origin of sgp4init's epoch argument
DEG = math.pi / 180.0
RAAN_DEG, ARGP_DEG, M_DEG = 40.0, 0.0, 0.0  # the primary's angles; the secondary's are offset from them


def satellite(s: dict, d_incl: float, d_raan: float, d_m: float) -> Satrec:
    sat = Satrec()
    sat.sgp4init(WGS72, "i", 1, float(s["epoch_jd"]) - SGP4_EPOCH0_JD, float(s["bstar"]), 0.0, 0.0,
                 float(s["eccentricity"]), ARGP_DEG * DEG, (float(s["inclination_deg"]) + d_incl) * DEG,
                 (M_DEG + d_m) * DEG, float(s["mean_motion_rev_day"]) * 2.0 * math.pi / 1440.0, (RAAN_DEG + d_raan) * DEG)
    return sat


def state(sat: Satrec, jd: float, t_min: float) -> tuple[np.ndarray, np.ndarray]:
    err, r, v = sat.sgp4(jd, t_min / 1440.0)
    if err:
        raise RuntimeError(f"sgp4 error {err}")
    return np.array(r), np.array(v)


def main(s: dict) -> dict:
    a = satellite(s, 0.0, 0.0, 0.0)
    b = satellite(s, float(s["incl_offset_deg"]), float(s["raan_offset_deg"]), float(s["anomaly_offset_deg"]))
    jd = float(s["epoch_jd"])
    step = float(s["step_s"]) / 60.0
    t = np.arange(0.0, float(s["window_min"]) + 1e-9, step)
    jds, frs = np.full(t.size, jd), t / 1440.0
    ea, ra, _ = a.sgp4_array(jds, frs)
    eb, rb, _ = b.sgp4_array(jds, frs)
    if ea.any() or eb.any():
        raise RuntimeError("sgp4 error on the grid")
    sep = np.linalg.norm(ra - rb, axis=1)
    k = int(np.argmin(sep))

    def distance(tm: float) -> float:
        return float(np.linalg.norm(state(a, jd, tm)[0] - state(b, jd, tm)[0]))

    lo, hi = max(0.0, t[k] - step), min(float(t[-1]), t[k] + step)
    res = minimize_scalar(distance, bounds=(lo, hi), method="bounded", options={"xatol": 1e-7})
    tca = float(res.x)
    r1, v1 = state(a, jd, tca)
    r2, v2 = state(b, jd, tca)
    d = r2 - r1
    radial = r1 / np.linalg.norm(r1)
    cross = np.cross(r1, v1)
    cross /= np.linalg.norm(cross)
    intrack = np.cross(cross, radial)
    return {
        "grid_points": int(t.size),
        "grid_min_separation_km": float(sep[k]),
        "grid_min_t_min": float(t[k]),
        "tca_min": tca,
        "miss_distance_km": float(np.linalg.norm(d)),
        "relative_speed_km_s": float(np.linalg.norm(v2 - v1)),
        "miss_ric_km": {"radial": float(d @ radial), "in_track": float(d @ intrack), "cross_track": float(d @ cross)},
        "max_separation_km": float(sep.max()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
