"""Step-response metrics, poles/zeros, DC gain and bandwidth of a generated third-order transfer function
with python-control, open loop and in unity feedback with a proportional gain.

Entry workflow: main(dict) -> dict; heavy imports at module level, module state never mutated.
"""

import numpy as np
import control as ct

N_T = 2001
FRACTIONS = [i / 10.0 for i in range(11)]


def plant(scn):
    wn = float(scn["natural_freq_rad_s"])
    zeta = float(scn["damping_ratio"])
    z = float(scn["rhp_zero_rad_s"])
    tp = float(scn["pole_time_constant_s"])
    k = float(scn["dc_gain"])
    num = [-k * wn * wn / z, k * wn * wn]
    den = np.polymul([1.0, 2.0 * zeta * wn, wn * wn], [tp, 1.0])
    return ct.tf(num, den)


def horizon(sys):
    # 10 time constants of the slowest pole, so the response settles inside the window.
    sigma = min(-p.real for p in ct.poles(sys))
    return 10.0 / sigma


def sorted_complex(vals):
    out = [(float(np.real(v)), float(np.imag(v))) for v in vals]
    out.sort()
    return [{"re": a, "im": b} for a, b in out]


def analyse(sys):
    t_end = horizon(sys)
    T = np.linspace(0.0, t_end, N_T)
    resp = ct.step_response(sys, T=T)
    y = np.asarray(resp.outputs).ravel()
    dc = float(np.real(ct.dcgain(sys)))
    info = ct.step_info(y, T=T, yfinal=dc)
    samples = [float(np.interp(f * t_end, T, y)) for f in FRACTIONS]
    return {
        "horizon_s": float(t_end),
        "rise_time_s": float(info["RiseTime"]),
        "settling_time_s": float(info["SettlingTime"]),
        "overshoot_pct": float(info["Overshoot"]),
        "undershoot_pct": float(info["Undershoot"]),
        "peak": float(info["Peak"]),
        "peak_time_s": float(info["PeakTime"]),
        "steady_state": float(info["SteadyStateValue"]),
        "dc_gain": dc,
        "bandwidth_rad_s": float(ct.bandwidth(sys)),
        "poles": sorted_complex(ct.poles(sys)),
        "step_samples": samples,
    }


def main(scn: dict) -> dict:
    G = plant(scn)
    gm, pm, _sm, wpc, wgc, _wms = ct.stability_margins(G)
    kp = float(scn["gain_fraction"]) * float(gm)
    cl = ct.feedback(kp * G, 1)
    return {
        "gain_margin": float(gm),
        "phase_crossover_rad_s": float(wpc),
        "feedback_gain": kp,
        "open_loop": analyse(G),
        "closed_loop": analyse(cl),
    }
