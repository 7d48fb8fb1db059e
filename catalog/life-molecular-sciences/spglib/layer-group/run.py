"""Layer-group symmetry of two-dimensional materials with spglib (get_layergroup with the aperiodic direction along
c), as a 2D-materials physicist classifies a monolayer and checks which distortions (buckling, uniaxial strain, an
out-of-plane displaced atom) lower its symmetry.

Entry workflow: main(dict) -> dict.
"""

import math
import tomllib
from pathlib import Path

import spglib

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
C = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

# name -> (a in A, chalcogen height h in A); c is VACUUM_C_A. Layer-group symmetry does not depend on these lengths.
GEOMETRY = {"graphene": (C["A_GRAPHENE"], 0.0), "hBN": (C["A_HBN"], 0.0),
            "MoS2_2H": (C["A_MOS2_2H"], C["H_MOS2_2H"]), "MoS2_1T": (C["A_MOS2_1T"], C["H_MOS2_1T"])}
VACUUM_C_A = C["VACUUM_C_A"]
# name -> [(in-plane fractional a, b; z offset: ("b", k) k * buckling or ("h", k) k * chalcogen height; atomic number)]
MONOLAYERS = {
    "graphene": [(1 / 3, 2 / 3, ("b", 0.5), 6), (2 / 3, 1 / 3, ("b", -0.5), 6)],
    "hBN": [(1 / 3, 2 / 3, ("b", 0.5), 5), (2 / 3, 1 / 3, ("b", -0.5), 7)],
    "MoS2_2H": [(1 / 3, 2 / 3, ("h", 0.0), 42), (2 / 3, 1 / 3, ("h", 1.0), 16), (2 / 3, 1 / 3, ("h", -1.0), 16)],
    "MoS2_1T": [(0.0, 0.0, ("h", 0.0), 42), (1 / 3, 2 / 3, ("h", 1.0), 16), (2 / 3, 1 / 3, ("h", -1.0), 16)],
}


def main(scn):
    material = str(scn["material"])
    a, h = GEOMETRY[material]
    c = VACUUM_C_A
    height = {"b": float(scn["buckling_A"]), "h": h}
    strain = float(scn["strain_x"])
    n1, n2 = (int(v) for v in scn["supercell"])
    lattice = [[a * n1 * (1 + strain), 0.0, 0.0], [-a * n2 / 2 * (1 + strain), a * n2 * math.sqrt(3) / 2, 0.0],
               [0.0, 0.0, c]]
    pos, nums = [], []
    for i in range(n1):
        for j in range(n2):
            for fa, fb, (kind, k), z in MONOLAYERS[material]:
                pos.append([(fa + i) / n1, (fb + j) / n2, 0.5 + k * height[kind] / c])
                nums.append(z)
    if bool(scn["displace_first_atom"]):
        pos[0][2] += 0.05 / c
    ds = spglib.get_layergroup((lattice, pos, nums), aperiodic_dir=2, symprec=1e-4)
    if ds is None:
        raise RuntimeError(spglib.get_error_message())
    return {
        "n_atoms": len(pos),
        "layer_group_number": int(ds.number),
        "international": ds.international,
        "hall_symbol": ds.hall,
        "n_operations": int(len(ds.rotations)),
        "point_group": ds.pointgroup,
        "wyckoffs": list(ds.wyckoffs),
        "site_symmetry_symbols": list(ds.site_symmetry_symbols),
        "n_distinct_sites": len(set(int(v) for v in ds.equivalent_atoms)),
        "has_inversion": any(all(int(r[i][j]) == (-1 if i == j else 0) for i in range(3) for j in range(3))
                             for r in ds.rotations),
    }
