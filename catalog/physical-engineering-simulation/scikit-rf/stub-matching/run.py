"""Single-stub shunt matching of a complex load on a lossy coaxial line with scikit-rf's physical
transmission-line media (rf.media.Coaxial): lossless design at f0, then the lossy frequency response of
stub ** line ** load, input impedance, reflection, VSWR and matched bandwidth.

Entry workflow: main(dict) -> dict; no module state is mutated.
"""

import math

import numpy as np
import skrf as rf

# Trigger scikit-rf's lazy imports (scipy.constants and friends, pulled in by the Coaxial medium) at import
# time rather than inside the first call.
rf.media.Coaxial(frequency=rf.Frequency(1.0, 2.0, 2, unit="GHz")).gamma

N_F = 201
GAMMA_MAX = 0.2
SAMPLE_RATIOS = [0.8, 0.9, 1.0, 1.1, 1.2]


def design(RL, XL, Zc, beta, stub):
    """Pozar's single shunt stub: distance d from the load and stub length l (shortest positive solutions)."""
    if abs(RL - Zc) < 1e-12:
        t = -XL / (2.0 * Zc)
    else:
        t = (XL + math.sqrt(RL * ((Zc - RL) ** 2 + XL * XL) / Zc)) / (RL - Zc)
    ang = math.atan(t)
    if ang < 0:
        ang += math.pi
    d = ang / beta
    B = (RL * RL * t - (Zc - XL * t) * (XL + Zc * t)) / (Zc * (RL * RL + (XL + Zc * t) ** 2))
    if stub == "open":
        a = math.atan(-B * Zc)
    else:
        a = math.atan(1.0 / (B * Zc))
    if a < 0:
        a += math.pi
    return d, a / beta


def crossing(f, g, i0, step):
    """Frequency where |Gamma| first exceeds GAMMA_MAX walking from index i0 by step (linear interpolation)."""
    i = i0
    while 0 <= i + step < len(f):
        j = i + step
        if g[j] > GAMMA_MAX:
            return float(f[i] + (GAMMA_MAX - g[i]) * (f[j] - f[i]) / (g[j] - g[i]))
        i = j
    return float(f[i])


def main(scn: dict) -> dict:
    f0 = float(scn["design_freq_GHz"]) * 1e9
    RL, XL = float(scn["load_R_ohm"]), float(scn["load_X_ohm"])
    er = float(scn["epsilon_r"])
    dout = float(scn["outer_diameter_mm"]) * 1e-3
    dint = dout / math.exp(float(scn["nominal_z0_ohm"]) * math.sqrt(er) / 60.0)
    stub = str(scn["stub"])
    freq = rf.Frequency(0.5 * f0, 1.5 * f0, N_F, unit="Hz")
    coax = rf.media.Coaxial(frequency=freq, z0_port=50.0, Dint=dint, Dout=dout, epsilon_r=er,
                            tan_delta=float(scn["tan_delta"]), sigma=float(scn["conductivity_S_m"]))
    # Coaxial recomputes its skin-effect impedances on every access: evaluate z0 and gamma once and
    # carry them in an equivalent DefinedGammaZ0 medium with the same 50-ohm ports.
    media = rf.media.DefinedGammaZ0(frequency=freq, z0_port=50.0, z0=coax.z0, gamma=coax.gamma)
    i0 = (N_F - 1) // 2
    Zc = float(media.z0[i0].real)
    beta = float(media.gamma[i0].imag)
    alpha = float(media.gamma[i0].real)
    d, l = design(RL, XL, Zc, beta, stub)

    ZL = complex(RL, XL)
    load = media.load((ZL - 50.0) / (ZL + 50.0))
    shunt = media.shunt_delay_open(l, "m") if stub == "open" else media.shunt_delay_short(l, "m")
    net = shunt ** media.line(d, "m") ** load
    zin = net.z[:, 0, 0]
    gam = np.abs((zin - Zc) / (zin + Zc))
    s11_db = 20.0 * np.log10(np.abs(net.s[:, 0, 0]))
    lo = crossing(freq.f, gam, i0, -1)
    hi = crossing(freq.f, gam, i0, +1)
    samples = []
    for r in SAMPLE_RATIOS:
        i = int(round((r - 0.5) * (N_F - 1)))
        samples.append({"f_over_f0": r, "gamma_mag": float(gam[i]), "s11_dB_50ohm": float(s11_db[i]),
                        "zin_re": float(zin[i].real), "zin_im": float(zin[i].imag)})
    g0 = float(gam[i0])
    wavelength = 2.0 * math.pi / beta
    return {
        "line": {
            "inner_diameter_mm": dint * 1e3,
            "z0_ohm": Zc,
            "z0_imag_ohm": float(media.z0[i0].imag),
            "attenuation_dB_per_m": alpha * 20.0 / math.log(10.0),
            "guided_wavelength_m": wavelength,
        },
        "design": {
            "stub_distance_m": d,
            "stub_length_m": l,
            "stub_distance_wavelengths": d / wavelength,
            "stub_length_wavelengths": l / wavelength,
        },
        "at_f0": {
            "gamma_mag": g0,
            "vswr": (1.0 + g0) / (1.0 - g0),
            "return_loss_dB": -20.0 * math.log10(g0),
            "s11_dB_50ohm": float(s11_db[i0]),
            "zin_re": float(zin[i0].real),
            "zin_im": float(zin[i0].imag),
        },
        "bandwidth": {"f_low_GHz": lo / 1e9, "f_high_GHz": hi / 1e9, "fractional": (hi - lo) / f0},
        "samples": samples,
    }
