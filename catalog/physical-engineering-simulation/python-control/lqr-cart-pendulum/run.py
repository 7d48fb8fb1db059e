"""Linear-quadratic regulation of an inverted pendulum on a cart with python-control: continuous LQR
(ct.lqr), loop margins at the plant input, closed-loop initial-condition response, and a zero-order-hold
discretisation with discrete LQR (ct.c2d, ct.dlqr).

Entry workflow: main(dict) -> dict; heavy imports at module level, module state never mutated.
"""

import math

import numpy as np
import control as ct

G = 9.81
T_END = 8.0
N_T = 801
SAMPLE_TIMES = [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0]


def model(M, m, l, b):
    """States [x, x_dot, theta, theta_dot] (theta from upright, rad), input force on the cart (N).
    Pendulum: uniform rod, centre of mass at distance l from the pivot, inertia about the CoM I = m l^2 / 3."""
    inertia = m * l * l / 3.0
    p = inertia * (M + m) + M * m * l * l
    A = np.array([
        [0.0, 1.0, 0.0, 0.0],
        [0.0, -(inertia + m * l * l) * b / p, m * m * G * l * l / p, 0.0],
        [0.0, 0.0, 0.0, 1.0],
        [0.0, -m * l * b / p, m * G * l * (M + m) / p, 0.0],
    ])
    B = np.array([[0.0], [(inertia + m * l * l) / p], [0.0], [m * l / p]])
    return A, B


def eigs(vals):
    out = sorted((float(np.real(v)), float(np.imag(v))) for v in vals)
    return [{"re": a, "im": c} for a, c in out]


def main(scn: dict) -> dict:
    M = float(scn["cart_mass_kg"])
    m = float(scn["pendulum_mass_kg"])
    l = float(scn["com_distance_m"])
    b = float(scn["cart_friction_Ns_per_m"])
    Q = np.diag([float(scn["q_position"]), 0.0, float(scn["q_angle"]), 0.0])
    R = np.array([[float(scn["r_force"])]])
    theta0 = math.radians(float(scn["initial_angle_deg"]))
    Ts = float(scn["sample_time_s"])

    A, B = model(M, m, l, b)
    K, S, E = ct.lqr(A, B, Q, R)
    K = np.asarray(K)

    loop = ct.ss(A, B, K, np.zeros((1, 1)))
    gm, pm, _sm, wpc, wgc, _wms = ct.stability_margins(loop)

    Acl = A - B @ K
    cl = ct.ss(Acl, B, np.vstack([np.eye(4), -K]), np.zeros((5, 1)))
    T = np.linspace(0.0, T_END, N_T)
    x0 = np.array([0.0, 0.0, theta0, 0.0])
    resp = ct.initial_response(cl, T=T, X0=x0)
    y = np.asarray(resp.outputs)
    xs, th, u = y[0], y[2], y[4]
    samples = [{"t": t, "x_m": float(np.interp(t, T, xs)), "theta_deg": math.degrees(float(np.interp(t, T, th)))}
               for t in SAMPLE_TIMES]

    dsys = ct.c2d(ct.ss(A, B, np.eye(4), np.zeros((4, 1))), Ts, method="zoh")
    Kd, _Sd, Ed = ct.dlqr(dsys.A, dsys.B, Q, R)
    Kd = np.asarray(Kd)

    return {
        "open_loop_poles": eigs(np.linalg.eigvals(A)),
        "lqr_gain": [float(v) for v in K.ravel()],
        "riccati_trace": float(np.trace(S)),
        "cost_to_go": float(x0 @ S @ x0),
        "closed_loop_poles": eigs(E),
        "input_margins": {
            "gain_margin": float(gm),
            "phase_margin_deg": float(pm),
            "phase_crossover_rad_s": float(wpc),
            "gain_crossover_rad_s": float(wgc),
        },
        "response": {
            "max_abs_cart_m": float(np.max(np.abs(xs))),
            "max_abs_force_N": float(np.max(np.abs(u))),
            "initial_force_N": float(u[0]),
            "samples": samples,
        },
        "discrete": {
            "gain": [float(v) for v in Kd.ravel()],
            "spectral_radius": float(np.max(np.abs(Ed))),
        },
    }
