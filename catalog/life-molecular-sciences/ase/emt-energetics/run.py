"""EMT energetics with ASE: strained and rattled bulk supercell (energy, forces, stress) and a relaxed-free surface energy."""

import json
import sys
import tomllib
from pathlib import Path

import numpy as np
from ase.build import bulk, fcc100, fcc110, fcc111
from ase.calculators.emt import EMT
from ase.data import atomic_numbers, reference_states


# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

EV_A3_TO_GPA = CONSTANTS["EV_A3_TO_GPA"]
EV_A2_TO_J_M2 = CONSTANTS["EV_A2_TO_J_M2"]
SURFACES = {"fcc100": fcc100, "fcc110": fcc110, "fcc111": fcc111}


def main(scn):
    el = str(scn["element"])
    a0 = float(reference_states[atomic_numbers[el]]["a"])
    strain = float(scn["strain"])
    a = a0 * (1.0 + strain)
    rep = int(scn["repeat"])

    atoms = bulk(el, "fcc", a=a, cubic=True).repeat((rep, rep, rep))
    n_ideal = len(atoms)
    ideal = atoms.copy()
    ideal.calc = EMT()
    e_ideal = float(ideal.get_potential_energy())
    atoms.rattle(stdev=float(scn["rattle_stdev"]), seed=int(scn["seed"]))
    atoms.calc = EMT()
    e = float(atoms.get_potential_energy())
    f = atoms.get_forces()
    stress = atoms.get_stress(voigt=True) * EV_A3_TO_GPA
    fnorm = np.linalg.norm(f, axis=1)

    ref = bulk(el, "fcc", a=a0)
    ref.calc = EMT()
    e_ref = float(ref.get_potential_energy()) / len(ref)

    slab = SURFACES[str(scn["facet"])](el, size=(2, 2, int(scn["layers"])), a=a0,
                                        vacuum=float(scn["vacuum"]), periodic=True)
    slab.calc = EMT()
    e_slab = float(slab.get_potential_energy())
    cell = slab.get_cell()
    area = float(np.linalg.norm(np.cross(cell[0], cell[1])))
    gamma = (e_slab - len(slab) * e_ref) / (2.0 * area)
    return {
        "lattice_constant_A": a,
        "n_atoms": n_ideal,
        "volume_per_atom_A3": float(atoms.get_volume() / n_ideal),
        "energy_ideal_per_atom_eV": e_ideal / n_ideal,
        "energy_rattled_eV": e,
        "rattle_energy_penalty_eV": e - e_ideal,
        "max_force_eV_A": float(fnorm.max()),
        "rms_force_eV_A": float(np.sqrt((fnorm ** 2).mean())),
        "stress_voigt_GPa": [float(x) for x in stress],
        "pressure_GPa": float(-stress[:3].mean()),
        "slab": {
            "n_atoms": len(slab),
            "area_A2": area,
            "energy_eV": e_slab,
            "surface_energy_eV_A2": float(gamma),
            "surface_energy_J_m2": float(gamma * EV_A2_TO_J_M2),
        },
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
