"""Rate-constant table of selected elementary reactions with Cantera's kinetics manager: forward and reverse rate
constants, equilibrium constants, standard Gibbs energy and enthalpy of reaction and the effective third-body
concentration over a temperature grid, written as HDF5, as a kineticist tabulates a mechanism's reactions.

Entry workflow: main(dict) -> dict; the mechanisms are parsed once at import and each call sets the state of a fresh
Solution built from them, so module objects are never mutated.
"""

import math
import os

import cantera as ct
import numpy as np

MECHS = {name: ct.Solution(name) for name in ("h2o2.yaml", "gri30.yaml")}
R_KJ = ct.gas_constant / 1e6  # kJ/(mol K): Cantera's J/(kmol K) over 1e6


def solution(name: str) -> ct.Solution:
    mech = MECHS[name]
    return ct.Solution(thermo="ideal-gas", kinetics="gas", species=mech.species(), reactions=mech.reactions())


def write(path: str, temps, idx, gas, cols: dict) -> None:
    import h5py

    with h5py.File(path, "w") as h5:
        h5.create_dataset("temperature", data=temps).attrs["units"] = "K"
        h5.create_dataset("reaction_index", data=np.asarray(idx, dtype=np.int64))
        h5.create_dataset("equation", data=[gas.reaction(i).equation for i in idx], dtype=h5py.string_dtype())
        for name, (values, unit) in cols.items():
            h5.create_dataset(name, data=values).attrs["units"] = unit


def main(s: dict) -> dict:
    gas = solution(str(s["mechanism"]))
    idx = [int(i) % gas.n_reactions for i in s["reaction_indices"]]
    temps = np.linspace(float(s["T_min_K"]), float(s["T_max_K"]), int(s["n_T"]))
    p = float(s["pressure_atm"]) * ct.one_atm
    x = {"H2": 2.0, "O2": 1.0, str(s["diluent"]): float(s["dilution"])}
    names = ("forward_rate_constant", "reverse_rate_constant", "equilibrium_constant", "delta_standard_gibbs",
             "delta_enthalpy", "third_body_concentration")
    cols = {n: np.empty((temps.size, len(idx))) for n in names}
    for k, T in enumerate(temps):
        gas.TPX = float(T), p, x
        cols["forward_rate_constant"][k] = gas.forward_rate_constants[idx]
        cols["reverse_rate_constant"][k] = gas.reverse_rate_constants[idx]
        cols["equilibrium_constant"][k] = gas.equilibrium_constants[idx]
        cols["delta_standard_gibbs"][k] = gas.delta_standard_gibbs[idx]
        cols["delta_enthalpy"][k] = gas.delta_enthalpy[idx]
        cols["third_body_concentration"][k] = gas.third_body_concentrations[idx]
    units = {"forward_rate_constant": "kmol, m, s", "reverse_rate_constant": "kmol, m, s",
             "equilibrium_constant": "kmol, m", "delta_standard_gibbs": "J/kmol", "delta_enthalpy": "J/kmol",
             "third_body_concentration": "kmol/m3"}
    write(os.path.join(os.environ["SWR_ARTIFACTS"], "rates.h5"), temps, idx, gas,
          {n: (cols[n], units[n]) for n in names})
    kf = cols["forward_rate_constant"]
    inv = 1.0 / temps[0] - 1.0 / temps[-1]
    reactions = [{
        "index": i,
        "type": gas.reaction(i).reaction_type,
        "effective_activation_energy_kJ_mol": R_KJ * math.log(kf[-1, j] / kf[0, j]) / inv,
    } for j, i in enumerate(idx)]
    return {"rates": "rates.h5", "reactions": reactions}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
