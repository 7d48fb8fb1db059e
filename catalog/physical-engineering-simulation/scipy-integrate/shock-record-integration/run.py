"""Integration of a sampled accelerometer record from a shock test (a decaying sine plus a sensor offset) to
velocity and displacement with scipy.integrate's sampled-data rules: cumulative_trapezoid, cumulative_simpson,
simpson and romb, and the drift a small offset produces.

Entry workflow: main(dict) -> dict; module state is never mutated.
"""

import math
import tomllib
from pathlib import Path

import numpy as np
from scipy.integrate import cumulative_simpson, cumulative_trapezoid, romb, simpson

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
G = CONSTANTS["G"]
N_SAMPLES_OUT = 9


def main(scn: dict) -> dict:
    amp = float(scn["amplitude_g"]) * G
    f = float(scn["frequency_Hz"])
    zeta = float(scn["damping_ratio"])
    bias = float(scn["bias_m_s2"])
    dur = float(scn["duration_s"])
    n = 2 ** int(scn["log2_intervals"])
    t = np.linspace(0.0, dur, n + 1)
    dt = dur / n
    w = 2.0 * math.pi * f
    a = amp * np.exp(-zeta * w * t) * np.sin(w * t) + bias
    v = cumulative_trapezoid(a, dx=dt, initial=0.0)
    x = cumulative_trapezoid(v, dx=dt, initial=0.0)
    v_s = cumulative_simpson(a, dx=dt, initial=0.0)
    x_s = cumulative_simpson(v_s, dx=dt, initial=0.0)
    step = n // (N_SAMPLES_OUT - 1)
    idx = range(0, n + 1, step)
    return {
        "velocity_end_trapezoid_m_s": float(v[-1]),
        "velocity_end_simpson_m_s": float(simpson(a, dx=dt)),
        "velocity_end_romberg_m_s": float(romb(a, dx=dt)),
        "displacement_end_trapezoid_m": float(x[-1]),
        "displacement_end_cumulative_simpson_m": float(x_s[-1]),
        "peak_abs_velocity_m_s": float(np.max(np.abs(v))),
        "rms_acceleration_m_s2": float(math.sqrt(romb(a * a, dx=dt) / dur)),
        "bias_velocity_drift_m_s": bias * dur,
        "velocity_samples_m_s": [{"t": float(t[i]), "trapezoid": float(v[i]), "cumulative_simpson": float(v_s[i])}
                                 for i in idx],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
