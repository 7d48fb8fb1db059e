"""Bubble and dew points of a binary refrigerant or natural-gas blend with CoolProp's multi-fluid HEOS mixture model
(AbstractState("HEOS", "A&B") with set_mole_fractions): PQ flashes at Q = 0, 0.5 and 1, temperature glide, the
compositions of the incipient phases and the latent heat, as a refrigeration engineer characterises a zeotropic blend.

Entry workflow: main(dict) -> dict; builds a new AbstractState per call.
"""

import tomllib
from pathlib import Path

import CoolProp.CoolProp as CP

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
P_GAS_PA = CONSTANTS["GAS_STATE_P_PA"]


def flash(st, p: float, q: float) -> dict:
    st.update(CP.PQ_INPUTS, p, q)
    return {"T_K": st.T(), "h_J_mol": st.hmolar(), "s_J_molK": st.smolar(), "rho_mol_m3": st.rhomolar(),
            "x_liquid_1": st.mole_fractions_liquid()[0], "y_vapour_1": st.mole_fractions_vapor()[0]}


def main(s: dict) -> dict:
    st = CP.AbstractState("HEOS", str(s["blend"]))
    z1 = float(s["x1"])
    st.set_mole_fractions([z1, 1.0 - z1])
    points = []
    for p_MPa in s["pressures_MPa"]:
        p = float(p_MPa) * 1e6
        bubble, mid, dew = flash(st, p, 0.0), flash(st, p, 0.5), flash(st, p, 1.0)
        points.append({
            "p_MPa": float(p_MPa),
            "bubble": bubble,
            "half_vaporised": mid,
            "dew": dew,
            "glide_K": dew["T_K"] - bubble["T_K"],
            "latent_heat_J_mol": dew["h_J_mol"] - bubble["h_J_mol"],
        })
    st.specify_phase(CP.iphase_gas)  # skip the stability test: the state is a gas by construction
    st.update(CP.PT_INPUTS, P_GAS_PA, float(s["gas_T_K"]))
    return {
        "molar_mass_kg_mol": st.molar_mass(),
        "points": points,
        "max_glide_K": max(pt["glide_K"] for pt in points),
        "gas_at_1atm": {"rho_mol_m3": st.rhomolar(), "cp_J_molK": st.cpmolar(),
                        "compressibility_Z": st.compressibility_factor()},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
