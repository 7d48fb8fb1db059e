"""Rotational thermodynamics of a homonuclear diatomic gas with nuclear-spin statistics (ortho and para
hydrogen, deuterium, nitrogen) from its infinite rotational sums, evaluated with scipy.integrate.nsum over the
even and the odd rotational levels separately.

Entry workflow: main(dict) -> dict; module state is never mutated.
"""

import tomllib
from pathlib import Path

import numpy as np
from scipy.integrate import nsum

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
R = CONSTANTS["R"]
RTOL = 1e-14


def parity_stats(y: float, parity: int) -> tuple[float, float, float]:
    """(Z, <e>, var e) of the levels J = parity, parity + 2, ... (e_J = J(J+1) y, weights 2J+1).

    The sums run over energies above the parity's lowest level e_p, S_k = sum (2J+1) e^{-(e_J - e_p)} (e_J - e_p)^k,
    so the variance S2/S0 - (S1/S0)^2 never cancels two large numbers (it is exponentially small at low T);
    Z = e^{-e_p} S0 and <e> = e_p + S1/S0."""
    e_p = parity * (parity + 1.0) * y

    def f(j, k):
        e = j * (j + 1.0) * y - e_p
        return (2.0 * j + 1.0) * np.exp(-e) * e**k

    res = nsum(f, parity, np.inf, step=2, args=(np.array([0.0, 1.0, 2.0]),), tolerances={"rtol": RTOL})
    if not np.all(res.success):
        raise RuntimeError(f"nsum did not converge: status {res.status}")
    s0, s1, s2 = (float(v) for v in res.sum)
    m1 = s1 / s0
    return float(np.exp(-e_p) * s0), e_p + m1, s2 / s0 - m1 * m1


def main(scn: dict) -> dict:
    theta = float(scn["rotational_temperature_K"])
    temp = float(scn["reduced_temperature"]) * theta
    spin = float(scn["nuclear_spin"])
    mix = str(scn["mixture"])
    y = theta / temp
    z_even, u_even, c_even = parity_stats(y, 0)
    z_odd, u_odd, c_odd = parity_stats(y, 1)
    n_antisym = (2.0 * spin + 1.0) * spin  # antisymmetric nuclear-spin states
    n_sym = (2.0 * spin + 1.0) * (spin + 1.0)  # symmetric nuclear-spin states
    fermion = bool(round(2.0 * spin) % 2)
    g_even, g_odd = (n_antisym, n_sym) if fermion else (n_sym, n_antisym)
    z_eq = g_even * z_even + g_odd * z_odd
    w_odd_eq = g_odd * z_odd / z_eq
    if mix == "equilibrium":  # one population: the variance of a two-component mixture
        u = (1.0 - w_odd_eq) * u_even + w_odd_eq * u_odd
        cv = (1.0 - w_odd_eq) * c_even + w_odd_eq * c_odd + w_odd_eq * (1.0 - w_odd_eq) * (u_odd - u_even) ** 2
    else:  # frozen at the high-temperature ratio g_odd : g_even, each modification relaxing on its own
        w = g_odd / (g_even + g_odd)
        u = (1.0 - w) * u_even + w * u_odd
        cv = (1.0 - w) * c_even + w * c_odd
    return {
        "temperature_K": temp,
        "z_even": z_even,
        "z_odd": z_odd,
        "z_rot_nuclear": z_eq,
        "odd_J_fraction_equilibrium": w_odd_eq,
        "u_rot_over_RT": u,
        "cv_rot_over_R": cv,
        "u_rot_J_mol": u * R * temp,
        "cv_rot_J_molK": cv * R,
        "cv_even_over_R": c_even,
        "cv_odd_over_R": c_odd,
        "high_T_z_over_nuclear": z_eq / (2.0 * spin + 1.0) ** 2 * 2.0 * y,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
