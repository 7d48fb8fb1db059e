"""A Wilkinson power divider solved as a circuit graph with scikit-rf's skrf.circuit.Circuit (ports, two
transmission-line arms and an isolation resistor joined at nodes): its 3-port S-matrix over a band, the port
voltages and currents for a 1 W drive at port 1, and the figures a designer reads from it (match, split, isolation,
phase and amplitude imbalance from an arm-length error).

Entry workflow: main(dict) -> dict; no module state is mutated.
"""

import math
import warnings

import numpy as np
import skrf as rf
from scipy.constants import c as C0
from skrf.circuit import Circuit

DB_NEPER = 20.0 / math.log(10.0)


def db(x) -> float:
    return float(20.0 * math.log10(abs(x)))


def circuit(s: dict) -> tuple[Circuit, rf.Frequency, int]:
    f0 = float(s["f0_GHz"]) * 1e9
    span = float(s["span_fraction"])
    n = int(s["n_points"])
    freq = rf.Frequency(f0 * (1.0 - span / 2.0), f0 * (1.0 + span / 2.0), n, unit="Hz")
    z0 = float(s["system_z0_ohm"])
    sq = math.sqrt(float(s["eps_eff"]))
    beta = 2.0 * np.pi * freq.f * sq / C0
    lam0 = C0 / (f0 * sq)
    alpha = float(s["loss_dB_per_wavelength"]) / DB_NEPER / lam0
    m = rf.media.DefinedGammaZ0(frequency=freq, z0_port=z0, z0=float(s["arm_z_ohm"]), gamma=alpha + 1j * beta)
    quarter = lam0 / 4.0
    arm2 = m.line(quarter, "m", name="arm2")
    arm3 = m.line(quarter * (1.0 + float(s["arm3_length_error_pct"]) / 100.0), "m", name="arm3")
    res = Circuit.SeriesImpedance(freq, float(s["isolation_R_ohm"]), name="R", z0=z0)
    p1, p2, p3 = (Circuit.Port(freq, f"port{k}", z0=z0) for k in (1, 2, 3))
    cnx = [[(p1, 0), (arm2, 0), (arm3, 0)], [(arm2, 1), (res, 0), (p2, 0)], [(arm3, 1), (res, 1), (p3, 0)]]
    return Circuit(cnx), freq, (n - 1) // 2


def main(s: dict) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cir, freq, i0 = circuit(s)
        net = cir.network
        v = cir.voltages_external([1.0, 0.0, 0.0], [0.0, 0.0, 0.0])
        cur = cir.currents_external([1.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    S = net.s
    samples = []
    for i in range(freq.npoints):
        samples.append({"f_GHz": float(freq.f[i] / 1e9), "s11_dB": db(S[i, 0, 0]), "s21_dB": db(S[i, 1, 0]),
                        "s31_dB": db(S[i, 2, 0]), "s22_dB": db(S[i, 1, 1]), "s33_dB": db(S[i, 2, 2]),
                        "s23_dB": db(S[i, 1, 2])})
    good = [(20.0 * np.log10(np.abs(S[i, 0, 0])) < -20.0) and (20.0 * np.log10(np.abs(S[i, 1, 2])) < -20.0)
            for i in range(freq.npoints)]
    return {
        "samples": samples,
        "at_f0": {
            "amplitude_imbalance_dB": db(S[i0, 1, 0]) - db(S[i0, 2, 0]),
            "phase_imbalance_deg": float(np.degrees(np.angle(S[i0, 1, 0] / S[i0, 2, 0]))),
            "port_voltage_mag_V": [float(abs(x)) for x in v[i0]],
            "port_current_mag_A": [float(abs(x)) for x in cur[i0]],
        },
        "points_meeting_20dB_match_and_isolation": int(sum(good)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
