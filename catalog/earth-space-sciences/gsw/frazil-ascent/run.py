"""A rising Ice Shelf Water parcel with gsw's freezing and frazil functions: CT_freezing, frazil_properties_potential
(equilibrium frazil at constant bulk potential enthalpy), pressure_freezing_CT, frazil_ratios_adiabatic and
CT_freezing_first_derivatives.

Entry workflow: main() computes from the scenario.
"""

import tomllib
from pathlib import Path

import gsw
import numpy as np

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CP0 = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]["CP0"]


def main(s: dict) -> dict:
    sa, p_deep, p_top = float(s["SA_g_kg"]), float(s["p_deep_dbar"]), float(s["p_top_dbar"])
    sat = float(s["saturation_fraction"])
    ct0 = float(gsw.CT_freezing(sa, p_deep, sat)) + float(s["warming_K"])
    p = np.linspace(p_deep, p_top, int(s["n_levels"]))
    sa_f, ct_f, w = gsw.frazil_properties_potential(sa, CP0 * ct0, p)
    supercool = gsw.CT_freezing(sa, p, sat) - ct0
    dsa_dct, dsa_dp, dct_dp = gsw.frazil_ratios_adiabatic(float(sa_f[-1]), p_top, float(w[-1]))
    ds, dp = gsw.CT_freezing_first_derivatives(sa, p_deep, sat)
    return {
        "levels": [{"p_dbar": float(p[k]), "SA_g_kg": float(sa_f[k]), "CT_C": float(ct_f[k]), "w_ice": float(w[k]),
                    "supercooling_K": float(supercool[k])} for k in range(len(p))],
        "freezing_pressure_dbar": float(gsw.pressure_freezing_CT(sa, ct0, sat)),
        "frazil_ratios_top": {"dSA_dCT": float(dsa_dct), "dSA_dP": float(dsa_dp), "dCT_dP": float(dct_dp)},
        "freezing_slopes": {"dCTfreezing_dSA": float(ds), "dCTfreezing_dP": float(dp)},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
