"""Monte-Carlo yield of a lumped LC low-pass ladder with scikit-rf: the Butterworth or 0.5 dB Chebyshev prototype
scaled to the cutoff, each component drawn within its tolerance from a seeded generator, the networks gathered in a
skrf.networkSet.NetworkSet for their mean, spread and envelope of S21 / S11 in dB (written as a CSV table), and the
fraction of samples meeting a pass-band and a stop-band specification.

Entry workflow: main(dict) -> dict; writes one CSV to $SWR_ARTIFACTS; no module state is mutated.
"""

import csv
import math
import os

import numpy as np
import skrf as rf
from skrf.networkSet import NetworkSet

Z0 = 50.0
N_F = 41


def prototype(kind: str, n: int) -> list[float]:
    """Low-pass prototype values g1..gn (Matthaei, Young and Jones): Butterworth, or Chebyshev with 0.5 dB ripple."""
    a = [math.sin((2 * k - 1) * math.pi / (2 * n)) for k in range(1, n + 1)]
    if kind == "butterworth":
        return [2.0 * x for x in a]
    beta = math.log(1.0 / math.tanh(0.5 / 17.37))
    gam = math.sinh(beta / (2 * n))
    b = [gam * gam + math.sin(k * math.pi / n) ** 2 for k in range(1, n + 1)]
    g = [2.0 * a[0] / gam]
    for k in range(1, n):
        g.append(4.0 * a[k - 1] * a[k] / (b[k - 1] * g[k - 1]))
    return g


def ladder(m, g: list[float], wc: float, scale: np.ndarray) -> rf.Network:
    """Series L at odd positions (L = g Z0 / wc), shunt C at even ones (C = g / (Z0 wc)), times the drawn scale."""
    parts = [m.inductor(gk * Z0 / wc * sk) if k % 2 == 0 else m.shunt_capacitor(gk / (Z0 * wc) * sk)
             for k, (gk, sk) in enumerate(zip(g, scale))]
    net = parts[0]
    for p in parts[1:]:
        net = net ** p
    return net


def main(s: dict) -> dict:
    fc = float(s["cutoff_GHz"]) * 1e9
    wc = 2.0 * math.pi * fc
    n = int(s["order"])
    g = prototype(str(s["response"]), n)
    f_stop = float(s["stopband_ratio"]) * fc
    freq = rf.Frequency(0.05 * fc, f_stop, N_F, unit="Hz")
    spec = rf.Frequency(0.8 * fc, f_stop, 2, unit="Hz")
    tol = float(s["tolerance_pct"]) / 100.0
    draws = np.random.default_rng(int(s["seed"])).uniform(-1.0, 1.0, size=(int(s["n_samples"]), n))
    m = rf.media.DefinedGammaZ0(frequency=freq, z0=Z0)
    ms = rf.media.DefinedGammaZ0(frequency=spec, z0=Z0)
    nets, passed = [], 0
    for i, u in enumerate(draws):
        net = ladder(m, g, wc, 1.0 + tol * u)
        net.name = f"sample{i}"
        nets.append(net)
        at = ladder(ms, g, wc, 1.0 + tol * u).s_db[:, 1, 0]
        passed += bool(-at[0] < float(s["passband_loss_dB"]) and -at[1] > float(s["stopband_rejection_dB"]))
    ns = NetworkSet(nets)
    cols = {"f_GHz": freq.f / 1e9, "s21_mean_dB": ns.mean_s_db.s[:, 1, 0].real,
            "s21_std_dB": ns.std_s_db.s[:, 1, 0].real, "s21_min_dB": ns.min_s_db.s[:, 1, 0].real,
            "s21_max_dB": ns.max_s_db.s[:, 1, 0].real, "s11_mean_dB": ns.mean_s_db.s[:, 0, 0].real}
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "yield.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(list(cols))
        for i in range(N_F):
            w.writerow([repr(float(c[i])) for c in cols.values()])
    nominal = ladder(ms, g, wc, np.ones(n)).s_db[:, 1, 0]
    return {
        "statistics": "yield.csv",
        "prototype_g": g,
        "nominal_loss_at_0p8_fc_dB": float(-nominal[0]),
        "nominal_rejection_at_stop_dB": float(-nominal[1]),
        "yield": passed / len(draws),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
