"""PI control of a first-order-plus-dead-time process: the delay replaced by python-control's Pade approximant
(ct.pade), SIMC tuning, the load-disturbance transfer function reduced with ct.minreal, its step response, the
Nyquist encirclement count (ct.nyquist_response) and the closed-loop poles.

Entry workflow: warm workers import this module once; main() builds the loop per call.
"""

import control as ct
import numpy as np


def main(scenario: dict) -> dict:
    k, tau, theta = float(scenario["gain"]), float(scenario["tau_s"]), float(scenario["theta_s"])
    order = int(scenario["pade_order"])
    tau_c = float(scenario["tau_c_ratio"]) * theta
    kc = tau / (k * (tau_c + theta))
    ti = min(tau, 4.0 * (tau_c + theta))
    num, den = ct.pade(theta, order)
    g = ct.tf([k], [tau, 1.0]) * ct.tf(num, den)
    c = ct.tf([kc * ti, kc], [ti, 0.0]) if scenario["integral"] else ct.tf([kc], [1.0])
    loop = c * g
    load = ct.minreal(ct.feedback(g, c), verbose=False)  # y / d for a load disturbance at the plant input
    poles = ct.poles(ct.feedback(loop, 1))
    dom = poles[np.argmax(poles.real)]
    t = np.linspace(0.0, 10.0 * (tau + theta), 1001)
    y = ct.step_response(load, T=t).outputs
    ipk = int(np.argmax(np.abs(y)))
    return {
        "kc": kc,
        "ti_s": ti,
        "pade_num": [float(v) for v in num],
        "pade_den": [float(v) for v in den],
        "load_tf_order": int(len(load.den[0][0]) - 1),
        "nyquist_encirclements": int(ct.nyquist_response(loop).count),
        "closed_loop_stable": bool(np.all(poles.real < 0)),
        "dominant_pole": [float(dom.real), float(abs(dom.imag))],
        "dominant_damping": float(-dom.real / abs(dom)),
        "load_peak": float(y[ipk]),
        "load_peak_time_s": float(t[ipk]),
        "load_iae_s": float(np.sum((np.abs(y[1:]) + np.abs(y[:-1])) * np.diff(t)) / 2.0),
        "load_offset": float(y[-1]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
