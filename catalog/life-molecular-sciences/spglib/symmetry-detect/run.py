"""Space-group detection with spglib on a perturbed, optionally supercelled crystal prototype."""

import json
import sys

import numpy as np
import spglib

from prototypes import build


def lattice_params(lat):
    lat = np.asarray(lat, dtype=float)
    a, b, c = (float(np.linalg.norm(v)) for v in lat)
    ang = lambda u, v: float(np.degrees(np.arccos(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v))))
    return {"a": a, "b": b, "c": c, "alpha": ang(lat[1], lat[2]), "beta": ang(lat[0], lat[2]),
            "gamma": ang(lat[0], lat[1])}


def main(scn):
    lat, pos, nums = build(str(scn["prototype"]), float(scn["a"]), float(scn["c_over_a"]))
    lat = np.array(lat, dtype=float)
    pos = np.array(pos, dtype=float)
    sc = [int(x) for x in scn["supercell"]]
    shifts = np.array([[i, j, k] for i in range(sc[0]) for j in range(sc[1]) for k in range(sc[2])], dtype=float)
    pos = ((pos[None, :, :] + shifts[:, None, :]) / np.array(sc, dtype=float)).reshape(-1, 3)
    nums = list(nums) * len(shifts)
    lat = lat * np.array(sc, dtype=float)[:, None]
    rng = np.random.default_rng(int(scn["seed"]))
    cart = pos @ lat + rng.normal(0.0, float(scn["displacement_stdev"]), size=pos.shape)
    pos = cart @ np.linalg.inv(lat)
    cell = (lat, pos, nums)
    symprec = float(scn["symprec"])

    ds = spglib.get_symmetry_dataset(cell, symprec=symprec)
    std = spglib.standardize_cell(cell, to_primitive=False, no_idealize=False, symprec=symprec)
    prim = spglib.standardize_cell(cell, to_primitive=True, no_idealize=False, symprec=symprec)
    wy = {}
    for w in ds.wyckoffs:
        wy[w] = wy.get(w, 0) + 1
    return {
        "n_atoms": len(nums),
        "space_group_number": int(ds.number),
        "international": str(ds.international),
        "hall_number": int(ds.hall_number),
        "point_group": str(ds.pointgroup),
        "n_operations": int(len(ds.rotations)),
        "n_equivalence_classes": int(len(set(int(x) for x in ds.equivalent_atoms))),
        "wyckoff_counts": [{"letter": k, "count": v} for k, v in sorted(wy.items())],
        "origin_shift_norm": float(np.linalg.norm(ds.origin_shift - np.round(ds.origin_shift))),
        "standard_n_atoms": int(len(std[2])),
        "standard_lattice": lattice_params(std[0]),
        "primitive_n_atoms": int(len(prim[2])),
        "primitive_volume_A3": float(abs(np.linalg.det(prim[0]))),
        "input_volume_A3": float(abs(np.linalg.det(lat))),
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
