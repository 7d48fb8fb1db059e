"""Debye model of a crystal's lattice heat capacity, thermal energy and entropy, the Debye integrals evaluated
with scipy.integrate.quad_vec (adaptive Gauss-Kronrod quadrature of the two integrands as one vector-valued function).

Entry workflow: main(dict) -> dict; module state is never mutated.
"""

import math
import tomllib
from pathlib import Path

import numpy as np
from scipy.integrate import quad_vec

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
R = CONSTANTS["R"]
RTOL = 1e-12


def integrands(t: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """kind 3: t^3/(e^t - 1); kind 4: t^4 e^t/(e^t - 1)^2, both written with e^-t so large t never overflows."""
    em = np.exp(-t)
    with np.errstate(invalid="ignore", divide="ignore"):
        d3 = t**3 * em / -np.expm1(-t)
        d4 = t**4 * em / np.expm1(-t) ** 2
    d3 = np.where(t == 0.0, 0.0, d3)
    d4 = np.where(t == 0.0, 0.0, d4)
    return np.where(kind == 3, d3, d4)


def main(scn: dict) -> dict:
    theta = float(scn["debye_temperature_K"])
    temp = float(scn["temperature_K"])
    n = int(scn["atoms_per_formula_unit"])
    molar_mass = float(scn["molar_mass_g_mol"]) * 1e-3
    x = theta / temp
    kinds = np.array([3, 4])
    integral, _, info = quad_vec(
        lambda t: integrands(np.asarray(t), kinds), 0.0, x, epsabs=0.0, epsrel=RTOL, norm="max", full_output=True
    )
    if not info.success:
        raise RuntimeError(f"quad_vec did not converge: status {info.status}")
    i3, i4 = (float(v) for v in integral)
    d3 = 3.0 * i3 / x**3
    cv = 9.0 * n * R * i4 / x**3
    u = 3.0 * n * R * temp * d3
    s = n * R * (4.0 * d3 - 3.0 * math.log(-math.expm1(-x)))
    return {
        "x_debye": x,
        "debye_function_D3": d3,
        "cv_molar_J_molK": cv,
        "cv_specific_J_kgK": cv / molar_mass,
        "cv_fraction_of_dulong_petit": cv / (3.0 * n * R),
        "thermal_energy_J_mol": u,
        "zero_point_energy_J_mol": 9.0 / 8.0 * n * R * theta,
        "entropy_J_molK": s,
        "helmholtz_thermal_J_mol": u - temp * s,
        "t3_law_cv_J_molK": 12.0 * math.pi**4 / 5.0 * n * R / x**3,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
