"""Magnetic space group of a collinear spin arrangement with spglib (get_magnetic_symmetry_dataset,
get_magnetic_spacegroup_type), as a neutron diffractionist classifies candidate orderings of a magnetic crystal
(ferro-, A-, C-, G-type antiferromagnets, ...) by their Shubnikov group.

Entry workflow: main(dict) -> dict.
"""

import itertools

import numpy as np
import spglib

X_RUTILE = 0.305
# (name -> (a in A, c/a, [(fractional position in the conventional cell, atomic number, magnetic?)]))
STRUCTURES = {
    "bcc_Fe": (2.87, 1.0, [((0, 0, 0), 26, True), ((0.5, 0.5, 0.5), 26, True)]),
    "rocksalt_NiO": (4.17, 1.0, [(p, 28, True) for p in ((0, 0, 0), (0, 0.5, 0.5), (0.5, 0, 0.5), (0.5, 0.5, 0))]
                     + [(p, 8, False) for p in ((0.5, 0, 0), (0, 0.5, 0), (0, 0, 0.5), (0.5, 0.5, 0.5))]),
    "perovskite_LaMnO3": (3.95, 1.0, [((0, 0, 0), 57, False), ((0.5, 0.5, 0.5), 25, True), ((0.5, 0.5, 0), 8, False),
                                ((0.5, 0, 0.5), 8, False), ((0, 0.5, 0.5), 8, False)]),
    "rutile_MnF2": (4.87, 0.68, [((0, 0, 0), 25, True), ((0.5, 0.5, 0.5), 25, True),
                           ((X_RUTILE, X_RUTILE, 0), 9, False), ((-X_RUTILE % 1, -X_RUTILE % 1, 0), 9, False),
                           ((0.5 + X_RUTILE, 0.5 - X_RUTILE, 0.5), 9, False),
                           ((0.5 - X_RUTILE, 0.5 + X_RUTILE, 0.5), 9, False)]),
}


def moment_sign(k_half, r):
    """cos(2 pi k.R) for k in half-integers and R in half-integers (conventional units), exactly: m = 4 k.R is an
    integer; +1 when m = 0 mod 4, -1 when m = 2 mod 4, 0 (a node) when m is odd."""
    m = sum(int(kh) * int(round(2 * x)) for kh, x in zip(k_half, r))  # (2k).(2R) = 4 k.R
    return {0: 1.0, 2: -1.0}.get(m % 4, 0.0)


def main(scn):
    a, c_over_a, basis = STRUCTURES[str(scn["structure"])]
    reps = [int(v) for v in scn["supercell"]]
    k_half = [int(v) for v in scn["k_times_2"]]
    lattice = np.diag([a * reps[0], a * reps[1], a * c_over_a * reps[2]])
    pos, nums, mags = [], [], []
    for n in itertools.product(*(range(r) for r in reps)):
        for p, z, magnetic in basis:
            r = [n[i] + p[i] for i in range(3)]
            pos.append([r[i] / reps[i] for i in range(3)])
            nums.append(z)
            mags.append(moment_sign(k_half, r) if magnetic else None)
    flip = int(scn["flip_site"])
    magnetic_idx = [i for i, m in enumerate(mags) if m is not None]
    if flip:
        mags[magnetic_idx[(flip - 1) % len(magnetic_idx)]] *= -1.0
    mu = float(scn["moment_muB"])
    signs = [0.0 if m is None else m for m in mags]
    mags = [mu * m for m in signs]
    ds = spglib.get_magnetic_symmetry_dataset((lattice, pos, nums, mags), symprec=1e-5, mag_symprec=1e-3)
    if ds is None:
        raise RuntimeError(spglib.get_error_message())
    t = spglib.get_magnetic_spacegroup_type(ds.uni_number)
    tr = [int(v) for v in ds.time_reversals]
    return {
        "n_atoms": len(pos),
        "n_magnetic_up": sum(1 for m in mags if m > 0),
        "n_magnetic_down": sum(1 for m in mags if m < 0),
        "net_moment_muB": mu * (sum(1 for m in signs if m > 0) - sum(1 for m in signs if m < 0)),
        "total_abs_moment_muB": mu * sum(1 for m in signs if m != 0),
        "uni_number": int(ds.uni_number),
        "msg_type": int(ds.msg_type),
        "bns_number": t.bns_number,
        "og_number": t.og_number,
        "litvin_number": int(t.litvin_number),
        "family_space_group": int(t.number),
        "hall_number": int(ds.hall_number),
        "n_operations": int(ds.n_operations),
        "n_time_reversed_operations": sum(tr),
        "n_distinct_atoms": len(set(int(v) for v in ds.equivalent_atoms)),
        "n_std_atoms": int(ds.n_std_atoms),
    }
