"""Gas-liquid two-phase flow in an inclined pipe with Caleb Bell's `fluids` two-phase modules: the flow regime
(fluids.Taitel_Dukler_regime), the void fraction by a chosen correlation (fluids.liquid_gas_voidage), the
frictional drop by a chosen correlation (fluids.two_phase_dP) and the gravitational drop
(fluids.two_phase_dP_gravitational), as in sizing a steam-condensate or a wet-gas line.

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import tomllib
from pathlib import Path

import fluids

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
PAIRS = {  # name -> (rho_l, rho_g kg/m^3, mu_l, mu_g Pa s, sigma N/m, P Pa, Pc Pa)
    "steam-water-10bar": (887.1, 5.15, 1.50e-4, 1.50e-5, 0.0423, 1.0e6, CONSTANTS["PC_WATER"]),
    "air-water-2bar": (998.2, 2.38, 1.00e-3, 1.82e-5, 0.0728, 2.0e5, 3.77e6),
    "natural-gas-condensate-50bar": (650.0, 40.0, 3.0e-4, 1.3e-5, 0.012, 5.0e6, 9.6e6),
}


def main(s: dict) -> dict:
    rhol, rhog, mul, mug, sigma, p, pc = PAIRS[str(s["fluid_pair"])]
    m = float(s["mass_flow_kg_s"])
    x = float(s["quality"])
    d = float(s["diameter_mm"]) * 1e-3
    length = float(s["length_m"])
    angle = float(s["angle_deg"])
    rough = float(s["roughness_um"]) * 1e-6
    regime, x_td, t_td, f_td, k_td = fluids.Taitel_Dukler_regime(m=m, x=x, rhol=rhol, rhog=rhog, mul=mul, mug=mug,
                                                                D=d, angle=angle, roughness=rough)
    alpha = fluids.liquid_gas_voidage(x=x, rhol=rhol, rhog=rhog, D=d, m=m, mul=mul, mug=mug, sigma=sigma, P=p, Pc=pc,
                                      angle=angle, Method=str(s["voidage_method"]))
    dp_fric = fluids.two_phase_dP(m=m, x=x, rhol=rhol, rhog=rhog, mul=mul, mug=mug, sigma=sigma, D=d, L=length, P=p,
                                  Pc=pc, roughness=rough, angle=angle, Method=str(s["dp_method"]))
    dp_grav = fluids.two_phase_dP_gravitational(angle=angle, z=length * math.sin(math.radians(angle)), alpha_i=alpha,
                                                rho_li=rhol, rho_gi=rhog)
    area = math.pi * d * d / 4.0
    return {
        "taitel_dukler_regime": regime,
        "martinelli_parameter": x_td,
        "taitel_dukler_T": t_td,
        "taitel_dukler_F": f_td,
        "taitel_dukler_K": k_td,
        "void_fraction": alpha,
        "superficial_gas_velocity_m_s": m * x / (rhog * area),
        "superficial_liquid_velocity_m_s": m * (1.0 - x) / (rhol * area),
        "mixture_density_kg_m3": alpha * rhog + (1.0 - alpha) * rhol,
        "dp_friction_kPa": dp_fric / 1e3,
        "dp_gravity_kPa": dp_grav / 1e3,
        "dp_total_kPa": (dp_fric + dp_grav) / 1e3,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
