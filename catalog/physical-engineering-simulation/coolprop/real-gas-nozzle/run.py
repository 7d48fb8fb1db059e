"""Choked flow of a real gas through a nozzle with CoolProp's AbstractState (HEOS): isentropic expansion from the
stagnation state by PS flashes (PSmass_INPUTS), the mass flux rho sqrt(2 (h0 - h)) maximised over the throat pressure
(scipy.optimize.minimize_scalar, bounded), the throat state and sound speed, the ideal-gas estimate from the
stagnation cp/cv for comparison, and the exit state at the back pressure, as a safety engineer sizes a relief nozzle.

Entry workflow: main(dict) -> dict; builds a new AbstractState per call.
"""

import math

import CoolProp.CoolProp as CP
from scipy.optimize import minimize_scalar


def expanded(st, p: float, s0: float, h0: float) -> dict:
    st.update(CP.PSmass_INPUTS, p, s0)
    v = math.sqrt(max(2.0 * (h0 - st.hmass()), 0.0))
    return {"p_Pa": p, "T_K": st.T(), "rho_kg_m3": st.rhomass(), "velocity_m_s": v,
            "sound_speed_m_s": st.speed_sound(), "mass_flux_kg_m2s": st.rhomass() * v}


def main(s: dict) -> dict:
    st = CP.AbstractState("HEOS", str(s["fluid"]))
    p0 = float(s["p0_MPa"]) * 1e6
    st.update(CP.PT_INPUTS, p0, float(s["T0_K"]))
    h0, s0 = st.hmass(), st.smass()
    gamma0 = st.cpmass() / st.cvmass()
    stag = {"rho_kg_m3": st.rhomass(), "h_J_kg": h0, "s_J_kgK": s0, "compressibility_Z": st.compressibility_factor(),
            "gamma": gamma0}
    res = minimize_scalar(lambda p: -expanded(st, p, s0, h0)["mass_flux_kg_m2s"], bounds=(0.2 * p0, 0.95 * p0),
                          method="bounded", options={"xatol": 1e-6 * p0})
    throat = expanded(st, float(res.x), s0, h0)
    ideal_ratio = (2.0 / (gamma0 + 1.0)) ** (gamma0 / (gamma0 - 1.0))
    p_back = float(s["back_pressure_ratio"]) * p0
    choked = p_back < throat["p_Pa"]
    exit_state = throat if choked else expanded(st, p_back, s0, h0)
    area = float(s["throat_area_mm2"]) * 1e-6
    return {
        "stagnation": stag,
        "throat": throat,
        "critical_pressure_ratio": throat["p_Pa"] / p0,
        "ideal_gas_critical_pressure_ratio": ideal_ratio,
        "choked": choked,
        "mass_flow_kg_s": (throat if choked else exit_state)["mass_flux_kg_m2s"] * area,
        "exit_mach": exit_state["velocity_m_s"] / exit_state["sound_speed_m_s"],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
