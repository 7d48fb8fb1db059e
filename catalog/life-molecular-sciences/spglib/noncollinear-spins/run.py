"""Magnetic symmetry of non-collinear 120-degree spin arrangements on kagome and triangular lattices with spglib
(get_magnetic_symmetry with vector moments, axial or polar, with or without time reversal;
get_magnetic_spacegroup_type_from_symmetry), as a magnetism researcher classifies candidate q = 0 and sqrt(3) x
sqrt(3) orders of a frustrated magnet (Mn3Sn-like, jarosites) by their magnetic space group.

Entry workflow: main(dict) -> dict.
"""

import math
import tomllib
from pathlib import Path

import numpy as np
import spglib

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
C = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
SITES = {  # three magnetic sites of the hexagonal cell (fractional), in order
    "kagome": [[0.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.5, 0.5, 0.0]],
    "triangular_sqrt3": [[0.0, 0.0, 0.0], [1 / 3, 2 / 3, 0.0], [2 / 3, 1 / 3, 0.0]],
}


def main(scn):
    a, c = C["A_LENGTH"], C["C_LENGTH"]
    lattice = [[a, 0.0, 0.0], [-a / 2, a * math.sqrt(3) / 2, 0.0], [0.0, 0.0, c]]
    phi, chi, theta = float(scn["phi_deg"]), int(scn["chirality"]), math.radians(float(scn["canting_deg"]))
    spins = []
    for k in range(3):
        ang = math.radians(phi + chi * 120.0 * k)
        spins.append([math.cos(ang) * math.cos(theta), math.sin(ang) * math.cos(theta), math.sin(theta)])
    cell = (lattice, SITES[str(scn["lattice"])], [25, 25, 25], spins)
    sym = spglib.get_magnetic_symmetry(cell, symprec=1e-5, mag_symprec=1e-4, is_axial=bool(scn["is_axial"]),
                                       with_time_reversal=bool(scn["with_time_reversal"]))
    if sym is None:
        raise RuntimeError(spglib.get_error_message())
    t = spglib.get_magnetic_spacegroup_type_from_symmetry(sym["rotations"], sym["translations"],
                                                          sym["time_reversals"], lattice=lattice)
    rots = np.array(sym["rotations"])
    proper = sum(1 for r in rots if round(float(np.linalg.det(r))) == 1)
    net = np.sum(np.array(spins), axis=0)
    return {
        "spins": [[round(v, 12) + 0.0 for v in s] for s in spins],
        "net_moment": [round(float(v), 12) + 0.0 for v in net],
        "n_operations": len(rots),
        "n_time_reversed": int(sum(int(v) for v in sym["time_reversals"])),
        "n_proper_rotations": proper,
        "equivalent_atoms": [int(v) for v in sym["equivalent_atoms"]],
        "uni_number": int(t.uni_number) if t else 0,
        "bns_number": t.bns_number if t else "",
        "msg_type": int(t.type) if t else 0,
    }
