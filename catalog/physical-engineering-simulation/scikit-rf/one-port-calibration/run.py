"""One-port (short-open-load) vector network analyser calibration with scikit-rf's skrf.calibration.OnePort:
synthetic raw measurements through a known error box, the three error terms the calibration solves for, and the
corrected reflection of a device, with the error an imperfect (fringing) open standard leaves in it.

Entry workflow: main(dict) -> dict; no module state is mutated.
"""

import math

import numpy as np
import skrf as rf
from skrf.calibration import OnePort

Z0 = 50.0


def error_box(freq: rf.Frequency, s: dict) -> rf.Network:
    """Port-1 error adapter: e00 directivity (real), e11 source match and e01 = e10 cable transmission, both
    delayed by the cable (phase -2 pi f tau for the transmission, -4 pi f tau for the source match)."""
    f = freq.f
    tau = float(s["cable_delay_ps"]) * 1e-12
    t = 10.0 ** (-float(s["cable_loss_dB"]) / 20.0) * np.exp(-2j * np.pi * f * tau)
    e = np.zeros((f.size, 2, 2), dtype=complex)
    e[:, 0, 0] = 10.0 ** (float(s["directivity_dB"]) / 20.0)
    e[:, 1, 1] = 10.0 ** (float(s["source_match_dB"]) / 20.0) * np.exp(-4j * np.pi * f * tau)
    e[:, 0, 1] = t
    e[:, 1, 0] = t
    return rf.Network(frequency=freq, s=e, z0=Z0, name="error box")


def pair(z) -> dict:
    return {"re": float(z.real), "im": float(z.imag)}


def main(s: dict) -> dict:
    freq = rf.Frequency(float(s["f_min_GHz"]), float(s["f_max_GHz"]), int(s["n_points"]), unit="GHz")
    m = rf.media.DefinedGammaZ0(frequency=freq, z0=Z0)
    box = error_box(freq, s)
    ideals = [m.short(), m.open(), m.match()]
    actual_open = m.shunt_capacitor(float(s["open_fringe_fF"]) * 1e-15) ** m.open()
    measured = [box ** m.short(), box ** actual_open, box ** m.match()]
    cal = OnePort(measured=measured, ideals=ideals)
    cal.run()

    dut = m.resistor(float(s["dut_R_ohm"])) ** m.inductor(float(s["dut_L_nH"]) * 1e-9) ** m.short()
    raw = box ** dut
    corrected = cal.apply_cal(raw)
    g_true, g_raw, g_cor = dut.s[:, 0, 0], raw.s[:, 0, 0], corrected.s[:, 0, 0]
    resid = np.abs(g_cor - g_true)
    points = [{"f_GHz": float(freq.f[i] / 1e9), "raw_s11": pair(g_raw[i]), "corrected_s11": pair(g_cor[i]),
               "error_mag": float(resid[i])} for i in range(freq.npoints)]
    coefs = {name.replace(" ", "_"): {"f_min": pair(v[0]), "f_max": pair(v[-1])} for name, v in cal.coefs.items()}
    z_cor = Z0 * (1.0 + g_cor[-1]) / (1.0 - g_cor[-1])
    return {
        "points": points,
        "error_terms": coefs,
        "max_error_mag": float(resid.max()),
        "max_error_dB": 20.0 * math.log10(float(resid.max())),
        "corrected_z_at_f_max_ohm": pair(z_cor),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
