"""A coarse-grained protein (CA trace built from internal coordinates) analysed with biotite.structure: P-SEA
secondary structure (annotate_sse), radius of gyration, CA contacts (CellList), pseudo-torsions, and the RMSD of a
noisy, moved copy before and after Kabsch superposition (superimpose)."""

import math
import random

import biotite.structure as struc
import numpy as np

BOND = 3.8  # CA-CA distance, Angstrom
IDEAL = {"helix": (91.0, 50.0), "strand": (120.0, -170.0)}


def internal_coordinates(rng: random.Random, n: int, jitter: float, weights: list[float]) -> tuple[list, list, str]:
    """Per residue the angle and torsion (degrees) and the segment types drawn, segment by segment."""
    angles, torsions, kinds = [], [], ""
    while len(kinds) < n:
        kind = rng.choices(["helix", "strand", "coil"], weights=weights)[0]
        for _ in range(rng.randint(4, 12)):
            if kind == "coil":
                angles.append(rng.uniform(85.0, 130.0))
                torsions.append(rng.uniform(-180.0, 180.0))
            else:
                angles.append(IDEAL[kind][0])
                torsions.append(IDEAL[kind][1] + rng.gauss(0.0, jitter))
            kinds += kind[0]
    return angles[:n], torsions[:n], kinds[:n]


def build(angles: list[float], torsions: list[float]) -> np.ndarray:
    """NeRF: residue i >= 3 placed from i-3, i-2, i-1 with angle(i-2, i-1, i) and dihedral(i-3, i-2, i-1, i)."""
    t2 = math.radians(angles[2])
    pts = [np.zeros(3), np.array([BOND, 0.0, 0.0]), np.array([BOND - BOND * math.cos(t2), BOND * math.sin(t2), 0.0])]
    for i in range(3, len(angles)):
        a, b, c = pts[i - 3], pts[i - 2], pts[i - 1]
        theta, phi = math.radians(angles[i]), math.radians(torsions[i])
        bc = (c - b) / np.linalg.norm(c - b)
        nrm = np.cross(b - a, bc)
        nrm /= np.linalg.norm(nrm)
        d = np.array([-BOND * math.cos(theta), BOND * math.sin(theta) * math.cos(phi), BOND * math.sin(theta) * math.sin(phi)])
        pts.append(c + d[0] * bc + d[1] * np.cross(nrm, bc) + d[2] * nrm)
    return np.array(pts)


def chain(coords: np.ndarray) -> struc.AtomArray:
    atoms = struc.AtomArray(len(coords))
    atoms.coord = coords
    atoms.chain_id[:] = "A"
    atoms.res_id = np.arange(1, len(coords) + 1)
    atoms.res_name[:] = "ALA"
    atoms.atom_name[:] = "CA"
    atoms.element[:] = "C"
    atoms.hetero[:] = False
    return atoms


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    n = int(scn["n_residues"])
    weights = [float(scn["helix_weight"]), float(scn["strand_weight"]), 1.0]
    angles, torsions, kinds = internal_coordinates(rng, n, float(scn["torsion_jitter_deg"]), weights)
    fixed = chain(build(angles, torsions))
    q = np.array([rng.gauss(0.0, 1.0) for _ in range(4)])
    w, x, y, z = q / np.linalg.norm(q)
    rot = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    shift = np.array([rng.uniform(-20.0, 20.0) for _ in range(3)])
    noise = np.array([[rng.gauss(0.0, float(scn["noise_sd"])) for _ in range(3)] for _ in range(n)])
    mobile = fixed.copy()
    mobile.coord = fixed.coord @ rot.T + shift + noise
    fitted, _ = struc.superimpose(fixed, mobile)
    cutoff = float(scn["contact_cutoff"])
    adj = struc.CellList(fixed, cell_size=cutoff).create_adjacency_matrix(cutoff)
    i, j = np.nonzero(np.triu(adj, k=3))
    sse = "".join(struc.annotate_sse(fixed))
    quads = np.array([[k, k + 1, k + 2, k + 3] for k in range(n - 3)])
    return {
        "segments": kinds,
        "sse": sse,
        "helix_fraction": sse.count("a") / n,
        "strand_fraction": sse.count("b") / n,
        "gyration_radius": float(struc.gyration_radius(fixed)),
        "n_contacts": int(len(i)),
        "mean_contact_separation": float(np.mean(j - i)) if len(i) else 0.0,
        "pseudo_torsions_deg": [float(v) for v in np.degrees(struc.index_dihedral(fixed, quads))],
        "rmsd_before": float(struc.rmsd(fixed, mobile)),
        "rmsd_after": float(struc.rmsd(fixed, fitted)),
    }
