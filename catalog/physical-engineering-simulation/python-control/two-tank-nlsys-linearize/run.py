"""Two gravity-drained tanks in cascade fed by a pump (Torricelli outflows), modelled as a python-control
nonlinear I/O system (ct.nlsys): the linearisation at the operating point for a target level
(ct.linearize), and the nonlinear and linearised responses to a step in pump voltage (ct.input_output_response).

Entry workflow: main(dict) -> dict; heavy imports at module level, module state never mutated.
"""

import math

import numpy as np
import control as ct

G = 9.81
N_T = 401
FRACTIONS = [i / 10.0 for i in range(11)]
IVP = {"method": "LSODA", "rtol": 1e-11, "atol": 1e-13}


def tanks(A1, A2, a1, a2, kp):
    def updfcn(_t, x, u, _params):
        h1, h2 = max(x[0], 0.0), max(x[1], 0.0)
        q1, q2 = a1 * math.sqrt(2.0 * G * h1), a2 * math.sqrt(2.0 * G * h2)
        return np.array([(kp * u[0] - q1) / A1, (q1 - q2) / A2])

    return ct.nlsys(updfcn, lambda _t, x, _u, _p: np.array([x[1]]), states=2, inputs=1, outputs=1, name="tanks")


def main(scn: dict) -> dict:
    A1, A2 = float(scn["area1_m2"]), float(scn["area2_m2"])
    a1, a2 = float(scn["outlet1_cm2"]) * 1e-4, float(scn["outlet2_cm2"]) * 1e-4
    kp = float(scn["pump_gain_m3_s_V"])
    h2_target = float(scn["target_level_m"])
    step = float(scn["step_percent"]) / 100.0
    sys = tanks(A1, A2, a1, a2, kp)
    # The operating point in closed form: both outflows equal the pump flow q = a2 sqrt(2 g h2).
    q = a2 * math.sqrt(2.0 * G * h2_target)
    xeq = np.array([(q / a1) ** 2 / (2.0 * G), h2_target])
    ueq = np.array([q / kp])
    lin = ct.linearize(sys, xeq, ueq, eps=1e-9)
    A = np.asarray(lin.A)
    taus = sorted(-1.0 / float(np.real(v)) for v in np.linalg.eigvals(A))
    t_end = 5.0 * (taus[0] + taus[1])
    T = np.linspace(0.0, t_end, N_T)
    U = np.full((1, N_T), ueq[0] * (1.0 + step))
    nl = ct.input_output_response(sys, T, U, X0=xeq, solve_ivp_kwargs=IVP)
    li = ct.input_output_response(lin, T, U - ueq[0], X0=[0.0, 0.0], solve_ivp_kwargs=IVP)
    h2_nl = np.asarray(nl.outputs).ravel()
    h2_lin = h2_target + np.asarray(li.outputs).ravel()
    return {
        "operating_point": {"h1_m": float(xeq[0]), "h2_m": float(xeq[1]), "pump_voltage_V": float(ueq[0])},
        "linear_A": [[float(v) for v in row] for row in A],
        "linear_B": [float(v) for v in np.asarray(lin.B).ravel()],
        "time_constants_s": taus,
        "dc_gain_m_per_V": float(np.real(ct.dcgain(lin))),
        "t_end_s": t_end,
        "h2_nonlinear_m": [float(np.interp(f * t_end, T, h2_nl)) for f in FRACTIONS],
        "h2_linear_m": [float(np.interp(f * t_end, T, h2_lin)) for f in FRACTIONS],
        "final_level_exact_m": h2_target * (1.0 + step) ** 2,
    }


if __name__ == "__main__":
    import json
    import sys as _sys

    json.dump(main(json.load(_sys.stdin)), _sys.stdout)
    _sys.stdout.write("\n")
