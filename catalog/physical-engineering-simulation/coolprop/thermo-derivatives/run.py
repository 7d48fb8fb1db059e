"""Thermodynamic derivatives of a real fluid with CoolProp's AbstractState (HEOS): arbitrary first and second partial
derivatives (first_partial_deriv, second_partial_deriv), the named response coefficients (isothermal compressibility,
isobaric expansion, fundamental derivative of gas dynamics), the Joule-Thomson and Grueneisen coefficients built from
them, and a two-phase derivative along constant quality (first_two_phase_deriv), as a gas-dynamics or equation-of-state
analyst characterises a state.

Entry workflow: main(dict) -> dict; builds a new AbstractState per call.
"""

import CoolProp.CoolProp as CP


def main(s: dict) -> dict:
    st = CP.AbstractState("HEOS", str(s["fluid"]))
    Tc, pc = st.T_critical(), st.p_critical()
    st.update(CP.PT_INPUTS, float(s["reduced_p"]) * pc, float(s["reduced_T"]) * Tc)
    rho = st.rhomass()
    single = {
        "rho_kg_m3": rho,
        "dp_dT_at_rho": st.first_partial_deriv(CP.iP, CP.iT, CP.iDmass),
        "dp_drho_at_T": st.first_partial_deriv(CP.iP, CP.iDmass, CP.iT),
        "dh_dT_at_p": st.first_partial_deriv(CP.iHmass, CP.iT, CP.iP),
        "dT_dp_at_h": st.first_partial_deriv(CP.iT, CP.iP, CP.iHmass),
        "d2p_drho2_at_T": st.second_partial_deriv(CP.iP, CP.iDmass, CP.iT, CP.iDmass, CP.iT),
        "d2h_dT2_at_p": st.second_partial_deriv(CP.iHmass, CP.iT, CP.iP, CP.iT, CP.iP),
        "isothermal_compressibility_1_Pa": st.isothermal_compressibility(),
        "isobaric_expansion_1_K": st.isobaric_expansion_coefficient(),
        "fundamental_derivative": st.fundamental_derivative_of_gas_dynamics(),
        "grueneisen": st.first_partial_deriv(CP.iP, CP.iUmass, CP.iDmass) / rho,
        "speed_of_sound_m_s": st.speed_sound(),
    }
    st.update(CP.QT_INPUTS, float(s["quality"]), float(s["saturation_Tr"]) * Tc)
    two = {
        "p_Pa": st.p(),
        "rho_kg_m3": st.rhomass(),
        "drho_dh_at_p": st.first_two_phase_deriv(CP.iDmass, CP.iHmass, CP.iP),
        "drho_dp_at_h": st.first_two_phase_deriv(CP.iDmass, CP.iP, CP.iHmass),
        "dp_dT_saturation": st.first_saturation_deriv(CP.iP, CP.iT),
    }
    return {"single_phase": single, "two_phase": two}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
