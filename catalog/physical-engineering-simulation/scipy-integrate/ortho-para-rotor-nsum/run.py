"""Rotational thermodynamics of a homonuclear diatomic gas with nuclear-spin statistics (ortho and para
hydrogen, deuterium, nitrogen) from its infinite rotational sums, evaluated with scipy.integrate.nsum over the
even and the odd rotational levels separately.

Entry workflow: main(dict) -> dict; module state is never mutated.
"""

import numpy as np
from scipy.integrate import nsum

RTOL = 1e-14


def level_sums(y: float, parity: int) -> np.ndarray:
    """Sums over J = parity, parity + 2, ... of (2J+1) e^{-e_J} e_J^k, k = 0, 1, 2, with e_J = J(J+1) y."""

    def f(j, k):
        e = j * (j + 1.0) * y
        return (2.0 * j + 1.0) * np.exp(-e) * e**k

    res = nsum(f, parity, np.inf, step=2, args=(np.array([0.0, 1.0, 2.0]),), tolerances={"rtol": RTOL})
    if not np.all(res.success):
        raise RuntimeError(f"nsum did not converge: status {res.status}")
    return np.asarray(res.sum, dtype=float)


def moments(s: np.ndarray) -> tuple[float, float]:
    """(U/RT, Cv/R) of a population with sums s: <e>, <e^2> - <e>^2."""
    m1 = s[1] / s[0]
    return float(m1), float(s[2] / s[0] - m1 * m1)


def main(scn: dict) -> dict:
    temp = float(scn["temperature_K"])
    theta = float(scn["rotational_temperature_K"])
    spin = float(scn["nuclear_spin"])
    mix = str(scn["mixture"])
    y = theta / temp
    even, odd = level_sums(y, 0), level_sums(y, 1)
    n_antisym = (2.0 * spin + 1.0) * spin  # antisymmetric nuclear-spin states
    n_sym = (2.0 * spin + 1.0) * (spin + 1.0)  # symmetric nuclear-spin states
    fermion = bool(round(2.0 * spin) % 2)
    g_even, g_odd = (n_antisym, n_sym) if fermion else (n_sym, n_antisym)
    z_eq = g_even * even + g_odd * odd
    u_even, c_even = moments(even)
    u_odd, c_odd = moments(odd)
    u_eq, c_eq = moments(z_eq)
    w_odd_eq = float(g_odd * odd[0] / z_eq[0])
    if mix == "equilibrium":
        u, cv = u_eq, c_eq
    else:  # frozen at the high-temperature ratio g_odd : g_even, each modification relaxing on its own
        w = g_odd / (g_even + g_odd)
        u = (1.0 - w) * u_even + w * u_odd
        cv = (1.0 - w) * c_even + w * c_odd
    return {
        "z_even": float(even[0]),
        "z_odd": float(odd[0]),
        "z_rot_nuclear": float(z_eq[0]),
        "odd_J_fraction_equilibrium": w_odd_eq,
        "u_rot_over_RT": u,
        "cv_rot_over_R": cv,
        "cv_even_over_R": c_even,
        "cv_odd_over_R": c_odd,
        "high_T_z_over_nuclear": float(z_eq[0] / (2.0 * spin + 1.0) ** 2 * 2.0 * y),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
