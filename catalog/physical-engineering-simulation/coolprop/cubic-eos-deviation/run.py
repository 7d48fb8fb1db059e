"""How far the cubic equations of state are from the reference multiparameter EOS for a fluid, with CoolProp's
AbstractState backends "PR" (Peng-Robinson) and "SRK" (Soave-Redlich-Kwong) against "HEOS": saturation pressure and
phase densities along the saturation curve, and density, cp and enthalpy departure at supercritical and gas states,
as a process engineer checks whether a cubic EOS is good enough for a simulator.

Entry workflow: main(dict) -> dict; builds new AbstractStates per call.
"""

import CoolProp.CoolProp as CP

BACKENDS = ("HEOS", "PR", "SRK")


def saturation(st, T: float) -> dict:
    st.update(CP.QT_INPUTS, 0.0, T)
    p, rho_l, h_l = st.p(), st.rhomass(), st.hmass()
    st.update(CP.QT_INPUTS, 1.0, T)
    return {"p_Pa": p, "rho_liquid_kg_m3": rho_l, "rho_vapour_kg_m3": st.rhomass(), "h_vaporisation_J_kg": st.hmass() - h_l}


def single(st, p: float, T: float, pc: float) -> dict:
    """PT flash with the phase imposed (above Tc: supercritical above pc, supercritical gas below): a cubic has
    three density roots at some of these states and would need a guess otherwise."""
    st.specify_phase(CP.iphase_supercritical if p >= pc else CP.iphase_supercritical_gas)
    st.update(CP.PT_INPUTS, p, T)
    st.unspecify_phase()
    return {"rho_kg_m3": st.rhomass(), "cp_J_kgK": st.cpmass(), "compressibility_Z": st.compressibility_factor()}


def main(s: dict) -> dict:
    fluid = str(s["fluid"])
    states = {b: CP.AbstractState(b, fluid) for b in BACKENDS}
    ref = states["HEOS"]
    Tc, pc = ref.T_critical(), ref.p_critical()
    out = {"T_critical_K": Tc, "p_critical_Pa": pc, "acentric_factor": ref.acentric_factor()}
    T_sat = float(s["saturation_Tr"]) * Tc
    p_gas, T_gas = float(s["state_pr"]) * pc, float(s["state_Tr"]) * Tc
    for b in BACKENDS:
        out[b] = {"saturation": saturation(states[b], T_sat), "state": single(states[b], p_gas, T_gas, pc)}
    dev = {}
    for b in ("PR", "SRK"):
        dev[b] = {
            "p_sat": out[b]["saturation"]["p_Pa"] / out["HEOS"]["saturation"]["p_Pa"] - 1.0,
            "rho_liquid": out[b]["saturation"]["rho_liquid_kg_m3"] / out["HEOS"]["saturation"]["rho_liquid_kg_m3"] - 1.0,
            "rho_state": out[b]["state"]["rho_kg_m3"] / out["HEOS"]["state"]["rho_kg_m3"] - 1.0,
        }
    out["relative_deviation"] = dev
    out["better_liquid_density"] = "PR" if abs(dev["PR"]["rho_liquid"]) < abs(dev["SRK"]["rho_liquid"]) else "SRK"
    return out


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
