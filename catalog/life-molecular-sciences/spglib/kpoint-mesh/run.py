"""Primitive cell and irreducible Monkhorst-Pack k-point mesh of a crystal prototype with spglib."""

import json
import math
import sys

import numpy as np
import spglib

from prototypes import build


def main(scn):
    lat, pos, nums = build(str(scn["prototype"]), float(scn["a"]), float(scn["c_over_a"]))
    cell = (np.array(lat, dtype=float), np.array(pos, dtype=float), list(nums))
    symprec = 1e-5
    prim_lat, prim_pos, prim_nums = spglib.standardize_cell(cell, to_primitive=True, no_idealize=False,
                                                            symprec=symprec)
    prim = (prim_lat, prim_pos, prim_nums)
    recip = 2.0 * math.pi * np.linalg.inv(prim_lat).T  # rows b_i, b_i . a_j = 2 pi delta_ij
    blen = np.linalg.norm(recip, axis=1)
    kspacing = float(scn["kspacing"])
    mesh = [max(1, int(math.ceil(float(b) / kspacing - 1e-9))) for b in blen]
    shift = [1, 1, 1] if str(scn["shift"]) == "half" else [0, 0, 0]
    trev = bool(scn["time_reversal"])
    mapping, grid = spglib.get_ir_reciprocal_mesh(mesh, prim, is_shift=shift, is_time_reversal=trev,
                                                  symprec=symprec)
    ir, counts = np.unique(mapping, return_counts=True)
    frac = (grid[ir] + 0.5 * np.array(shift)) / np.array(mesh, dtype=float)
    kcart = frac @ recip
    kabs = np.linalg.norm(kcart, axis=1)
    n_total = int(np.prod(mesh))
    rot = spglib.get_symmetry(prim, symprec=symprec)["rotations"]
    wmult = {}
    for c in counts:
        wmult[str(int(c))] = wmult.get(str(int(c)), 0) + 1
    first = [{"index": int(i), "frac": [float(x) for x in f], "weight": int(c), "k_abs_inv_A": float(k)}
             for i, f, c, k in list(zip(ir, frac, counts, kabs))[:8]]
    return {
        "primitive_n_atoms": int(len(prim_nums)),
        "primitive_volume_A3": float(abs(np.linalg.det(prim_lat))),
        "n_point_operations": int(len({r.tobytes() for r in rot})),
        "reciprocal_lengths_inv_A": [float(b) for b in blen],
        "mesh": mesh,
        "n_kpoints_total": n_total,
        "n_irreducible": int(len(ir)),
        "weight_multiplicities": [{"weight": int(w), "count": n}
                                  for w, n in sorted(wmult.items(), key=lambda kv: int(kv[0]))],
        "weighted_mean_k_abs_inv_A": float((counts * kabs).sum() / n_total),
        "max_ir_k_abs_inv_A": float(kabs.max()),
        "first_irreducible": first,
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
