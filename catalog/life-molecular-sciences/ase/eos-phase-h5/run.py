"""Equation-of-state fits of competing crystal structures of a metal with ASE (ase.build.bulk, EMT,
ase.eos.EquationOfState), as a materials scientist compares phase stability and bulk moduli; the E(V) data and
fitted curves are written to HDF5.

Entry workflow: main(dict) -> dict; the HDF5 file goes to $SWR_ARTIFACTS.
"""

import math
import os

import h5py
import numpy as np
from ase.build import bulk
from ase.calculators.emt import EMT
from ase.data import atomic_numbers, reference_states
from ase.eos import EquationOfState
from ase.units import GPa


def lattice_constant(structure, v_atom):
    """Cubic a (or hcp a with ideal c/a) giving v_atom A^3 per atom."""
    if structure == "fcc":
        return (4.0 * v_atom) ** (1 / 3)
    if structure == "bcc":
        return (2.0 * v_atom) ** (1 / 3)
    if structure == "sc":
        return v_atom ** (1 / 3)
    return (math.sqrt(2.0) * v_atom) ** (1 / 3)


def scan(el, structure, v_atom, factors):
    """(volumes per atom, energies per atom) with the cell scaled isotropically to each volume factor."""
    a = lattice_constant(structure, v_atom)
    atoms = bulk(el, structure, a=a, c=a * math.sqrt(8.0 / 3.0)) if structure == "hcp" else bulk(el, structure, a=a)
    atoms.calc = EMT()
    cell0 = atoms.get_cell()
    vols, ens = [], []
    for f in factors:
        atoms.set_cell(cell0 * f ** (1 / 3), scale_atoms=True)
        vols.append(atoms.get_volume() / len(atoms))
        ens.append(atoms.get_potential_energy() / len(atoms))
    return np.array(vols), np.array(ens)


def main(scn):
    el = str(scn["element"])
    a0 = float(reference_states[atomic_numbers[el]]["a"])
    v_atom = a0 ** 3 / 4.0 * (1.0 + float(scn["volume_offset"]))
    r, n = float(scn["volume_range"]), int(scn["n_points"])
    factors = np.linspace(1.0 - r, 1.0 + r, n)
    kind = str(scn["eos"])
    results, path = {}, os.path.join(os.environ["SWR_ARTIFACTS"], "eos.h5")
    with h5py.File(path, "w") as h5:
        h5.attrs["element"] = el
        h5.attrs["eos"] = kind
        for structure in scn["structures"]:
            structure = str(structure)
            if structure in results:
                continue
            vols, ens = scan(el, structure, v_atom, factors)
            eos = EquationOfState(vols, ens, eos=kind)
            v0, e0, b = eos.fit()
            grp = h5.create_group(structure)
            for name, data, units in (("volume", vols, "Angstrom^3"), ("energy", ens, "eV")):
                grp.create_dataset(name, data=data).attrs["units"] = units
            grp.attrs["v0"], grp.attrs["e0"], grp.attrs["bulk_modulus_GPa"] = v0, e0, b / GPa
            results[structure] = {"v0_A3": float(v0), "e0_eV": float(e0), "bulk_modulus_GPa": float(b / GPa),
                                  "min_sampled_energy_eV": float(ens.min())}
    stable = min(results, key=lambda s: (results[s]["e0_eV"], s))
    for s in results:
        results[s]["energy_above_most_stable_eV"] = results[s]["e0_eV"] - results[stable]["e0_eV"]
    return {
        "structures": [{"structure": s, **results[s]} for s in results],
        "most_stable": stable,
        "data": "eos.h5",
    }
