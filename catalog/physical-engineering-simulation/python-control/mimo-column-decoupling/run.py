"""Directionality of a 2x2 distillation-column model with python-control: singular values over frequency
(ct.singular_values_response), condition number and relative gain array, and an inverse-based (decoupling)
integral controller closed around the plant with an input-gain error, its MIMO step response and interactions.

Entry workflow: warm workers import this module once; main() builds the loop per call.
"""

import control as ct
import numpy as np

PRESETS = {
    "lv_column": [[87.8, -86.4], [108.2, -109.6]],
    "dv_column": [[-87.8, 1.4], [-108.2, -1.4]],
    "weakly_coupled": [[2.0, 0.3], [0.4, 1.5]],
}


def plant(k: np.ndarray, tau: float, tau2: float) -> ct.StateSpace:
    """y_i = (k_i1 u1 + k_i2 u2) / (tau_i s + 1): output 2 responds with its own lag."""
    lags = np.array([tau, tau2])
    return ct.ss(np.diag(-1.0 / lags), k / lags[:, None], np.eye(2), np.zeros((2, 2)))


def main(scenario: dict) -> dict:
    k = np.array(PRESETS[scenario["preset"]], dtype=float)
    tau, tau2 = float(scenario["tau_s"]), float(scenario["tau2_s"])
    g = plant(k, tau, tau2)
    omega = np.logspace(-4.0, np.log10(float(scenario["w_max_rad_s"])), 50)
    sv = np.squeeze(ct.singular_values_response(g, omega).magnitude)
    cond = sv[0] / sv[1]
    rga = k * np.linalg.inv(k).T
    e = float(scenario["input_gain_error"])
    err = ct.ss(np.zeros((0, 0)), np.zeros((0, 2)), np.zeros((2, 0)), np.diag([1.0 + e, 1.0 - e]))
    kinv = np.linalg.inv(k)
    kc = float(scenario["bandwidth_rad_s"])
    # inverse-based controller (kc / s) G(s)^-1 = kc K^-1 diag(tau_j s + 1) / s: an integrator per input
    ctrl = ct.ss(np.zeros((2, 2)), np.eye(2), kc * kinv, kc * kinv @ np.diag([tau, tau2]))
    closed = ct.feedback(g * err * ctrl, np.eye(2))
    poles = ct.poles(closed)
    t = np.linspace(0.0, 10.0 / kc, 401)
    y = ct.step_response(closed, T=t).outputs  # (outputs, inputs, time)
    return {
        "sigma_max_low": float(sv[0, 0]),
        "sigma_min_low": float(sv[1, 0]),
        "condition_low": float(cond[0]),
        "condition_high": float(cond[-1]),
        "rga_11": float(rga[0, 0]),
        "closed_loop_stable": bool(np.all(poles.real < 0)),
        "spectral_abscissa": float(poles.real.max()),
        "diagonal_peak": [float(np.max(y[0, 0])), float(np.max(y[1, 1]))],
        "interaction_peak": [float(np.max(np.abs(y[1, 0]))), float(np.max(np.abs(y[0, 1])))],
        "final_outputs": [[float(y[i, j, -1]) for j in range(2)] for i in range(2)],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
