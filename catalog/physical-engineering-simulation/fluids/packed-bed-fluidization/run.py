"""Pressure drop through a packed bed of particles and the onset of fluidisation with Caleb Bell's `fluids`:
the bed voidage from the column-to-particle ratio (fluids.voidage_Benyahia_Oneil), the packed-bed pressure drop
by a chosen correlation (fluids.dP_packed_bed), and the minimum fluidisation velocity where that drop carries
the bed's buoyant weight (root of the same correlation).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import tomllib
from pathlib import Path

import fluids
from scipy.optimize import brentq

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
G = CONSTANTS["G"]
FLUIDS = {  # name -> (density kg/m^3, dynamic viscosity Pa s), about 20 C and 1 atm
    "air": (1.204, 1.813e-5),
    "water": (998.2, 1.002e-3),
}


def main(s: dict) -> dict:
    rho, mu = FLUIDS[str(s["fluid"])]
    dp = float(s["particle_diameter_mm"]) * 1e-3
    phi = float(s["sphericity"])
    dt = float(s["column_diameter_m"])
    height = float(s["bed_height_m"])
    vs = float(s["superficial_velocity_m_s"])
    rhop = float(s["particle_density_kg_m3"])
    method = str(s["method"])
    eps = fluids.voidage_Benyahia_Oneil(Dpe=dp, Dt=dt, sphericity=phi)

    def drop(v: float) -> float:
        return fluids.dP_packed_bed(dp=dp, voidage=eps, vs=v, rho=rho, mu=mu, L=height, Dt=dt, sphericity=phi,
                                    Method=method)

    weight = (1.0 - eps) * (rhop - rho) * G * height  # buoyant bed weight per unit column area
    umf = brentq(lambda v: drop(v) - weight, 1e-9, 100.0, xtol=1e-15, rtol=1e-14)
    dp_bed = drop(vs)
    return {
        "voidage": eps,
        "pressure_drop_Pa": dp_bed,
        "pressure_gradient_Pa_m": dp_bed / height,
        "particle_reynolds": fluids.Reynolds(V=vs, D=dp * phi, rho=rho, mu=mu),
        "bed_weight_Pa": weight,
        "min_fluidization_velocity_m_s": umf,
        "fluidized": bool(dp_bed >= weight),
        "pumping_power_W": dp_bed * vs * math.pi * dt * dt / 4.0,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
