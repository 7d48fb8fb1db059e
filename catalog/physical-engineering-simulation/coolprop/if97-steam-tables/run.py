"""Industrial steam tables with CoolProp's IAPWS-IF97 backend (AbstractState("IF97", "Water")) against the scientific
IAPWS-95 formulation (HEOS): properties on a pressure x temperature grid with their deviations, the saturation
state, and an isentropic turbine expansion by PS and PH flashes in IF97, as a plant engineer checks that the fast
industrial formulation is within tolerance of the reference one.

Entry workflow: main(dict) -> dict; builds new AbstractStates per call.
"""

import CoolProp.CoolProp as CP


def props(st) -> dict:
    return {"rho_kg_m3": st.rhomass(), "h_J_kg": st.hmass(), "s_J_kgK": st.smass(), "cp_J_kgK": st.cpmass()}


def main(s: dict) -> dict:
    if97 = CP.AbstractState("IF97", "Water")
    heos = CP.AbstractState("HEOS", "Water")
    grid = []
    for p_MPa in s["pressures_MPa"]:
        for T in s["temperatures_K"]:
            p = float(p_MPa) * 1e6
            if97.update(CP.PT_INPUTS, p, float(T))
            heos.update(CP.PT_INPUTS, p, float(T))
            a, b = props(if97), props(heos)
            grid.append({"p_MPa": float(p_MPa), "T_K": float(T), "if97": a,
                         "rel_dev_rho": a["rho_kg_m3"] / b["rho_kg_m3"] - 1.0,
                         "dev_h_J_kg": a["h_J_kg"] - b["h_J_kg"],
                         "rel_dev_cp": a["cp_J_kgK"] / b["cp_J_kgK"] - 1.0})
    p_sat = float(s["saturation_p_MPa"]) * 1e6
    sat = {}
    for q, name in ((0.0, "liquid"), (1.0, "vapour")):
        if97.update(CP.PQ_INPUTS, p_sat, q)
        sat[name] = {"T_K": if97.T(), **props(if97)}
    p_in, p_out = float(s["turbine_inlet_p_MPa"]) * 1e6, float(s["turbine_exit_p_kPa"]) * 1e3
    if97.update(CP.PT_INPUTS, p_in, float(s["turbine_inlet_T_K"]))
    h_in, s_in = if97.hmass(), if97.smass()
    if97.update(CP.PSmass_INPUTS, p_out, s_in)
    h_s = if97.hmass()
    h_out = h_in - float(s["turbine_efficiency"]) * (h_in - h_s)
    if97.update(CP.HmassP_INPUTS, h_out, p_out)
    return {
        "grid": grid,
        "saturation": sat,
        "turbine": {"h_in_J_kg": h_in, "h_isentropic_J_kg": h_s, "h_out_J_kg": h_out, "T_out_K": if97.T(),
                    "quality_out": if97.Q(), "work_J_kg": h_in - h_out},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
