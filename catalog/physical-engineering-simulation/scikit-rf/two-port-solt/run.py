"""Two-port SOLT (short-open-load-thru) calibration of a vector network analyser with scikit-rf
(skrf.calibration.SOLT, twelve-term error model): synthetic raw measurements through two port error boxes, the
forward and reverse error terms solved, and a device corrected with apply_cal, with the residual error an imperfect
load standard leaves, as a metrologist budgets a calibration kit.

Entry workflow: main(dict) -> dict; no module state is mutated.
"""

import math

import numpy as np
import skrf as rf
from scipy.constants import c as C0
from skrf.calibration import SOLT

Z0 = 50.0
REPORTED = ("directivity", "source match", "reflection tracking", "transmission tracking", "load match")


def error_box(freq, directivity_db: float, match_db: float, delay_ps: float) -> rf.Network:
    f, tau = freq.f, delay_ps * 1e-12
    e = np.zeros((f.size, 2, 2), dtype=complex)
    e[:, 0, 0] = 10.0 ** (directivity_db / 20.0)
    e[:, 1, 1] = 10.0 ** (match_db / 20.0) * np.exp(-4j * np.pi * f * tau)
    e[:, 0, 1] = e[:, 1, 0] = np.exp(-2j * np.pi * f * tau)
    return rf.Network(frequency=freq, s=e, z0=Z0)


def pair(z) -> dict:
    return {"re": float(z.real), "im": float(z.imag)}


def main(s: dict) -> dict:
    freq = rf.Frequency(float(s["f_min_GHz"]), float(s["f_max_GHz"]), int(s["n_points"]), unit="GHz")
    m = rf.media.DefinedGammaZ0(frequency=freq, z0=Z0, gamma=1j * 2.0 * np.pi * freq.f / C0)
    x = error_box(freq, float(s["directivity_dB"]), float(s["source_match_dB"]), float(s["port1_delay_ps"]))
    y = error_box(freq, float(s["directivity_dB"]), float(s["source_match_dB"]), float(s["port2_delay_ps"])).flipped()
    refl = rf.network.two_port_reflect
    ideals = [refl(m.short(), m.short()), refl(m.open(), m.open()), refl(m.match(), m.match()), m.thru()]
    real_load = m.load(10.0 ** (-float(s["load_return_loss_dB"]) / 20.0))
    actual = [ideals[0], ideals[1], refl(real_load, real_load), ideals[3]]
    cal = SOLT(measured=[x ** a ** y for a in actual], ideals=ideals)
    cal.run()
    dut = m.attenuator(-float(s["dut_attenuation_dB"])) ** m.line(float(s["dut_length_mm"]), "mm")
    cor = cal.apply_cal(x ** dut ** y)
    err = np.abs(cor.s - dut.s).max(axis=(1, 2))
    terms = {f"{d}_{name.replace(' ', '_')}": pair(cal.coefs[f"{d} {name}"][-1])
             for d in ("forward", "reverse") for name in REPORTED}
    return {
        "corrected": [{"f_GHz": float(freq.f[i] / 1e9), "s11": pair(cor.s[i, 0, 0]), "s21": pair(cor.s[i, 1, 0]),
                       "s22": pair(cor.s[i, 1, 1])} for i in range(freq.npoints)],
        "error_terms_at_f_max": terms,
        "worst_residual": float(err.max()),
        "worst_residual_dB": 20.0 * math.log10(float(err.max())),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
