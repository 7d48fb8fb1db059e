"""Single-stage vapour-compression refrigeration cycle (superheat, non-isentropic compressor, subcooling,
isenthalpic throttle) evaluated state by state with CoolProp's high-level PropsSI interface.

Entry workflow: main(dict) -> dict; heavy imports at module level, module state never mutated.
"""

from CoolProp.CoolProp import PropsSI

K0 = 273.15


def state(name, T, p, h, s, fluid):
    return {"point": name, "T_C": T - K0, "p_kPa": p / 1e3, "h_kJ_kg": h / 1e3, "s_kJ_kgK": s / 1e3,
            "rho_kg_m3": PropsSI("D", "P", p, "H", h, fluid)}


def main(scn: dict) -> dict:
    fl = str(scn["refrigerant"])
    Te = float(scn["evaporating_C"]) + K0
    Tc = float(scn["condensing_C"]) + K0
    sh = float(scn["superheat_K"])
    sc = float(scn["subcooling_K"])
    eta = float(scn["isentropic_efficiency"])
    cap = float(scn["cooling_capacity_kW"]) * 1e3

    pe = PropsSI("P", "T", Te, "Q", 1.0, fl)
    pc = PropsSI("P", "T", Tc, "Q", 0.0, fl)

    T1 = Te + sh
    h1 = PropsSI("H", "P", pe, "T", T1, fl)
    s1 = PropsSI("S", "P", pe, "T", T1, fl)
    h2s = PropsSI("H", "P", pc, "S", s1, fl)
    T2s = PropsSI("T", "P", pc, "S", s1, fl)
    h2 = h1 + (h2s - h1) / eta
    T2 = PropsSI("T", "P", pc, "H", h2, fl)
    s2 = PropsSI("S", "P", pc, "H", h2, fl)
    T3 = Tc - sc
    h3 = PropsSI("H", "P", pc, "T", T3, fl)
    s3 = PropsSI("S", "P", pc, "T", T3, fl)
    h4 = h3
    T4 = PropsSI("T", "P", pe, "H", h4, fl)
    s4 = PropsSI("S", "P", pe, "H", h4, fl)
    x4 = PropsSI("Q", "P", pe, "H", h4, fl)

    q_evap = h1 - h4
    w_comp = h2 - h1
    q_cond = h2 - h3
    mdot = cap / q_evap
    cop = q_evap / w_comp
    cop_carnot = Te / (Tc - Te)
    rho1 = PropsSI("D", "P", pe, "H", h1, fl)
    # Entropy generated per kg in the compressor and the throttle (adiabatic devices).
    sgen_comp = s2 - s1
    sgen_valve = s4 - s3
    return {
        "states": [
            state("1_compressor_inlet", T1, pe, h1, s1, fl),
            state("2_compressor_outlet", T2, pc, h2, s2, fl),
            state("3_expansion_inlet", T3, pc, h3, s3, fl),
            state("4_evaporator_inlet", T4, pe, h4, s4, fl),
        ],
        "isentropic_discharge_T_C": T2s - K0,
        "pressure_ratio": pc / pe,
        "throttle_exit_quality": x4,
        "refrigerating_effect_kJ_kg": q_evap / 1e3,
        "compressor_work_kJ_kg": w_comp / 1e3,
        "condenser_heat_kJ_kg": q_cond / 1e3,
        "mass_flow_kg_s": mdot,
        "compressor_power_kW": mdot * w_comp / 1e3,
        "condenser_duty_kW": mdot * q_cond / 1e3,
        "volumetric_capacity_kJ_m3": q_evap * rho1 / 1e3,
        "suction_volume_flow_m3_h": mdot / rho1 * 3600.0,
        "cop": cop,
        "cop_carnot": cop_carnot,
        "second_law_efficiency": cop / cop_carnot,
        "entropy_generation_W_K": {
            "compressor": mdot * sgen_comp,
            "expansion_valve": mdot * sgen_valve,
        },
    }
