"""Steady-state Kalman-Bucy filter for a mass-spring-damper driven by a white-noise force and observed by a
noisy position or velocity sensor, with python-control: modal data (ct.damp), the filter gain and error
covariance (ct.lqe), and the unfiltered state covariance (ct.lyap).

Entry workflow: main(dict) -> dict; heavy imports at module level, module state never mutated.
"""

import math

import numpy as np
import control as ct


def modes(sys):
    """One entry per complex pair (or real pole): wn, zeta, sorted by wn then zeta."""
    wn, zeta, _poles = ct.damp(sys, doprint=False)
    unique = {(round(float(w), 12), round(float(z), 12)): (float(w), float(z)) for w, z in zip(wn, zeta)}
    pairs = sorted(unique.values())
    return [{"wn_rad_s": w, "zeta": z} for w, z in pairs]


def main(scn: dict) -> dict:
    m = float(scn["mass_kg"])
    fn = float(scn["natural_freq_Hz"])
    zeta = float(scn["damping_ratio"])
    qn = float(scn["force_noise_N2_s"])
    rn = float(scn["sensor_noise"])
    sensor = str(scn["sensor"])
    k = m * (2.0 * math.pi * fn) ** 2
    c = 2.0 * zeta * math.sqrt(k * m)
    A = np.array([[0.0, 1.0], [-k / m, -c / m]])
    G = np.array([[0.0], [1.0 / m]])
    C = np.array([[1.0, 0.0]]) if sensor == "position" else np.array([[0.0, 1.0]])
    L, P, _E = ct.lqe(A, G, C, np.array([[qn]]), np.array([[rn]]))
    L, P = np.asarray(L), np.asarray(P)
    if sensor == "velocity":
        # Entry (1,1) of the Riccati equation reads p_xv (2 - p_xv / Rn) = 0 and the stabilising root is 0, so
        # L[0] = p_xv / Rn vanishes by structure: report 0, not the solver's ~1e-14 residue.
        L[0, 0] = 0.0
    X = np.asarray(ct.lyap(A, G @ G.T * qn))  # A X + X A^T + G Qn G^T = 0
    est = ct.ss(A - L @ C, L, np.eye(2), np.zeros((2, 1)))
    return {
        "plant_modes": modes(ct.ss(A, G, C, 0)),
        "kalman_gain": [float(v) for v in L.ravel()],
        "error_covariance": {"p_xx": float(P[0, 0]), "p_vv": float(P[1, 1])},
        "estimator_modes": modes(est),
        "open_loop_std": {"position_m": math.sqrt(X[0, 0]), "velocity_m_s": math.sqrt(X[1, 1])},
        "position_std_reduction": math.sqrt(P[0, 0] / X[0, 0]),
        "velocity_std_reduction": math.sqrt(P[1, 1] / X[1, 1]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
