"""Flow measurement with a differential-pressure meter to ISO 5167 using Caleb Bell's `fluids`: the mass flow a
measured differential implies (fluids.differential_pressure_meter_solver), the discharge and expansibility
coefficients there (differential_pressure_meter_C_epsilon) and the unrecovered pressure loss
(differential_pressure_meter_dP).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import tomllib
from pathlib import Path

import fluids

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
T_K = CONSTANTS["T_K"]
R = CONSTANTS["R"]
FLUIDS = {  # name -> (molar mass kg/mol or None for the liquid, density if liquid, viscosity Pa s, isentropic exponent)
    "water": (None, CONSTANTS["RHO_WATER"], CONSTANTS["MU_WATER"], 1.4),
    "air": (CONSTANTS["M_AIR"], None, CONSTANTS["MU_AIR"], 1.4),
    "methane": (CONSTANTS["M_CH4"], None, CONSTANTS["MU_CH4"], 1.31),
}


def main(s: dict) -> dict:
    molar_mass, rho_liq, mu, k = FLUIDS[str(s["fluid"])]
    d_pipe = float(s["pipe_diameter_mm"]) * 1e-3
    d_bore = float(s["beta"]) * d_pipe
    p1 = float(s["upstream_pressure_bar"]) * 1e5
    p2 = p1 - float(s["differential_kPa"]) * 1e3
    meter = str(s["meter_type"])
    rho = rho_liq if molar_mass is None else p1 * molar_mass / (R * T_K)
    eps_given = 1.0 if molar_mass is None else None  # a liquid does not expand
    kw = dict(D=d_pipe, D2=d_bore, P1=p1, P2=p2, rho=rho, mu=mu, k=k, meter_type=meter, taps="flange",
              epsilon_specified=eps_given)
    m = fluids.differential_pressure_meter_solver(**kw)
    c, eps = fluids.differential_pressure_meter_C_epsilon(m=m, **kw)
    loss = fluids.differential_pressure_meter_dP(D=d_pipe, D2=d_bore, P1=p1, P2=p2, C=c, meter_type=meter)
    area_pipe = math.pi * d_pipe**2 / 4.0
    return {
        "inlet_density_kg_m3": rho,
        "downstream_tap_pressure_bar": p2 / 1e5,
        "mass_flow_kg_s": m,
        "volume_flow_m3_h": m / rho * 3600.0,
        "discharge_coefficient": c,
        "expansibility": eps,
        "pipe_reynolds": fluids.Reynolds(V=m / (rho * area_pipe), D=d_pipe, rho=rho, mu=mu),
        "bore_velocity_m_s": m / (rho * math.pi * d_bore**2 / 4.0),
        "permanent_loss_kPa": loss / 1e3,
        "loss_fraction_of_differential": loss / (p1 - p2),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
