"""Large-deflection (Kirchhoff elastica) cantilever under tip forces, a tip moment and a distributed
weight, solved as a nonlinear two-point boundary value problem with scipy.integrate.solve_bvp.

Entry workflow: main(dict) -> dict, module state is never mutated.
"""

import math

import numpy as np
from scipy.integrate import solve_bvp

TOL = 1e-8
STEPS = 5  # load continuation steps lambda = 0.2, 0.4, ..., 1.0
FRACTIONS = [i / 10.0 for i in range(11)]


def solve(L, EI, P, H, q, M):
    s = np.linspace(0.0, L, 41)
    y = np.zeros((4, s.size))
    y[2] = s
    sol = None
    for k in range(1, STEPS + 1):
        lam = k / STEPS

        def rhs(s, y, lam=lam):
            th, kap = y[0], y[1]
            nx = lam * H
            ny = lam * (-P - q * (L - s))
            return np.vstack([kap, (np.sin(th) * nx - np.cos(th) * ny) / EI, np.cos(th), np.sin(th)])

        def bc(a, b, lam=lam):
            return np.array([a[0], b[1] - lam * M / EI, a[2], a[3]])

        sol = solve_bvp(rhs, bc, s, y, tol=TOL, bc_tol=1e-10, max_nodes=50000)
        if sol.status != 0:
            raise RuntimeError(f"solve_bvp failed at load factor {lam}: {sol.message}")
        s, y = sol.x, sol.y
    return sol


def main(scn: dict) -> dict:
    L = float(scn["length_m"])
    EI = float(scn["bending_stiffness_Nm2"])
    P = float(scn["tip_load_N"])
    H = float(scn["tip_axial_N"])
    q = float(scn["weight_per_length_Npm"])
    M = float(scn["tip_moment_Nm"])
    sol = solve(L, EI, P, H, q, M)

    th_L, kap_L, x_L, y_L = (float(v) for v in sol.sol(L))
    kap0 = float(sol.sol(0.0)[1])
    # Strain energy U = (EI/2) int kappa^2 ds on a fine uniform grid (composite Simpson).
    sg = np.linspace(0.0, L, 2001)
    kap = sol.sol(sg)[1]
    h = sg[1] - sg[0]
    w = np.ones(sg.size)
    w[1:-1:2] = 4.0
    w[2:-1:2] = 2.0
    energy = float(0.5 * EI * h / 3.0 * np.dot(w, kap * kap))
    samples = []
    for f in FRACTIONS:
        th, _k, x, yy = (float(v) for v in sol.sol(f * L))
        if f == 0.0:  # the clamp: theta = x = y = 0 by the boundary conditions, not the collocation's ~1e-24 roundoff
            th = x = yy = 0.0
        samples.append({"s": f * L, "x": x, "y": yy, "theta_deg": math.degrees(th)})
    # Small-deflection (Euler-Bernoulli) tip deflection and rotation, downward negative.
    lin_defl = -P * L**3 / (3 * EI) - q * L**4 / (8 * EI) + M * L**2 / (2 * EI)
    lin_rot = -P * L**2 / (2 * EI) - q * L**3 / (6 * EI) + M * L / EI
    return {
        "tip_x_m": x_L,
        "tip_y_m": y_L,
        "tip_rotation_deg": math.degrees(th_L),
        "root_moment_Nm": EI * kap0,
        "strain_energy_J": energy,
        "linear_tip_deflection_m": float(lin_defl),
        "linear_tip_rotation_deg": math.degrees(lin_rot),
        "samples": samples,
    }
