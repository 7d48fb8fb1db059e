"""Flight conditions from the U.S. Standard Atmosphere 1976 with Caleb Bell's `fluids`
(fluids.atmosphere.ATMOSPHERE_1976 with a temperature offset: temperature, pressure, density, gravity, viscosity,
conductivity, speed of sound), the aerodynamic numbers of an aircraft flying there, and the air mass above it
along a slant path (fluids.atmosphere.airmass).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import tomllib
from pathlib import Path

from fluids.atmosphere import ATMOSPHERE_1976, airmass

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
RHO_SL = CONSTANTS["RHO_SL"]  # kg/m^3, the standard sea-level density equivalent airspeed is referred to
Z_TOP = CONSTANTS["Z_TOP"]  # m, airmass's default top of the atmosphere
R_EARTH = CONSTANTS["R_EARTH"]  # m, airmass's default planet radius


def main(s: dict) -> dict:
    z = float(s["altitude_m"])
    dt = float(s["temperature_offset_K"])
    tas = float(s["true_airspeed_m_s"])
    chord = float(s["chord_m"])
    angle = float(s["elevation_angle_deg"])
    atm = ATMOSPHERE_1976(Z=z, dT=dt)
    mass_above = airmass(lambda h: ATMOSPHERE_1976(Z=z + h, dT=dt).rho, angle, H_max=Z_TOP - z, R_planet=R_EARTH + z)
    return {
        "temperature_K": atm.T,
        "pressure_Pa": atm.P,
        "density_kg_m3": atm.rho,
        "gravity_m_s2": atm.g,
        "geopotential_altitude_m": atm.H,
        "viscosity_Pa_s": atm.mu,
        "thermal_conductivity_W_mK": atm.k,
        "speed_of_sound_m_s": atm.v_sonic,
        "mach": tas / atm.v_sonic,
        "dynamic_pressure_Pa": 0.5 * atm.rho * tas * tas,
        "equivalent_airspeed_m_s": tas * math.sqrt(atm.rho / RHO_SL),
        "chord_reynolds": atm.rho * tas * chord / atm.mu,
        "slant_air_mass_kg_m2": mass_above,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
