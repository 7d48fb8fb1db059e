"""A reheat Rankine steam cycle with Cantera's liquid-vapour pure-fluid model of water (ct.Water(): the tpx
equation of state, saturation and two-phase states through the PQ, SP and HP setters), with isentropic pump and
turbine efficiencies, as a power engineer evaluates a steam plant.

Entry workflow: main(dict) -> dict; builds a new ct.Water per call.
"""

import cantera as ct


def state(w: ct.Solution, name: str) -> dict:
    q = float(w.Q)
    return {"point": name, "T_K": float(w.T), "p_Pa": float(w.P), "h_J_kg": float(w.h), "s_J_kgK": float(w.s),
            "quality": q if 0.0 <= q <= 1.0 else -1.0}


def expand(w: ct.Solution, p_out: float, eff: float) -> float:
    """Turbine from the current state to p_out with isentropic efficiency eff; returns the specific work."""
    h_in, s_in = w.h, w.s
    w.SP = s_in, p_out
    h_s = w.h
    h_out = h_in - eff * (h_in - h_s)
    w.HP = h_out, p_out
    return h_in - h_out


def main(s: dict) -> dict:
    w = ct.Water()
    p_hi = float(s["boiler_p_MPa"]) * 1e6
    p_lo = float(s["condenser_p_kPa"]) * 1e3
    T_hot = float(s["turbine_inlet_T_K"])
    eta_p, eta_t = float(s["pump_efficiency"]), float(s["turbine_efficiency"])
    points = []
    w.PQ = p_lo, 0.0  # 1: saturated liquid leaving the condenser
    points.append(state(w, "condenser_exit"))
    h1, s1, v1 = w.h, w.s, 1.0 / w.density
    w.SP = s1, p_hi
    w_pump = (w.h - h1) / eta_p
    w.HP = h1 + w_pump, p_hi  # 2: pump exit
    points.append(state(w, "pump_exit"))
    h2 = w.h
    w.TP = T_hot, p_hi  # 3: turbine inlet
    points.append(state(w, "turbine_inlet"))
    q_in = w.h - h2
    w_turb = 0.0
    if s["reheat"]:
        p_re = float(s["reheat_fraction"]) * p_hi
        w_turb += expand(w, p_re, eta_t)
        points.append(state(w, "hp_turbine_exit"))
        h_before = w.h
        w.TP = T_hot, p_re
        points.append(state(w, "reheater_exit"))
        q_in += w.h - h_before
    w_turb += expand(w, p_lo, eta_t)
    points.append(state(w, "turbine_exit"))
    w_net = w_turb - w_pump
    return {
        "points": points,
        "pump_work_J_kg": w_pump,
        "pump_work_incompressible_J_kg": v1 * (p_hi - p_lo) / eta_p,
        "turbine_work_J_kg": w_turb,
        "heat_input_J_kg": q_in,
        "thermal_efficiency": w_net / q_in,
        "carnot_efficiency": 1.0 - points[0]["T_K"] / T_hot,
        "back_work_ratio": w_pump / w_turb,
        "steam_rate_kg_per_kWh": 3.6e6 / w_net,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
