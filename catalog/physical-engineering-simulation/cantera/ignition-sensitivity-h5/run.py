"""Kinetic sensitivity analysis of hydrogen auto-ignition in a constant-volume vessel with Cantera: an
IdealGasReactor whose ReactorNet integrates the forward sensitivities of the state to every reaction's rate
multiplier (Reactor.add_sensitivity_reaction, ReactorNet.sensitivity, CVODES), as a kineticist finds the reactions
that control ignition; the sensitivity history is written as HDF5.

Entry workflow: main(dict) -> dict; the HDF5 file goes to $SWR_ARTIFACTS. Each call builds fresh Solution objects
from the mechanism parsed at import, so module state is never mutated.
"""

import os

import cantera as ct
import numpy as np

MECH = ct.Solution("h2o2.yaml")
SPECIES = MECH.species()
REACTIONS = MECH.reactions()


def _network(s: dict):
    """A constant-volume adiabatic reactor with sensitivity to every reaction."""
    gas = ct.Solution(thermo="ideal-gas", kinetics="gas", species=SPECIES, reactions=REACTIONS)
    oxidiser = f"O2:1, {s['diluent']}:{float(s['diluent_per_o2'])}"
    gas.set_equivalence_ratio(float(s["equivalence_ratio"]), "H2:1", oxidiser)
    gas.TP = float(s["initial_T_K"]), float(s["pressure_atm"]) * ct.one_atm
    r = ct.IdealGasReactor(gas, energy="on", clone=False)
    net = ct.ReactorNet([r])
    for j in range(gas.n_reactions):
        r.add_sensitivity_reaction(j)
    net.rtol, net.atol = 1e-10, 1e-16
    net.rtol_sensitivity, net.atol_sensitivity = 1e-7, 1e-7
    return gas, r, net


def main(s: dict) -> dict:
    import h5py

    gas, r, net = _network(s)
    comp = str(s["component"])
    n_t = int(s["n_times"])
    times = np.linspace(1.0, n_t, n_t) * float(s["t_end_ms"]) * 1e-3 / n_t
    sens = np.zeros((n_t, gas.n_reactions))
    temp, pres = np.zeros(n_t), np.zeros(n_t)
    for k, t in enumerate(times):
        net.advance(float(t))
        temp[k], pres[k] = r.T, r.phase.P
        sens[k] = [net.sensitivity(comp, j) for j in range(gas.n_reactions)]
    eqs = [rx.equation for rx in REACTIONS]
    with h5py.File(os.path.join(os.environ["SWR_ARTIFACTS"], "sensitivity.h5"), "w") as h5:
        h5.create_dataset("time", data=times).attrs["units"] = "s"
        h5.create_dataset("temperature", data=temp).attrs["units"] = "K"
        h5.create_dataset("pressure", data=pres).attrs["units"] = "Pa"
        ds = h5.create_dataset("sensitivity", data=sens)
        ds.attrs["units"] = "1"
        ds.attrs["component"] = comp
        h5.create_dataset("equation", data=np.array(eqs, dtype=h5py.string_dtype()))
    final = sens[-1]
    return {
        "sensitivities": "sensitivity.h5",
        "final_T_K": float(temp[-1]),
        "final_P_atm": float(pres[-1] / ct.one_atm),
        "final_sensitivity": [float(v) for v in final],
        "peak_sensitivity": [float(col[int(np.argmax(np.abs(col)))]) for col in sens.T],
        "sum_abs_final_sensitivity": float(np.abs(final).sum()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
