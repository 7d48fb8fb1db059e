"""On-wafer inductor characterisation with scikit-rf's de-embedding classes (skrf.calibration.deembedding): a spiral
inductor's pi model measured through probe pads (shunt pad capacitance) and leads (series resistance and inductance),
the open and short dummy structures, open-only (Open) and open-short (OpenShort) de-embedding, and the inductor's
effective inductance and quality factor Q = Im(1/Y11) / Re(1/Y11) from each, as a device engineer extracts an
inductor's Q from probe measurements.

Entry workflow: main(dict) -> dict; no module state is mutated.
"""

import math
import warnings

import numpy as np
import skrf as rf
from skrf.calibration.deembedding import Open, OpenShort

Z0 = 50.0


def q_and_l(net: rf.Network, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    z = 1.0 / net.y[:, 0, 0]
    return z.imag / z.real, z.imag / w


def main(s: dict) -> dict:
    freq = rf.Frequency(float(s["f_max_GHz"]) / 20.0, float(s["f_max_GHz"]), 20, unit="GHz")
    w = 2.0 * math.pi * freq.f
    m = rf.media.DefinedGammaZ0(frequency=freq, z0=Z0)
    c_pad = float(s["pad_C_fF"]) * 1e-15
    r_lead, l_lead = float(s["lead_R_ohm"]), float(s["lead_L_pH"]) * 1e-12
    half_ox = float(s["oxide_C_fF"]) * 1e-15 / 2.0
    dut = (m.shunt_capacitor(half_ox) ** m.resistor(float(s["coil_R_ohm"])) ** m.inductor(float(s["coil_L_nH"]) * 1e-9)
           ** m.shunt_capacitor(half_ox))
    pad = m.shunt_capacitor(c_pad)
    lead = m.resistor(r_lead) ** m.inductor(l_lead)
    measured = pad ** lead ** dut ** lead.flipped() ** pad
    open_port = pad ** m.open()
    short_port = pad ** lead ** m.short()
    dummy_open = rf.network.two_port_reflect(open_port, open_port)
    dummy_short = rf.network.two_port_reflect(short_port, short_port)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        os_net = OpenShort(dummy_open, dummy_short).deembed(measured)
        o_net = Open(dummy_open).deembed(measured)
    q_raw, l_raw = q_and_l(measured, w)
    q_o, l_o = q_and_l(o_net, w)
    q_os, l_os = q_and_l(os_net, w)
    k = int(np.argmax(q_os))
    rows = [{"f_GHz": float(freq.f[i] / 1e9), "q_raw": float(q_raw[i]), "q_open": float(q_o[i]),
             "q_open_short": float(q_os[i]), "l_raw_nH": float(l_raw[i] * 1e9), "l_open_nH": float(l_o[i] * 1e9),
             "l_open_short_nH": float(l_os[i] * 1e9)} for i in range(0, freq.npoints, 3)]
    return {
        "samples": rows,
        "peak_q_open_short": {"f_GHz": float(freq.f[k] / 1e9), "q": float(q_os[k])},
        "open_only_l_error_at_f_max_pct": float((l_o[-1] / l_os[-1] - 1.0) * 100.0),
        "s21_dB_open_short_at_f_max": float(20.0 * np.log10(np.abs(os_net.s[-1, 1, 0]))),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
