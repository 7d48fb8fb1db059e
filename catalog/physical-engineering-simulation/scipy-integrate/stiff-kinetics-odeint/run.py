"""Robertson's stiff autocatalytic reaction scheme (A -> B, B + B -> C + B, B + C -> A + C) integrated with
scipy.integrate.odeint (ODEPACK LSODA, switching between Adams and BDF) with the analytic Jacobian: the
benchmark of stiff chemical kinetics, here with user rate constants.

Entry workflow: main(dict) -> dict; module state is never mutated.
"""

import numpy as np
from scipy.integrate import odeint

RTOL, ATOL = 1e-10, 1e-16
DECADES = [6, 5, 4, 3, 2, 1, 0]  # samples at t_end * 10^-j


def rhs(y, _t, k1, k2, k3):
    a, b, c = y
    return [-k1 * a + k3 * b * c, k1 * a - k2 * b * b - k3 * b * c, k2 * b * b]


def jac(y, _t, k1, k2, k3):
    _a, b, c = y
    return [[-k1, k3 * c, k3 * b], [k1, -2.0 * k2 * b - k3 * c, -k3 * b], [0.0, 2.0 * k2 * b, 0.0]]


def main(scn: dict) -> dict:
    k1 = float(scn["k1_per_s"])
    k2 = float(scn["k2_per_M_s"])
    k3 = float(scn["k3_per_M_s"])
    a0 = float(scn["initial_A_M"])
    t_end = float(scn["t_end_s"])
    times = [0.0] + [t_end * 10.0 ** (-j) for j in DECADES]
    y, info = odeint(rhs, [a0, 0.0, 0.0], times, args=(k1, k2, k3), Dfun=jac, rtol=RTOL, atol=ATOL,
                     mxstep=100000, full_output=True)
    if info["message"] != "Integration successful.":
        raise RuntimeError(info["message"])
    samples = [{"t": float(t), "A": float(r[0]), "B": float(r[1]), "C": float(r[2])} for t, r in zip(times[1:], y[1:])]
    a, b, c = y[-1]
    eig = np.linalg.eigvals(np.array(jac(y[-1], t_end, k1, k2, k3)))
    return {
        "samples": samples,
        "conversion_A": float(1.0 - a / a0),
        "B_quasi_steady_M": float((-k3 * c + np.sqrt((k3 * c) ** 2 + 4.0 * k2 * k1 * a)) / (2.0 * k2)),
        "fastest_rate_per_s": float(np.max(np.abs(eig))),
        "selectivity_C": float(c / (a0 - a)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
