"""A stepped-impedance microstrip low-pass filter with scikit-rf's physical microstrip medium (rf.media.MLine:
quasi-static impedance model, frequency dispersion model, Djordjevic-Svensson dielectric, conductor and dielectric
loss): line parameters, the cascaded filter's S21 / S11, its -3 dB cutoff and its insertion loss.

Entry workflow: main(dict) -> dict; no module state is mutated.
"""

import math
import warnings

import numpy as np
import skrf as rf

# MLine's first construction pulls in scikit-rf's lazy dependencies (scipy.special and friends): pay it at import.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    rf.media.MLine(frequency=rf.Frequency(1.0, 2.0, 2, unit="GHz"), w=1e-3, h=1e-3, t=35e-6, ep_r=4.0)

N_F = 101
THICKNESS_M = 35e-6
RHO_OHM_M = 1.68e-8
ROUGH_M = 0.15e-6


def medium(freq, s: dict, width_mm: float) -> rf.media.MLine:
    return rf.media.MLine(frequency=freq, z0_port=50.0, w=width_mm * 1e-3, h=float(s["substrate_h_mm"]) * 1e-3,
                          t=THICKNESS_M, ep_r=float(s["epsilon_r"]), tand=float(s["tan_delta"]), rho=RHO_OHM_M,
                          rough=ROUGH_M, model=str(s["model"]), disp=str(s["dispersion"]))


def line_params(m: rf.media.MLine, i: int) -> dict:
    return {"z0_ohm": float(m.z0[i].real), "ep_reff": float(m.ep_reff_f[i].real),
            "alpha_dB_per_m": float(m.gamma[i].real) * 20.0 / math.log(10.0), "beta_rad_per_m": float(m.gamma[i].imag)}


def cutoff(f: np.ndarray, s21_db: np.ndarray) -> float:
    """First grid crossing of -3 dB from below in frequency, linearly interpolated; the grid end if never."""
    for i in range(1, f.size):
        if s21_db[i] < -3.0:
            return float(f[i - 1] + (-3.0 - s21_db[i - 1]) * (f[i] - f[i - 1]) / (s21_db[i] - s21_db[i - 1]))
    return float(f[-1])


def main(s: dict) -> dict:
    freq = rf.Frequency(0.1, float(s["f_max_GHz"]), N_F, unit="GHz")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        feed = medium(freq, s, float(s["feed_w_mm"]))
        hi = medium(freq, s, float(s["high_z_w_mm"]))
        lo = medium(freq, s, float(s["low_z_w_mm"]))
    length = float(s["section_mm"]) * 1e-3
    n = int(s["n_sections"])
    net = feed.line(length, "m")
    for k in range(n):
        net = net ** (hi if k % 2 == 0 else lo).line(length, "m")
    net = net ** feed.line(length, "m")
    s21_db = 20.0 * np.log10(np.abs(net.s[:, 1, 0]))
    s11_db = 20.0 * np.log10(np.abs(net.s[:, 0, 0]))
    mid = (N_F - 1) // 2
    return {
        "feed_line_at_mid": line_params(feed, mid),
        "high_z_line_at_mid": line_params(hi, mid),
        "low_z_line_at_mid": line_params(lo, mid),
        "cutoff_3dB_GHz": cutoff(freq.f, s21_db) / 1e9,
        "insertion_loss_at_f_min_dB": float(-s21_db[0]),
        "min_s21_dB": float(s21_db.min()),
        "samples": [{"f_GHz": float(freq.f[i] / 1e9), "s21_dB": float(s21_db[i]), "s11_dB": float(s11_db[i])}
                    for i in range(0, N_F, 10)],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
