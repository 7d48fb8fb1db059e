"""Geometry analysis of a small molecule from ASE's G2 collection (ase.build.molecule, Atoms.euler_rotate, Atoms.center,
ase.neighborlist natural_cutoffs / build_neighbor_list, Atoms.get_angle / get_moments_of_inertia /
get_center_of_mass), as a chemist tabulates the bonds, bond angles and inertia of a molecule before a calculation.

Entry workflow: main(dict) -> dict.
"""

from ase.build import molecule
from ase.neighborlist import build_neighbor_list, natural_cutoffs


def main(scn):
    atoms = molecule(str(scn["molecule"]))
    atoms.euler_rotate(phi=float(scn["phi_deg"]), theta=float(scn["theta_deg"]), psi=float(scn["psi_deg"]),
                       center="COM")
    atoms.center(vacuum=float(scn["vacuum_A"]))
    cutoffs = natural_cutoffs(atoms, mult=float(scn["cutoff_mult"]))
    nl = build_neighbor_list(atoms, cutoffs=cutoffs, self_interaction=False, bothways=True)
    bonds = sorted((i, int(j)) for i in range(len(atoms)) for j in nl.get_neighbors(i)[0] if i < j)
    angles = []
    for b in range(len(atoms)):
        nbrs = sorted(int(j) for j in nl.get_neighbors(b)[0])
        for x in range(len(nbrs)):
            for y in range(x + 1, len(nbrs)):
                angles.append({"atoms": [nbrs[x], b, nbrs[y]], "deg": float(atoms.get_angle(nbrs[x], b, nbrs[y]))})
    return {
        "formula": atoms.get_chemical_formula(),
        "n_atoms": len(atoms),
        "mass_amu": float(atoms.get_masses().sum()),
        "cell_lengths_A": [float(v) for v in atoms.cell.lengths()],
        "center_of_mass_A": [float(v) for v in atoms.get_center_of_mass()],
        "principal_moments_amu_A2": [float(v) for v in atoms.get_moments_of_inertia()],
        "bonds": [{"atoms": [i, j], "length_A": float(atoms.get_distance(i, j)),
                   "elements": [atoms[i].symbol, atoms[j].symbol]} for i, j in bonds],
        "angles": angles,
        "positions_A": [[float(v) for v in p] for p in atoms.positions],
    }
