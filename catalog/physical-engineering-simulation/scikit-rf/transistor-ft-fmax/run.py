"""Cut-off frequencies of a field-effect transistor from its small-signal model with scikit-rf: the intrinsic FET's
Y-parameters (gm with transit delay, gds, Cgs with its charging resistance Ri, Cgd, Cds) as a rf.Network, its current
gain h21 (skrf.network.s2h), Mason's unilateral gain (Network.unilateral_gain) and the maximum available / stable gain
(Network.max_gain), and the transition frequency fT (|h21| = 1) and maximum oscillation frequency fmax (U = 1) read
from a logarithmic sweep, as a device engineer extracts fT and fmax.

Entry workflow: main(dict) -> dict; no module state is mutated.
"""

import math

import numpy as np
import skrf as rf

N_F = 61
Z0 = 50.0


def crossing(f: np.ndarray, level_db: np.ndarray) -> float:
    """First grid interval where the level falls through 0 dB, interpolated linearly in (log10 f, dB); the grid end
    if it never does."""
    for i in range(1, f.size):
        if level_db[i] < 0.0 <= level_db[i - 1]:
            lf0, lf1 = math.log10(f[i - 1]), math.log10(f[i])
            return 10.0 ** (lf0 + (0.0 - level_db[i - 1]) * (lf1 - lf0) / (level_db[i] - level_db[i - 1]))
    return float(f[-1])


def main(s: dict) -> dict:
    freq = rf.Frequency(0.1, 5000.0, N_F, unit="GHz", sweep_type="log")
    w = 2.0 * np.pi * freq.f
    gm, gds = float(s["gm_mS"]) * 1e-3, float(s["gds_mS"]) * 1e-3
    cgs, cgd, cds = (float(s[k]) * 1e-15 for k in ("Cgs_fF", "Cgd_fF", "Cds_fF"))
    ri, tau = float(s["Ri_ohm"]), float(s["tau_ps"]) * 1e-12
    d = 1.0 + 1j * w * ri * cgs
    y = np.zeros((N_F, 2, 2), dtype=complex)
    y[:, 0, 0] = 1j * w * cgs / d + 1j * w * cgd
    y[:, 0, 1] = -1j * w * cgd
    y[:, 1, 0] = gm * np.exp(-1j * w * tau) / d - 1j * w * cgd
    y[:, 1, 1] = gds + 1j * w * (cds + cgd)
    net = rf.Network(frequency=freq, y=y, z0=Z0)
    h21_db = 20.0 * np.log10(np.abs(rf.network.s2h(net.s, net.z0)[:, 1, 0]))
    u_db = 10.0 * np.log10(np.abs(net.unilateral_gain))
    g_db = 10.0 * np.log10(net.max_gain)
    return {
        "fT_GHz": crossing(freq.f, h21_db) / 1e9,
        "fmax_GHz": crossing(freq.f, u_db) / 1e9,
        "fT_estimate_GHz": gm / (2.0 * math.pi * (cgs + cgd)) / 1e9,
        "samples": [{"f_GHz": float(freq.f[i] / 1e9), "h21_dB": float(h21_db[i]), "U_dB": float(u_db[i]),
                     "max_gain_dB": float(g_db[i]), "s21_dB": float(20.0 * np.log10(abs(net.s[i, 1, 0])))}
                    for i in range(0, N_F, 6)],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
