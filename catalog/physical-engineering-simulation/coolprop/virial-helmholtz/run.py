"""Virial coefficients and the reduced Helmholtz energy of a fluid's multiparameter equation of state with
CoolProp's AbstractState (HEOS): second and third virial coefficients B(T) and C(T) over temperature, the Boyle
temperature where B = 0 (scipy.optimize.brentq), and the ideal and residual Helmholtz terms and their derivatives at a
(T, rho) state, from which pressure and the ideal-gas cp follow, as an equation-of-state developer inspects a fit.

Entry workflow: main(dict) -> dict; builds a new AbstractState per call.
"""

import numpy as np
from scipy.optimize import brentq

import CoolProp.CoolProp as CP

RHO_LOW = 1e-3  # mol/m3: the virial coefficients are the zero-density limits, evaluated at a vanishing density


def virial(st, T: float) -> tuple[float, float]:
    st.update(CP.DmolarT_INPUTS, RHO_LOW, T)
    return st.Bvirial(), st.Cvirial()


def main(s: dict) -> dict:
    st = CP.AbstractState("HEOS", str(s["fluid"]))
    Tc = st.T_critical()
    temps = np.linspace(float(s["T_min_over_Tc"]) * Tc, float(s["T_max_over_Tc"]) * Tc, int(s["n_T"]))
    table = []
    for T in temps:
        B, C = virial(st, float(T))
        table.append({"T_K": float(T), "B_m3_mol": B, "C_m6_mol2": C})
    boyle = brentq(lambda T: virial(st, T)[0], 1.5 * Tc, 6.0 * Tc, xtol=1e-10, rtol=1e-14)
    T = float(s["state_T_over_Tc"]) * Tc
    rho = float(s["state_rho_over_rhoc"]) * st.rhomolar_critical()
    st.update(CP.DmolarT_INPUTS, rho, T)
    R = st.gas_constant()
    delta, tau = st.delta(), st.tau()
    ar_d = st.dalphar_dDelta()
    return {
        "virial": table,
        "boyle_temperature_K": boyle,
        "state": {
            "tau": tau, "delta": delta,
            "alpha0": st.alpha0(), "dalpha0_dtau": st.dalpha0_dTau(), "d2alpha0_dtau2": st.d2alpha0_dTau2(),
            "alphar": st.alphar(), "dalphar_ddelta": ar_d, "d2alphar_ddelta2": st.d2alphar_dDelta2(),
            "pressure_from_alphar_Pa": rho * R * T * (1.0 + delta * ar_d),
            "pressure_Pa": st.p(),
            "cp0_J_molK": st.cp0molar(),
        },
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
