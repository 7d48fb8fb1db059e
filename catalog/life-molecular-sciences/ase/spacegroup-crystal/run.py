"""Crystal structures built from their space group and asymmetric unit with ASE (ase.spacegroup.crystal), then
analysed with a neighbour list (ase.neighborlist.neighbor_list 'ijd') for coordination numbers and shortest
interatomic distances per element pair, and their density, as a crystallographer checks a structure from a paper's
table of Wyckoff positions.

Entry workflow: main(dict) -> dict.
"""

import tomllib
from pathlib import Path

import numpy as np
from ase.neighborlist import neighbor_list
from ase.spacegroup import crystal
from ase.units import _amu

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
C = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
# name -> (symbols, basis as a function of the free parameter u, space group, (a, b, c, alpha, beta, gamma))
PROTOTYPES = {
    "rutile_TiO2": (["Ti", "O"], lambda u: [(0, 0, 0), (u, u, 0)], 136,
                    (C["RUTILE_A"], C["RUTILE_A"], C["RUTILE_C"], 90, 90, 90)),
    "wurtzite_ZnO": (["Zn", "O"], lambda u: [(1 / 3, 2 / 3, 0), (1 / 3, 2 / 3, u)], 186,
                     (C["WURTZITE_A"], C["WURTZITE_A"], C["WURTZITE_C"], 90, 90, 120)),
    "corundum_Al2O3": (["Al", "O"], lambda u: [(0, 0, u), (C["CORUNDUM_O_X"], 0, 1 / 4)], 167,
                       (C["CORUNDUM_A"], C["CORUNDUM_A"], C["CORUNDUM_C"], 90, 90, 120)),
    "spinel_MgAl2O4": (["Mg", "Al", "O"], lambda u: [(1 / 8, 1 / 8, 1 / 8), (1 / 2, 1 / 2, 1 / 2), (u, u, u)], 227,
                       (C["SPINEL_A"], C["SPINEL_A"], C["SPINEL_A"], 90, 90, 90)),
}
SETTING = {"spinel_MgAl2O4": 2}  # ITA origin choice 2 (centre of inversion at the origin); 1 otherwise
DEFAULT_U = {"rutile_TiO2": C["RUTILE_U"], "wurtzite_ZnO": C["WURTZITE_U"], "corundum_Al2O3": C["CORUNDUM_U"],
             "spinel_MgAl2O4": C["SPINEL_U"]}


def main(scn):
    name = str(scn["prototype"])
    symbols, basis, sg, cellpar = PROTOTYPES[name]
    s = float(scn["lattice_scale"])
    u = DEFAULT_U[name] + float(scn["u_shift"])
    setting = SETTING.get(name, 1)
    atoms = crystal(symbols, basis=basis(u), spacegroup=sg, setting=setting,
                    cellpar=[cellpar[0] * s, cellpar[1] * s, cellpar[2] * s, *cellpar[3:]])
    cutoff = float(scn["cutoff_A"])
    i, j, d = neighbor_list("ijd", atoms, cutoff)
    syms = atoms.get_chemical_symbols()
    coordination = {}
    shortest = {}
    for el in sorted(set(syms)):
        idx = [k for k, x in enumerate(syms) if x == el]
        counts = np.bincount(i, minlength=len(atoms))[idx]
        coordination[el] = float(np.mean(counts))
    for a, b, dist in zip(i, j, d):
        key = "-".join(sorted((syms[a], syms[b])))
        shortest[key] = min(shortest.get(key, np.inf), float(dist))
    mass_g = float(atoms.get_masses().sum()) * _amu * 1e3
    return {
        "n_atoms": len(atoms),
        "formula": atoms.get_chemical_formula(mode="hill", empirical=True),
        "u": u,
        "volume_A3": float(atoms.get_volume()),
        "density_g_cm3": mass_g / (atoms.get_volume() * 1e-24),
        "mean_coordination": [{"element": el, "cn": coordination[el]} for el in sorted(coordination)],
        "shortest_distances_A": [{"pair": k, "d": shortest[k]} for k in sorted(shortest)],
    }
