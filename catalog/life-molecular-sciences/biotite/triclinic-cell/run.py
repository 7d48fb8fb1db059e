"""Crystallographic cell handling with biotite.structure's box functions: a triclinic cell from its parameters
(vectors_from_unitcell), atoms placed by fractional coordinates (fraction_to_coord), wrapped into the cell
(move_inside_box, coord_to_fraction), a supercell (repeat_box), minimum-image distances in the skewed box, and the
cell parameters read back (unitcell_from_vectors, box_volume)."""

import math
import random

import biotite.structure as struc
import numpy as np


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    a, b, c = float(scn["a"]), float(scn["b"]), float(scn["c"])
    alpha, beta, gamma = (math.radians(float(scn[k])) for k in ("alpha_deg", "beta_deg", "gamma_deg"))
    box = struc.vectors_from_unitcell(a, b, c, alpha, beta, gamma)
    n = int(scn["n_atoms"])
    frac = np.array([[rng.uniform(-0.5, 1.5) for _ in range(3)] for _ in range(n)])
    atoms = struc.AtomArray(n)
    atoms.coord = struc.fraction_to_coord(frac, box)
    atoms.element[:] = "C"
    atoms.res_id = np.arange(1, n + 1)
    atoms.box = box
    atoms.coord = struc.move_inside_box(atoms.coord, box)
    wrapped = struc.coord_to_fraction(atoms.coord, box)
    k = int(scn["repeat"])
    supercell, _ = struc.repeat_box(atoms, amount=k)
    pairs = np.array([[i, j] for i in range(n) for j in range(i + 1, n)])
    periodic = struc.index_distance(atoms, pairs, periodic=True) if len(pairs) else np.zeros(0)
    direct = struc.index_distance(atoms, pairs) if len(pairs) else np.zeros(0)
    params = struc.unitcell_from_vectors(box)
    return {
        "box_vectors": [[float(v) for v in row] for row in box],
        "cell_volume": float(struc.box_volume(box)),
        "wrapped_fractions": [[float(v) for v in row] for row in wrapped],
        "supercell_atoms": int(len(supercell)),
        "supercell_extent": [float(v) for v in supercell.coord.max(axis=0) - supercell.coord.min(axis=0)],
        "cell_parameters_roundtrip": {"a": float(params[0]), "b": float(params[1]), "c": float(params[2]),
                                 "alpha_deg": math.degrees(float(params[3])), "beta_deg": math.degrees(float(params[4])),
                                 "gamma_deg": math.degrees(float(params[5]))},
        "min_image_distances": [float(v) for v in periodic],
        "n_pairs_shortened": int(np.sum(periodic < direct - 1e-3)),
    }
