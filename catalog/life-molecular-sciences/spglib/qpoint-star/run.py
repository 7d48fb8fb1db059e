"""Star and little group of a phonon wave vector on a reciprocal grid with spglib (get_symmetry,
get_grid_point_from_address, get_grid_points_by_rotations, get_stabilized_reciprocal_mesh, relocate_BZ_grid_address),
as a lattice-dynamics code reduces a q-point mesh by the symmetry that keeps q fixed.

Entry workflow: main(dict) -> dict.
"""

import math

import numpy as np
import spglib

X_RUTILE = 0.305
U_WURTZITE = 0.375
A_LENGTH = 4.0  # A; every output is invariant under a uniform scale of the lattice


def crystal(name, a, c_over_a):
    """(lattice rows, fractional positions, atomic numbers); fcc and bcc as primitive cells."""
    c = a * c_over_a
    hexagonal = [[a, 0.0, 0.0], [-a / 2, a * math.sqrt(3) / 2, 0.0], [0.0, 0.0, c]]
    if name == "fcc_Cu":
        return [[0, a / 2, a / 2], [a / 2, 0, a / 2], [a / 2, a / 2, 0]], [[0, 0, 0]], [29]
    if name == "bcc_Fe":
        return [[-a / 2, a / 2, a / 2], [a / 2, -a / 2, a / 2], [a / 2, a / 2, -a / 2]], [[0, 0, 0]], [26]
    if name == "hcp_Mg":
        return hexagonal, [[1 / 3, 2 / 3, 1 / 4], [2 / 3, 1 / 3, 3 / 4]], [12, 12]
    if name == "wurtzite_ZnO":
        return hexagonal, [[1 / 3, 2 / 3, 0], [2 / 3, 1 / 3, 1 / 2], [1 / 3, 2 / 3, U_WURTZITE],
                           [2 / 3, 1 / 3, 1 / 2 + U_WURTZITE]], [30, 30, 8, 8]
    x = X_RUTILE
    return ([[a, 0, 0], [0, a, 0], [0, 0, c]],
            [[0, 0, 0], [0.5, 0.5, 0.5], [x, x, 0], [1 - x, 1 - x, 0], [0.5 + x, 0.5 - x, 0.5], [0.5 - x, 0.5 + x, 0.5]],
            [22, 22, 8, 8, 8, 8])


def main(scn):
    lattice, positions, numbers = crystal(str(scn["crystal"]), A_LENGTH, float(scn["c_over_a"]))
    rotations = np.array(spglib.get_symmetry((lattice, positions, numbers), symprec=1e-5)["rotations"])
    unique = np.array(sorted({tuple(r.ravel()) for r in rotations}), dtype="intc").reshape(-1, 3, 3)
    trev = bool(scn["time_reversal"])
    recip = [r.T for r in unique] + ([-r.T for r in unique] if trev else [])
    recip = np.array(sorted({tuple(r.ravel()) for r in recip}), dtype="intc").reshape(-1, 3, 3)
    mesh = np.array([int(v) for v in scn["mesh"]], dtype="intc")
    address = np.array([int(v) % int(m) for v, m in zip(scn["q_address"], mesh)], dtype="intc")
    q = (address / mesh).tolist()
    gp = int(spglib.get_grid_point_from_address(address, mesh))
    images = [int(v) for v in spglib.get_grid_points_by_rotations(address, recip, mesh)]
    star = sorted(set(images))
    mapping, grid = spglib.get_stabilized_reciprocal_mesh(mesh, unique, is_shift=[0, 0, 0],
                                                          is_time_reversal=trev, qpoints=[q])
    irr, counts = np.unique(mapping, return_counts=True)
    rec_lat = np.linalg.inv(np.array(lattice, dtype=float)).T
    bz_grid, bz_map = spglib.relocate_BZ_grid_address(grid, mesh, rec_lat, is_shift=[0, 0, 0])
    q_bz = [int(v) for v in bz_grid[gp]]  # the first prod(mesh) entries are the grid points' shortest images
    q_len = float(np.linalg.norm(rec_lat.T @ (np.array(q_bz) / mesh)))
    return {
        "n_rotations": len(unique),
        "n_reciprocal_operations": len(recip),
        "q_fractional": q,
        "q_grid_point": gp,
        "star_grid_points": star,
        "star_size": len(star),
        "little_group_order": images.count(gp),
        "n_grid_points": int(np.prod(mesh)),
        "n_irreducible_under_little_group": len(irr),
        "irreducible_weights_descending": sorted((int(c) for c in counts), reverse=True),
        "n_bz_grid_addresses": int(len(bz_grid)),
        "q_bz_address": q_bz,
        "q_length_inv_A": q_len,
    }
