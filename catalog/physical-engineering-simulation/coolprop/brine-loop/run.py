"""A secondary-coolant (brine) loop sized with CoolProp's incompressible-fluid backend (PropsSI on
"INCOMP::<brine>[<mass fraction>]"): freezing point, transport properties at the loop's mean temperature, the mass
flow a heat load needs, and the pipe's Reynolds number, friction, pressure drop, pump power and heat-transfer
coefficient (Petukhov friction, Gnielinski Nusselt number in turbulent flow).

Entry workflow: main(dict) -> dict; pure function of the scenario.
"""

import math

from CoolProp.CoolProp import PropsSI

P_PA = 3.0e5  # loop pressure (incompressible: properties barely depend on it)
RE_LAMINAR = 2300.0
NU_LAMINAR = 3.66


def main(s: dict) -> dict:
    fluid = f"INCOMP::{s['brine']}[{float(s['mass_fraction'])}]"
    t_freeze = PropsSI("T_freeze", fluid)
    t_supply = t_freeze + float(s["freeze_margin_K"])
    dT = float(s["temperature_rise_K"])
    t_mean = t_supply + dT / 2.0
    props = {k: PropsSI(k, "T", t_mean, "P", P_PA, fluid) for k in ("D", "C", "V", "L", "Prandtl")}
    rho, cp, mu, k = props["D"], props["C"], props["V"], props["L"]
    mdot = float(s["load_kW"]) * 1e3 / (cp * dT)
    d = float(s["pipe_id_mm"]) * 1e-3
    area = math.pi * d * d / 4.0
    vel = mdot / (rho * area)
    re = rho * vel * d / mu
    pr = props["Prandtl"]
    if re < RE_LAMINAR:
        f = 64.0 / re
        nu = NU_LAMINAR
    else:
        f = (0.790 * math.log(re) - 1.64) ** -2
        nu = (f / 8.0) * (re - 1000.0) * pr / (1.0 + 12.7 * math.sqrt(f / 8.0) * (pr ** (2.0 / 3.0) - 1.0))
    dp = f * float(s["pipe_length_m"]) / d * rho * vel * vel / 2.0
    return {
        "freezing_point_C": t_freeze - 273.15,
        "supply_T_C": t_supply - 273.15,
        "properties_at_mean_T": {"density_kg_m3": rho, "cp_J_kgK": cp, "viscosity_Pa_s": mu,
                                 "conductivity_W_mK": k, "prandtl": pr},
        "mass_flow_kg_s": mdot,
        "velocity_m_s": vel,
        "reynolds": re,
        "laminar": bool(re < RE_LAMINAR),
        "darcy_friction": f,
        "pressure_drop_kPa": dp / 1e3,
        "pump_power_W": mdot / rho * dp / float(s["pump_efficiency"]),
        "nusselt": nu,
        "h_W_m2K": nu * k / d,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
