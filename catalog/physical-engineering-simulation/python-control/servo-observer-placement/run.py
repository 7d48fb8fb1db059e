"""Pole-placement position servo of a DC motor with a full-order observer, python-control's state-space
design tools: the observability matrix (ct.obsv), the controller by ct.place,
the observer by Ackermann's formula (ct.acker) on the dual system, and the observer-based loop's response to
a position step with an initial estimation error (ct.forced_response).

Entry workflow: main(dict) -> dict; heavy imports at module level, module state never mutated.
"""

import math

import numpy as np
import control as ct

N_T = 1001
FRACTIONS = [i / 10.0 for i in range(11)]


def motor(j, b, kt, r, ind):
    """States [theta, omega, current], input voltage, output theta; back-emf constant equal to kt (SI units)."""
    a = np.array([[0.0, 1.0, 0.0], [0.0, -b / j, kt / j], [0.0, -kt / ind, -r / ind]])
    return a, np.array([[0.0], [0.0], [1.0 / ind]]), np.array([[1.0, 0.0, 0.0]])


def sorted_poles(vals):
    out = sorted((float(np.real(v)), float(np.imag(v))) for v in vals)
    return [{"re": a, "im": c} for a, c in out]


def main(scn: dict) -> dict:
    A, B, C = motor(float(scn["inertia_kg_m2"]), float(scn["friction_N_m_s"]), float(scn["torque_constant_N_m_A"]),
                    float(scn["resistance_ohm"]), float(scn["inductance_H"]))
    wc = float(scn["bandwidth_rad_s"])
    fo = float(scn["observer_factor"])
    step = float(scn["step_rad"])
    e0 = float(scn["initial_estimate_error_rad"])
    poles = wc * np.array([-1.0, complex(-0.5, math.sqrt(3) / 2), complex(-0.5, -math.sqrt(3) / 2)])
    K = np.asarray(ct.place(A, B, poles)).reshape(1, 3)
    L = np.asarray(ct.acker(A.T, C.T, fo * poles)).reshape(3, 1)
    acl = A - B @ K
    nbar = float(-1.0 / (C @ np.linalg.solve(acl, B))[0, 0])
    # Plant state x and estimation error e = x - x_hat; u = -K x_hat + nbar r = -K x + K e + nbar r.
    big_a = np.block([[acl, B @ K], [np.zeros((3, 3)), A - L @ C]])
    big_b = np.vstack([B * nbar, np.zeros((3, 1))])
    big_c = np.block([[C, np.zeros((1, 3))], [-K, K]])
    big_d = np.array([[0.0], [nbar]])
    loop = ct.ss(big_a, big_b, big_c, big_d)
    t_end = 10.0 / wc
    T = np.linspace(0.0, t_end, N_T)
    x0 = np.array([0.0, 0.0, 0.0, e0, 0.0, 0.0])  # x_hat(0) = -e0 in theta: the estimate starts wrong
    resp = ct.forced_response(loop, T=T, U=np.full(N_T, step), X0=x0)
    y = np.asarray(resp.outputs)
    theta, u = y[0], y[1]
    return {
        "open_loop_poles": sorted_poles(np.linalg.eigvals(A)),
        "observability_cond": float(np.linalg.cond(ct.obsv(A, C))),
        "state_gain": [float(v) for v in K.ravel()],
        "observer_gain": [float(v) for v in L.ravel()],
        "reference_gain": nbar,
        "loop_poles": sorted_poles(np.linalg.eigvals(big_a)),
        "response": {
            "t_end_s": t_end,
            "theta_samples_rad": [float(np.interp(f * t_end, T, theta)) for f in FRACTIONS],
            "peak_theta_rad": float(np.max(theta)),
            "max_abs_voltage_V": float(np.max(np.abs(u))),
            "initial_voltage_V": float(u[0]),
        },
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
