"""Cascade speed control of a DC motor (inner PI current loop, outer PI speed loop) assembled from named
blocks with python-control's block-diagram algebra (ct.summing_junction, ct.interconnect), and analysed by
its poles and zeros (ct.poles, ct.zeros) and its frequency response (ct.frequency_response).

Entry workflow: main(dict) -> dict; heavy imports at module level, module state never mutated.
"""

import math

import numpy as np
import control as ct


def sorted_complex(vals):
    out = sorted((float(np.real(v)), float(np.imag(v))) for v in vals)
    return [{"re": a, "im": c} for a, c in out]


def build(R, L, K, J, b, wi, ww):
    motor = ct.ss([[-R / L, -K / L], [K / J, -b / J]], [[1.0 / L, 0.0], [0.0, -1.0 / J]], np.eye(2), np.zeros((2, 2)),
                  inputs=["v", "TL"], outputs=["i", "w"], name="motor")
    # Inner PI cancels the electrical pole (kp/ki = L/R) for a first-order current loop of bandwidth wi; the
    # outer PI cancels the mechanical pole (kp/ki = J/b) for an open speed loop K kp / (J s) crossing at ww.
    c_i = ct.tf([L * wi, R * wi], [1.0, 0.0], inputs="ei", outputs="v", name="Ci")
    c_w = ct.tf([J * ww / K, b * ww / K], [1.0, 0.0], inputs="ew", outputs="iref", name="Cw")
    e_i = ct.summing_junction(inputs=["iref", "-i"], output="ei")
    e_w = ct.summing_junction(inputs=["wref", "-w"], output="ew")
    return ct.interconnect([motor, c_i, c_w, e_i, e_w], inputs=["wref", "TL"], outputs=["w", "i", "v"])


def main(scn: dict) -> dict:
    R, L = float(scn["resistance_ohm"]), float(scn["inductance_mH"]) * 1e-3
    K, J, b = float(scn["motor_constant_N_m_A"]), float(scn["inertia_kg_m2"]), float(scn["friction_N_m_s"])
    wi = float(scn["current_bandwidth_rad_s"])
    ww = wi / float(scn["bandwidth_ratio"])
    sys = build(R, L, K, J, b, wi, ww)
    ref = sys[0, 0]  # wref -> w
    dist = sys[0, 1]  # TL -> w
    freqs = np.array([ww / 10.0, ww, wi])
    fr_ref = np.asarray(ct.frequency_response(ref, freqs).complex).ravel()
    fr_dist = np.asarray(ct.frequency_response(dist, freqs).complex).ravel()
    return {
        "speed_bandwidth_rad_s": ww,
        "gains": {"kp_current": L * wi, "ki_current": R * wi, "kp_speed": J * ww / K, "ki_speed": b * ww / K},
        "closed_loop_poles": sorted_complex(ct.poles(sys)),
        "reference_zeros": sorted_complex(ct.zeros(ref)),
        "reference_response": [{"w_rad_s": float(w), "mag_dB": 20.0 * math.log10(abs(g)),
                                "phase_deg": math.degrees(float(np.angle(g)))} for w, g in zip(freqs, fr_ref)],
        "load_torque_response": [{"w_rad_s": float(w), "mag_dB": 20.0 * math.log10(abs(g))}
                                 for w, g in zip(freqs, fr_dist)],
        "dc_gain_current_per_load_A_per_N_m": float(np.real(ct.dcgain(sys[1, 1]))),
    }


if __name__ == "__main__":
    import json
    import sys as _sys

    json.dump(main(json.load(_sys.stdin)), _sys.stdout)
    _sys.stdout.write("\n")
