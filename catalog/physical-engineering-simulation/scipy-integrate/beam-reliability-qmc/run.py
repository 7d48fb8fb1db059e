"""Failure probability of a simply supported steel beam by quasi-Monte Carlo integration with
scipy.integrate.qmc_quad: the limit-state indicator and the stress ratio integrated over the unit cube of the
three random variables (load, yield strength, section modulus) mapped through their inverse CDFs, with a seeded
scrambled Sobol or Halton engine (scipy.stats.qmc) and randomized replicates for the standard error.

Entry workflow: warm workers import this module once; main() integrates per call.
"""

import math

import numpy as np
from scipy.integrate import qmc_quad
from scipy.special import ndtri
from scipy.stats import qmc

SPAN_M = 6.0


def variables(u: np.ndarray, scenario: dict) -> tuple:
    """Map uniforms (3, n) to load P (N, lognormal), strength fy (Pa, normal), modulus W (m^3, normal)."""
    cov = float(scenario["load_cov"])
    s = math.sqrt(math.log(1.0 + cov * cov))
    mu = math.log(float(scenario["load_mean_kN"]) * 1e3) - 0.5 * s * s
    load = np.exp(mu + s * ndtri(u[0]))
    fy = float(scenario["strength_mean_MPa"]) * 1e6 * (1.0 + float(scenario["strength_cov"]) * ndtri(u[1]))
    w = float(scenario["section_modulus_cm3"]) * 1e-6 * (1.0 + 0.04 * ndtri(u[2]))
    return load, fy, w


def main(scenario: dict) -> dict:
    def stress_ratio(u: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):  # qmc_quad's first probe call may sit on a cube corner
            load, fy, w = variables(u, scenario)
            return load * SPAN_M / 4.0 / w / fy  # midspan moment P L / 4 over W, relative to yield

    seed = int(scenario["seed"])
    engine = (
        qmc.Sobol(d=3, scramble=True, seed=seed)
        if scenario["engine"] == "sobol"
        else qmc.Halton(d=3, scramble=True, seed=seed)
    )
    kw = {"n_estimates": int(scenario["n_estimates"]), "n_points": int(scenario["n_points"]), "qrng": engine}
    pf = qmc_quad(lambda u: (stress_ratio(u) > 1.0).astype(float), np.zeros(3), np.ones(3), **kw)
    engine2 = (
        qmc.Sobol(d=3, scramble=True, seed=seed)
        if scenario["engine"] == "sobol"
        else qmc.Halton(d=3, scramble=True, seed=seed)
    )
    ratio = qmc_quad(stress_ratio, np.zeros(3), np.ones(3), **{**kw, "qrng": engine2})
    floor = 0.5 / (kw["n_points"] * kw["n_estimates"])
    beta = -float(ndtri(min(max(float(pf.integral), floor), 1.0 - floor)))
    return {
        "failure_probability": float(pf.integral),
        "failure_probability_se": float(pf.standard_error),
        "reliability_index": beta,
        "mean_stress_ratio": float(ratio.integral),
        "mean_stress_ratio_se": float(ratio.standard_error),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
