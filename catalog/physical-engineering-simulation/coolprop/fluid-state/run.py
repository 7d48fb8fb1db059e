"""Thermodynamic and transport properties of a pure fluid with CoolProp's low-level AbstractState (HEOS
backend): fluid constants, saturation state, a two-phase mixture, a superheated vapour and a subcooled liquid.

Entry workflow: main(dict) -> dict; heavy imports at module level, module state never mutated
(a fresh AbstractState is created per call).
"""

import CoolProp
from CoolProp.CoolProp import AbstractState

PHASES = {
    CoolProp.iphase_liquid: "liquid",
    CoolProp.iphase_supercritical: "supercritical",
    CoolProp.iphase_supercritical_gas: "supercritical_gas",
    CoolProp.iphase_supercritical_liquid: "supercritical_liquid",
    CoolProp.iphase_critical_point: "critical_point",
    CoolProp.iphase_gas: "gas",
    CoolProp.iphase_twophase: "twophase",
}


def single_phase(AS):
    cp = AS.cpmass()
    mu = AS.viscosity()
    k = AS.conductivity()
    return {
        "T_K": AS.T(),
        "p_Pa": AS.p(),
        "phase": PHASES.get(AS.phase(), "unknown"),
        "rho_kg_m3": AS.rhomass(),
        "h_J_kg": AS.hmass(),
        "s_J_kgK": AS.smass(),
        "cp_J_kgK": cp,
        "cv_J_kgK": AS.cvmass(),
        "speed_of_sound_m_s": AS.speed_sound(),
        "compressibility_Z": AS.compressibility_factor(),
        "viscosity_Pa_s": mu,
        "conductivity_W_mK": k,
        "prandtl": cp * mu / k,
        "joule_thomson_K_Pa": AS.first_partial_deriv(CoolProp.iT, CoolProp.iP, CoolProp.iHmass),
    }


def main(scn: dict) -> dict:
    fluid = str(scn["fluid"])
    f = float(scn["saturation_fraction"])
    x = float(scn["quality"])
    dT_sup = float(scn["superheat_K"])
    g = float(scn["subcool_fraction"])

    AS = AbstractState("HEOS", fluid)
    Tt, Tc = AS.Ttriple(), AS.T_critical()
    constants = {
        "molar_mass_kg_mol": AS.molar_mass(),
        "T_triple_K": Tt,
        "T_critical_K": Tc,
        "p_critical_Pa": AS.p_critical(),
        "rho_critical_kg_m3": AS.rhomass_critical(),
        "acentric_factor": AS.acentric_factor(),
        "gas_constant_J_molK": AS.gas_constant(),
    }

    Ts = Tt + f * (Tc - Tt)
    AS.update(CoolProp.QT_INPUTS, 0.0, Ts)
    ps = AS.p()
    liq = (AS.rhomass(), AS.hmass(), AS.smass())
    sigma = AS.surface_tension()
    AS.update(CoolProp.QT_INPUTS, 1.0, Ts)
    vap = (AS.rhomass(), AS.hmass(), AS.smass())
    saturation = {
        "T_K": Ts,
        "p_Pa": ps,
        "rho_liquid_kg_m3": liq[0],
        "rho_vapour_kg_m3": vap[0],
        "h_vaporisation_J_kg": vap[1] - liq[1],
        "s_vaporisation_J_kgK": vap[2] - liq[2],
        "surface_tension_N_m": sigma,
        "dp_dT_Pa_K": AS.first_saturation_deriv(CoolProp.iP, CoolProp.iT),
    }

    AS.update(CoolProp.QT_INPUTS, x, Ts)
    mixture = {
        "rho_kg_m3": AS.rhomass(),
        "h_J_kg": AS.hmass(),
        "s_J_kgK": AS.smass(),
        "u_J_kg": AS.umass(),
    }

    AS.update(CoolProp.PT_INPUTS, ps, Ts + dT_sup)
    vapour = single_phase(AS)
    AS.update(CoolProp.PT_INPUTS, ps, Ts - g * (Ts - Tt))
    liquid = single_phase(AS)

    return {
        "constants": constants,
        "saturation": saturation,
        "mixture": mixture,
        "superheated_vapour": vapour,
        "subcooled_liquid": liquid,
    }
