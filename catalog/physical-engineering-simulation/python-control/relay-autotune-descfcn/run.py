"""Relay-feedback auto-tuning (Astrom-Hagglund) of a third-order lag predicted by the describing-function
method with python-control's describing-function tools (control.descfcn): the relay-with-hysteresis limit
cycle, the ultimate gain and period it estimates, Ziegler-Nichols PID settings from them, and the true
ultimate point for comparison.

Entry workflow: main(dict) -> dict; heavy imports at module level, module state never mutated.
"""

import math

import numpy as np
import control as ct
from scipy.optimize import brentq



def plant(k: float, taus: list[float]) -> ct.TransferFunction:
    den = np.array([1.0])
    for tau in taus:
        den = np.polymul(den, [tau, 1.0])
    return ct.tf([k], den)


def g_at(g: ct.TransferFunction, w: float) -> complex:
    return complex(ct.evalfr(g, 1j * w))


def phase_crossover(g: ct.TransferFunction, taus: list[float]) -> float:
    """omega where arg G = -180 deg: the sum of atan(tau w) equals pi (the imaginary part changes sign)."""
    return brentq(lambda w: sum(math.atan(t * w) for t in taus) - math.pi, 1e-6, 1e6, rtol=1e-15)


def limit_cycle(g, taus, d: float, eps: float) -> tuple[float, float]:
    """Harmonic balance G(jw) N(a) = -1 for the relay with hysteresis: Im G(jw) = -pi eps / (4 d) on the branch
    where arg G is between -90 and -180 deg, then a from Re G(jw) = -(pi / 4d) sqrt(a^2 - eps^2)."""
    w90 = brentq(lambda w: sum(math.atan(t * w) for t in taus) - math.pi / 2, 1e-6, 1e6, rtol=1e-15)
    w180 = phase_crossover(g, taus)
    target = -math.pi * eps / (4.0 * d)
    if g_at(g, w90).imag >= target:
        raise ValueError("no limit cycle: the hysteresis is too wide for this plant")
    # Im G rises monotonically from its value at w90 to 0 at w180 on this branch for a pure lag of order 3.
    w = brentq(lambda x: g_at(g, x).imag - target, w90, w180, rtol=1e-15)
    re = g_at(g, w).real
    a = math.sqrt((4.0 * d * re / math.pi) ** 2 + eps * eps)
    return a, w


def main(scn: dict) -> dict:
    k = float(scn["plant_gain"])
    taus = [float(scn["tau1_s"]), float(scn["tau2_s"]), float(scn["tau3_s"])]
    d = float(scn["relay_amplitude"])
    eps = float(scn["hysteresis_fraction"]) * d * k
    g = plant(k, taus)
    relay = ct.relay_hysteresis_nonlinearity(b=d, c=eps)
    a, w = limit_cycle(g, taus, d, eps)
    n_a = complex(ct.describing_function(relay, a))
    residual = abs(g_at(g, w) * n_a + 1.0)
    if residual > 1e-8:
        raise RuntimeError(f"harmonic balance not met: |G N + 1| = {residual}")
    ku = 4.0 * d / (math.pi * a)
    tu = 2.0 * math.pi / w
    w180 = phase_crossover(g, taus)
    return {
        "hysteresis": eps,
        "limit_cycle_amplitude": a,
        "limit_cycle_frequency_rad_s": w,
        "describing_function_re": n_a.real,
        "describing_function_im": n_a.imag,
        "relay_ultimate_gain": ku,
        "relay_ultimate_period_s": tu,
        "zn_pid": {"kp": 0.6 * ku, "ti_s": tu / 2.0, "td_s": tu / 8.0},
        "true_ultimate_gain": 1.0 / abs(g_at(g, w180)),
        "true_ultimate_period_s": 2.0 * math.pi / w180,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
