"""Structure of a thermally disordered fcc crystal in a periodic box with biotite.structure: radial distribution
function (struc.rdf with the box, periodic), coordination numbers from a periodic CellList, and minimum-image
nearest-neighbour distances (struc.distance with box)."""

import csv
import os
import random

import biotite.structure as struc
import numpy as np

R_MIN = 1.0  # Angstrom: leaves out each atom's distance to itself
FCC = ((0.0, 0.0, 0.0), (0.5, 0.5, 0.0), (0.5, 0.0, 0.5), (0.0, 0.5, 0.5))


def crystal(scn: dict) -> struc.AtomArray:
    rng = random.Random(int(scn["seed"]))
    a, cells, sigma = float(scn["lattice_constant"]), int(scn["cells"]), float(scn["displacement_sd"])
    coords = []
    for i in range(cells):
        for j in range(cells):
            for k in range(cells):
                for u, v, w in FCC:
                    coords.append([a * (i + u) + rng.gauss(0.0, sigma), a * (j + v) + rng.gauss(0.0, sigma),
                                   a * (k + w) + rng.gauss(0.0, sigma)])
    atoms = struc.AtomArray(len(coords))
    atoms.coord = np.array(coords)
    atoms.element[:] = "AR"
    atoms.atom_name[:] = "AR"
    atoms.res_name[:] = "AR"
    atoms.res_id = np.arange(1, len(coords) + 1)
    atoms.box = np.eye(3) * a * cells
    return atoms


def main(scn: dict) -> dict:
    atoms = crystal(scn)
    n, box = len(atoms), atoms.box
    r_max = float(scn["r_max_fraction"]) * float(box[0, 0]) / 2
    bins, g = struc.rdf(atoms.coord, atoms, interval=(R_MIN, r_max), bins=int(scn["bins"]), box=box, periodic=True)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "rdf.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["r_angstrom", "g"])
        w.writerows([float(r), float(v)] for r, v in zip(bins, g))
    cutoff = float(scn["shell_cutoff"])
    cells = struc.CellList(atoms, cell_size=cutoff, periodic=True, box=box)
    adj = cells.create_adjacency_matrix(cutoff)
    coordination = adj.sum(axis=1) - 1  # the atom itself is within the cutoff
    ii, jj = np.triu_indices(n, k=1)
    d = struc.distance(atoms.coord[ii], atoms.coord[jj], box=box)
    nearest = np.full(n, np.inf)
    np.minimum.at(nearest, ii, d)
    np.minimum.at(nearest, jj, d)
    return {
        "rdf_table": "rdf.csv",
        "n_atoms": n,
        "number_density": n / float(np.linalg.det(box)),
        "rdf_peak_r": float(bins[int(np.argmax(g))]),
        "rdf_peak_height": float(np.max(g)),
        "mean_coordination": float(coordination.mean()),
        "coordination_histogram": [int(np.sum(coordination == c)) for c in range(int(coordination.max()) + 1)],
        "mean_nearest_neighbor": float(np.mean(nearest)),
    }
