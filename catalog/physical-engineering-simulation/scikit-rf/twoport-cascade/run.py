"""A generated two-port amplifier chain with scikit-rf: lumped input/output networks from an ideal 50-ohm
medium, a generic active two-port defined by its S-matrix, cascading (**), conversion to Z parameters,
renormalisation to 75 ohm, Rollet stability factor, group delay and a de-embedding round trip.

Entry workflow: main(dict) -> dict; no module state is mutated.
"""

import math

import numpy as np
import skrf as rf

N_F = 11


def active_two_port(freq, scn):
    f = freq.f
    g0 = 10.0 ** (float(scn["gain_dB"]) / 20.0)
    iso = 10.0 ** (-float(scn["isolation_dB"]) / 20.0)
    f3 = float(scn["gain_corner_GHz"]) * 1e9
    tau = float(scn["delay_ps"]) * 1e-12
    delay = np.exp(-2j * np.pi * f * tau)
    s = np.zeros((f.size, 2, 2), dtype=complex)
    s[:, 0, 0] = float(scn["s11_mag"]) * np.exp(-1j * (np.pi / 4 + np.pi * f * tau))
    s[:, 1, 0] = g0 / (1.0 + 1j * f / f3) * delay
    s[:, 0, 1] = iso * delay
    s[:, 1, 1] = float(scn["s22_mag"]) * np.exp(-1j * (np.pi / 3 + np.pi * f * tau))
    return rf.Network(frequency=freq, s=s, z0=50.0, name="active")


def db(x):
    return float(20.0 * math.log10(abs(x)))


def main(scn: dict) -> dict:
    freq = rf.Frequency(float(scn["f_min_GHz"]), float(scn["f_max_GHz"]), N_F, unit="GHz")
    m = rf.media.DefinedGammaZ0(frequency=freq, z0=50.0)
    input_net = m.inductor(float(scn["input_L_nH"]) * 1e-9) ** m.shunt_capacitor(float(scn["input_C_pF"]) * 1e-12)
    output_net = m.shunt_resistor(float(scn["stabilising_R_ohm"])) ** m.capacitor(float(scn["output_C_pF"]) * 1e-12)
    amp = active_two_port(freq, scn)
    chain = input_net ** amp ** output_net

    k = chain.stability
    phase = chain.s21.s_deg_unwrap[:, 0, 0]
    gd = np.real(chain.s21.group_delay[:, 0, 0])
    ren = chain.copy()
    ren.renormalize(75.0)
    z = chain.z
    back = input_net.inv ** chain ** output_net.inv

    points = []
    for i in range(N_F):
        s = chain.s[i]
        points.append({
            "f_GHz": float(freq.f[i] / 1e9),
            "s11_dB": db(s[0, 0]),
            "s21_dB": db(s[1, 0]),
            "s21_phase_unwrapped_deg": float(phase[i]),
            "s12_dB": db(s[0, 1]),
            "s22_dB": db(s[1, 1]),
            "s11_dB_75ohm": db(ren.s[i, 0, 0]),
            "rollet_k": float(k[i]),
            "group_delay_ps": float(gd[i] * 1e12),
        })
    imax = int(np.argmax(np.abs(chain.s[:, 1, 0])))
    ikmin = int(np.argmin(k))
    return {
        "points": points,
        "peak_gain": {"f_GHz": float(freq.f[imax] / 1e9), "s21_dB": db(chain.s[imax, 1, 0])},
        "min_rollet_k": {"f_GHz": float(freq.f[ikmin] / 1e9), "k": float(k[ikmin])},
        "unconditionally_stable": bool(np.all(k > 1.0)),
        "z_params_at_f_min": {
            "z11_re": float(z[0, 0, 0].real), "z11_im": float(z[0, 0, 0].imag),
            "z21_re": float(z[0, 1, 0].real), "z21_im": float(z[0, 1, 0].imag),
            "z22_re": float(z[0, 1, 1].real), "z22_im": float(z[0, 1, 1].imag),
        },
        "input_network_abcd_at_f_max": {
            "a_re": float(input_net.a[-1, 0, 0].real), "b_im": float(input_net.a[-1, 0, 1].imag),
            "c_im": float(input_net.a[-1, 1, 0].imag), "d_re": float(input_net.a[-1, 1, 1].real),
        },
        "deembedded_s21_dB_at_f_min": db(back.s[0, 1, 0]),
    }
