"""Mode conversion in an imperfect differential pair with scikit-rf: two uncoupled coplanar-waveguide traces
(rf.media.CPW: conformal-mapping impedance, Djordjevic-Svensson dielectric, conductor and dielectric loss) of unequal
width and length form a single-ended 4-port, converted to mixed-mode S-parameters by Network.se2gmm, as a
signal-integrity engineer budgets the differential-to-common conversion a skew causes.

Entry workflow: main(dict) -> dict; no module state is mutated.
"""

import math
import warnings

import numpy as np
import skrf as rf

# CPW's first construction pulls in scikit-rf's lazy dependencies: pay it at import.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    rf.media.CPW(frequency=rf.Frequency(1.0, 2.0, 2, unit="GHz"), w=3e-4, s=2e-4, h=5e-4, ep_r=4.0)

N_F = 51
THICKNESS_M = 35e-6
RHO_OHM_M = 1.68e-8


def db(x) -> float:
    return float(20.0 * math.log10(abs(x)))


def trace(freq, s: dict, width_mm: float) -> rf.media.CPW:
    return rf.media.CPW(frequency=freq, z0_port=50.0, w=width_mm * 1e-3, s=float(s["gap_mm"]) * 1e-3,
                        h=float(s["substrate_h_mm"]) * 1e-3, ep_r=float(s["epsilon_r"]), t=THICKNESS_M,
                        rho=RHO_OHM_M, tand=float(s["tan_delta"]), has_metal_backside=bool(s["metal_backside"]))


def main(s: dict) -> dict:
    freq = rf.Frequency(0.1, float(s["f_max_GHz"]), N_F, unit="GHz")
    w = float(s["width_mm"])
    length = float(s["length_mm"]) * 1e-3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pa = trace(freq, s, w)
        pb = trace(freq, s, w * (1.0 + float(s["width_imbalance_pct"]) / 100.0))
        la = pa.line(length, "m")
        lb = pb.line(length + float(s["skew_mm"]) * 1e-3, "m")
    se = np.zeros((N_F, 4, 4), dtype=complex)
    se[:, 0::2, 0::2] = la.s  # trace A: single-ended ports 1 -> 3
    se[:, 1::2, 1::2] = lb.s  # trace B: single-ended ports 2 -> 4
    net = rf.Network(frequency=freq, s=se, z0=50.0)
    mm = net.copy()
    mm.se2gmm(p=2)
    m = mm.s
    i0 = (N_F - 1) // 2
    conv = np.abs(m[:, 3, 0])
    k = int(np.argmax(conv))
    samples = [{"f_GHz": float(freq.f[i] / 1e9), "sdd11_dB": db(m[i, 0, 0]), "sdd21_dB": db(m[i, 1, 0]),
                "scc21_dB": db(m[i, 3, 2]), "scd21_dB": db(m[i, 3, 0]), "sdc21_dB": db(m[i, 1, 2])}
               for i in range(0, N_F, 5)]
    return {
        "trace_a_at_mid": {"z0_ohm": float(pa.z0[i0].real), "ep_reff": float(pa.ep_reff[i0].real)},
        "trace_b_at_mid": {"z0_ohm": float(pb.z0[i0].real), "ep_reff": float(pb.ep_reff[i0].real)},
        "mixed_mode_z0_ohm": [float(z.real) for z in mm.z0[0]],
        "samples": samples,
        "max_conversion": {"f_GHz": float(freq.f[k] / 1e9), "scd21_dB": db(m[k, 3, 0])},
        "sdd21_at_f_max_dB": db(m[-1, 1, 0]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
