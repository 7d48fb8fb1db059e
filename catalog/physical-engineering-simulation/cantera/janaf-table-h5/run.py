"""JANAF-style thermochemical tables of gas species from Cantera's species thermodynamics (ct.Species objects of
GRI-Mech 3.0 with their NASA 7-coefficient polynomials: SpeciesThermo.cp, h, s), written as HDF5 with one group per
species, as a thermochemist tabulates cp, S, -(G - H298)/T and H - H298.

Entry workflow: main(dict) -> dict; the species are parsed once at import and never mutated.
"""

import os
import tomllib
from pathlib import Path

import cantera as ct
import numpy as np

SPECIES = {sp.name: sp for sp in ct.Species.list_from_file("gri30.yaml")}
# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
T_REF = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]["T_REF_K"]


def table(sp: ct.Species, temps: np.ndarray) -> dict[str, np.ndarray]:
    th = sp.thermo
    cp = np.array([th.cp(T) for T in temps]) / 1e3  # J/(kmol K) -> J/(mol K)
    h = np.array([th.h(T) for T in temps]) / 1e3  # J/kmol -> J/mol
    s = np.array([th.s(T) for T in temps]) / 1e3
    h298 = th.h(T_REF) / 1e3
    return {"cp": cp, "s": s, "h_minus_h298": (h - h298) / 1e3, "gef": -(h - temps * s - h298) / temps}


def main(s: dict) -> dict:
    temps = np.linspace(float(s["T_min_K"]), float(s["T_max_K"]), int(s["n_T"]))
    names = [str(n) for n in s["species"]]
    summary = []
    import h5py

    with h5py.File(os.path.join(os.environ["SWR_ARTIFACTS"], "janaf.h5"), "w") as h5:
        h5.create_dataset("temperature", data=temps).attrs["units"] = "K"
        for k, name in enumerate(names):
            sp = SPECIES[name]
            grp = h5.create_group(f"species_{k}")
            grp.attrs["name"] = name
            grp.attrs["molecular_weight"] = float(sp.molecular_weight)
            for col, values in table(sp, temps).items():
                unit = {"cp": "J/(mol K)", "s": "J/(mol K)", "h_minus_h298": "kJ/mol", "gef": "J/(mol K)"}[col]
                grp.create_dataset(col, data=values).attrs["units"] = unit
            th = sp.thermo
            summary.append({"name": name, "h298_kJ_mol": th.h(T_REF) / 1e6, "s298_J_molK": th.s(T_REF) / 1e3,
                            "cp298_J_molK": th.cp(T_REF) / 1e3, "fit_T_min_K": float(th.min_temp),
                            "fit_T_max_K": float(th.max_temp)})
    return {"tables": "janaf.h5", "species": summary}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
