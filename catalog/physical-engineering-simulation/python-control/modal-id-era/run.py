"""Identification of a two-mode flexible structure from a noisy PRBS test, python-control's system-
identification tools: Markov parameters by least squares (ct.markov), a reduced realisation by the
eigensystem realisation algorithm (ct.eigensys_realization), and its modes (ct.damp).

Entry workflow: main(dict) -> dict; heavy imports at module level, module state never mutated.
"""

import math

import numpy as np
import control as ct

N_SAMPLES = 800
N_MARKOV = 150
HANKEL = 50
ORDER = 4
N_REPORTED = 8


def truth(f1, z1, f2, z2, g2):
    """Two modes in modal coordinates, force into both, displacement output 1 * q1 + g2 * q2."""
    w1, w2 = 2.0 * math.pi * f1, 2.0 * math.pi * f2
    A = np.zeros((4, 4))
    A[0, 1] = A[2, 3] = 1.0
    A[1, 0], A[1, 1] = -w1 * w1, -2.0 * z1 * w1
    A[3, 2], A[3, 3] = -w2 * w2, -2.0 * z2 * w2
    return ct.ss(A, [[0.0], [1.0], [0.0], [1.0]], [[1.0, 0.0, g2, 0.0]], 0.0)


def modes(sys):
    wn, zeta, _p = ct.damp(sys, doprint=False)
    unique = {(round(float(w), 10), round(float(z), 10)): (float(w), float(z)) for w, z in zip(wn, zeta)}
    pairs = sorted(unique.values())
    return [{"freq_Hz": w / (2.0 * math.pi), "zeta": z} for w, z in pairs]


def main(scn: dict) -> dict:
    dt = float(scn["sample_time_s"])
    f1 = float(scn["mode1_Hz"])
    sysc = truth(f1, float(scn["mode1_damping"]), f1 * float(scn["mode2_ratio"]), float(scn["mode2_damping"]),
                 float(scn["mode2_participation"]))
    sysd = ct.sample_system(sysc, dt, method="zoh")
    rng = np.random.default_rng(int(scn["seed"]))
    u = rng.choice([-1.0, 1.0], size=N_SAMPLES)
    noise = rng.normal(0.0, float(scn["noise_std"]), size=N_SAMPLES)
    y = np.asarray(ct.forced_response(sysd, U=u).outputs).ravel() + noise
    H = np.asarray(ct.markov(y, u, m=N_MARKOV)).ravel()
    # dt=True: no unit-area rescaling of B (H holds the pulse response itself); the sample time is set after.
    era0, sv = ct.eigensys_realization(H, ORDER, m=HANKEL, n=HANKEL, dt=True)
    era = ct.ss(era0.A, era0.B, era0.C, era0.D, dt)
    Ad, Bd, Cd = (np.asarray(M) for M in (sysd.A, sysd.B, sysd.C))
    true_markov = [float((Cd @ np.linalg.matrix_power(Ad, k) @ Bd)[0, 0]) for k in range(N_REPORTED)]
    return {
        "markov_estimate": [float(v) for v in H[1:N_REPORTED + 1]],
        "markov_true": true_markov,
        "hankel_singular_values": [float(v) for v in np.asarray(sv)[:6]],
        "identified_modes": modes(era),
        "true_modes": modes(sysd),
        "identified_dc_gain": float(np.real(ct.dcgain(era))),
        "true_dc_gain": float(np.real(ct.dcgain(sysd))),
        "output_rms": float(np.sqrt(np.mean(y * y))),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
