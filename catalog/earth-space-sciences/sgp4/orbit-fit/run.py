"""Orbit determination with SGP4 as the dynamical model: fit a satellite's six mean elements to noisy TEME position
observations by nonlinear least squares (scipy.optimize.least_squares, Levenberg-Marquardt), each trial element set
initialised with Satrec.sgp4init and propagated with Satrec.sgp4_array, as an analyst fits a TLE-like element set to
tracking data.

Entry workflow: main(dict) -> dict; builds new objects only.
"""

import math
import tomllib
from pathlib import Path

import numpy as np
from scipy.optimize import least_squares
from sgp4.api import WGS72, Satrec

SGP4_EPOCH0_JD = 2433281.5  # 1949 December 31 00:00 UT: origin of sgp4init's epoch argument
# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
EPOCH_JD = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]["FIT_EPOCH_JD"]
DEG = math.pi / 180.0
GUESS_OFFSET = np.array([0.002, 0.002, 0.05, 0.05, 1.0, -1.0])  # first guess = truth + this (units of NAMES)
NAMES = ("mean_motion_rev_day", "eccentricity", "inclination_deg", "raan_deg", "argp_deg", "mean_anomaly_deg")


def positions(x: np.ndarray, t_min: np.ndarray) -> np.ndarray:
    n, e, i, raan, argp, m = x
    sat = Satrec()
    sat.sgp4init(WGS72, "i", 1, EPOCH_JD - SGP4_EPOCH0_JD, 0.0, 0.0, 0.0, e, argp * DEG, i * DEG, m * DEG,
                 n * 2.0 * math.pi / 1440.0, raan * DEG)
    err, r, _ = sat.sgp4_array(np.full(t_min.size, EPOCH_JD), t_min / 1440.0)
    if np.any(err):
        raise RuntimeError("sgp4 error")
    return r


def main(s: dict) -> dict:
    truth = np.array([float(s[k]) for k in NAMES])
    t = np.linspace(0.0, float(s["arc_hours"]) * 60.0, int(s["n_obs"]))
    rng = np.random.default_rng(int(s["seed"]))
    obs = positions(truth, t) + rng.normal(0.0, float(s["noise_km"]), (t.size, 3))
    guess = truth + GUESS_OFFSET
    res = least_squares(lambda x: (positions(x, t) - obs).ravel(), guess, method="lm", x_scale="jac",
                        xtol=1e-12, ftol=1e-12, gtol=1e-12)
    resid = res.fun.reshape(-1, 3)
    fitted = res.x
    return {
        "fitted": {k: float(v) for k, v in zip(NAMES, fitted)},
        "rms_residual_km": float(math.sqrt(np.mean(np.sum(resid * resid, axis=1)))),
        "truth_position_error_km": float(np.max(np.linalg.norm(positions(fitted, t) - positions(truth, t), axis=1))),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
