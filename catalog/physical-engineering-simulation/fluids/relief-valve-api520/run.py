"""Size a pressure-relief valve with fluids.safety_valve (API 520 part I): gas or liquid required orifice area
with back-pressure (Kb / Kw), rupture-disk (Kc) and viscosity (Kv, computed by fluids) corrections, then pick the
API 526 orifice letter and the number of valves.

Entry workflow: warm workers import this module once; main() sizes per call.
"""

import math
import tomllib
from pathlib import Path

from fluids.safety_valve import (
    API520_B,
    API520_C,
    API520_W,
    API526_A,
    API520_A_g,
    API520_A_l,
    API526_letters,
)

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
ATM = CONSTANTS["ATM"]
T0 = CONSTANTS["T0"]
GASES = {"propane": (44.1, 1.13, 0.90), "natural_gas": (18.0, 1.27, 0.95), "nitrogen": (28.01, 1.40, 1.00)}
LIQUIDS = {"water": (998.0, 1.0e-3), "crude_oil": (870.0, 1.0e-2)}


def main(scenario: dict) -> dict:
    fluid = scenario["fluid"]
    m = float(scenario["mass_flow_kg_h"]) / 3600.0
    pset = float(scenario["set_pressure_barg"]) * 1e5 + ATM
    op = float(scenario["overpressure"])
    p1 = float(scenario["set_pressure_barg"]) * 1e5 * (1.0 + op) + ATM
    pback = float(scenario["back_pressure_fraction"]) * float(scenario["set_pressure_barg"]) * 1e5 + ATM
    kc = 0.9 if scenario["rupture_disk"] else 1.0
    bellows = bool(scenario["balanced_bellows"])
    if fluid in GASES:
        mw, k, z = GASES[fluid]
        kb = API520_B(pset, pback, op) if bellows else 1.0
        area = API520_A_g(m, float(scenario["temperature_C"]) + T0, z, mw, k, p1, pback, Kd=0.975, Kb=kb, Kc=kc)
        coeff = {"C": API520_C(k), "Kb": kb}
    else:
        rho, mu = LIQUIDS[fluid]
        kw = API520_W(pset, pback) if bellows else 1.0
        area = API520_A_l(m, rho, p1, pback, op, Kd=0.65, Kc=kc, Kw=kw, mu=mu)
        coeff = {"C": None, "Kb": kw}
    fits = [i for i, a in enumerate(API526_A) if a >= area]
    idx = fits[0] if fits else len(API526_A) - 1
    n_valves = 1 if fits else math.ceil(area / API526_A[-1])
    return {
        "relieving_pressure_Pa": p1,
        "back_pressure_Pa": pback,
        "required_area_mm2": area * 1e6,
        "orifice_letter": API526_letters[idx],
        "orifice_area_mm2": API526_A[idx] * 1e6,
        "n_valves": n_valves,
        "utilisation": area / (n_valves * API526_A[idx]),
        "gas_coefficient_C": coeff["C"],
        "backpressure_factor": coeff["Kb"],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
