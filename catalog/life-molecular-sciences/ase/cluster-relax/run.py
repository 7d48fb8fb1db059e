"""Rattled metal nanocluster relaxed with a fixed number of ASE BFGS steps under EMT; neighbour-list coordination analysis."""

import json
import sys

import numpy as np
from ase.calculators.emt import EMT
from ase.cluster import Decahedron, Icosahedron, Octahedron
from ase.data import atomic_numbers, reference_states
from ase.neighborlist import NeighborList
from ase.optimize import BFGS

SHAPES = {
    "icosahedron-3": lambda el, a: Icosahedron(el, noshells=3, latticeconstant=a),
    "octahedron-4-1": lambda el, a: Octahedron(el, length=4, cutoff=1, latticeconstant=a),
    "octahedron-4-0": lambda el, a: Octahedron(el, length=4, cutoff=0, latticeconstant=a),
    "decahedron-3-2-0": lambda el, a: Decahedron(el, p=3, q=2, r=0, latticeconstant=a),
}


def coordination(atoms, cutoff):
    nl = NeighborList([cutoff / 2.0] * len(atoms), skin=0.0, self_interaction=False, bothways=True)
    nl.update(atoms)
    cn = np.array([len(nl.get_neighbors(i)[0]) for i in range(len(atoms))])
    return cn


def main(scn):
    el = str(scn["element"])
    a0 = float(reference_states[atomic_numbers[el]]["a"])
    atoms = SHAPES[str(scn["shape"])](el, a0)
    atoms.center(vacuum=6.0)
    atoms.pbc = False
    atoms.rattle(stdev=float(scn["rattle_stdev"]), seed=int(scn["seed"]))
    start = atoms.get_positions().copy()
    atoms.calc = EMT()
    energies = []
    opt = BFGS(atoms, maxstep=float(scn["maxstep"]), logfile=None, trajectory=None)
    steps = int(scn["steps"])
    for _ in opt.irun(fmax=1e-12, steps=steps):
        energies.append(float(atoms.get_potential_energy()))
    fnorm = np.linalg.norm(atoms.get_forces(), axis=1)
    pos = atoms.get_positions()
    disp = np.linalg.norm(pos - start, axis=1)

    nn_cut = float(scn["cn_cutoff_factor"]) * a0 / np.sqrt(2.0)
    cn = coordination(atoms, nn_cut)
    hist = np.bincount(cn, minlength=13)[:13]
    com = atoms.get_center_of_mass()
    radii = np.linalg.norm(pos - com, axis=1)
    return {
        "n_atoms": len(atoms),
        "energies_eV": energies,
        "energy_drop_eV": energies[0] - energies[-1],
        "final_max_force_eV_A": float(fnorm.max()),
        "rms_displacement_A": float(np.sqrt((disp ** 2).mean())),
        "max_displacement_A": float(disp.max()),
        "coordination_histogram": [int(x) for x in hist],
        "mean_coordination": float(cn.mean()),
        "radius_of_gyration_A": float(np.sqrt((radii ** 2).mean())),
        "max_radius_A": float(radii.max()),
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
