"""Q-factor measurement of a one-port resonator with scikit-rf: a series RLC resonator's reflection S11 around
resonance, fitted with skrf.qfactor.Qfactor (the NLQFIT6 method: loaded Q, resonant frequency, coupling and unloaded
Q from the Q-circle), and its Smith chart drawn by Network.plot_s_smith (matplotlib Agg) as a PNG.

Entry workflow: main(dict) -> dict; writes one PNG to $SWR_ARTIFACTS.
"""

import math
import os
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import skrf as rf  # noqa: E402
from skrf.qfactor import Qfactor  # noqa: E402

Z0 = 50.0


def resonator(s: dict) -> tuple[rf.Network, dict]:
    f0 = float(s["f0_GHz"]) * 1e9
    w0 = 2.0 * math.pi * f0
    R = Z0 / float(s["coupling_beta"])
    L = float(s["Q_unloaded"]) * R / w0
    C = 1.0 / (w0 * w0 * L)
    q_loaded = w0 * L / (R + Z0)
    half = float(s["span_bandwidths"]) * f0 / q_loaded
    freq = rf.Frequency(f0 - half, f0 + half, int(s["n_points"]), unit="Hz")
    m = rf.media.DefinedGammaZ0(frequency=freq, z0=Z0)
    net = m.resistor(R) ** m.inductor(L) ** m.capacitor(C) ** m.short()
    net.name = None
    return net, {"R_ohm": R, "L_H": L, "C_F": C, "Q_loaded_theory": q_loaded}


def smith_png(net: rf.Network, path: str, labels: bool) -> None:
    fig, ax = plt.subplots(figsize=(4, 4), dpi=80)
    net.plot_s_smith(ax=ax, draw_labels=labels)
    fig.savefig(path, format="png", metadata={"Software": None})
    plt.close(fig)


def main(s: dict) -> dict:
    net, design = resonator(s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q = Qfactor(net, "reflection")
        fit = q.fit()
        q_u = float(q.Q_unloaded())
    smith_png(net, os.path.join(os.environ["SWR_ARTIFACTS"], "smith.png"), bool(s["draw_labels"]))
    s11 = net.s[:, 0, 0]
    i = int(np.argmin(np.abs(s11)))
    return {
        "smith_chart": "smith.png",
        "design": design,
        "fit": {"Q_loaded": float(fit.Q_L), "f_loaded_GHz": float(fit.f_L) / 1e9, "Q_unloaded": q_u},
        "min_s11": {"f_GHz": float(net.f[i] / 1e9), "mag": float(abs(s11[i]))},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
