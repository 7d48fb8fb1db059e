"""Peptide model built from backbone torsions, analysed with biotite: SASA, P-SEA secondary structure, contacts."""

import json
import math
import random
import sys

import biotite.structure as struc
import numpy as np
from biotite.structure.io.pdb import PDBFile

AMINO_ACIDS = ("ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE",
               "LEU", "LYS", "MET", "PHE", "PRO", "SER", "THR", "TRP", "TYR", "VAL")
ONE_LETTER = dict(zip(AMINO_ACIDS, "ARNDCQEGHILKMFPSTWYV"))
BOND = {"N-CA": 1.458, "CA-C": 1.525, "C-N": 1.329, "C-O": 1.231}  # Angstrom
ANGLE = {"N-CA-C": 111.2, "CA-C-N": 116.2, "C-N-CA": 121.7, "CA-C-O": 120.5}  # degrees
HELIX, STRAND, PPII, TURN = (-57.0, -47.0), (-139.0, 135.0), (-75.0, 145.0), ((60.0, 30.0), (90.0, 0.0))
BACKBONE = ("N", "CA", "C", "O")


def torsions(fold: str, n: int) -> list[tuple[float, float]]:
    """(phi, psi) per residue for a fold pattern."""
    if fold == "alpha-helix":
        return [HELIX] * n
    if fold == "beta-strand":
        return [STRAND] * n
    if fold == "polyproline-ii":
        return [PPII] * n
    if fold == "beta-hairpin":
        k = (n - 2) // 2
        return [STRAND] * k + list(TURN) + [STRAND] * (n - k - 2)
    k = (n - 3) // 2  # helix-loop-helix
    return [HELIX] * k + [PPII] * 3 + [HELIX] * (n - k - 3)


def place(a: np.ndarray, b: np.ndarray, c: np.ndarray, bond: float, angle: float, torsion: float) -> np.ndarray:
    """NeRF: the atom d with |cd| = bond, angle bcd and dihedral abcd (degrees)."""
    bc = (c - b) / np.linalg.norm(c - b)
    n = np.cross(b - a, bc)
    n /= np.linalg.norm(n)
    m = np.cross(n, bc)
    th, ph = math.radians(angle), math.radians(torsion)
    d2 = np.array([-bond * math.cos(th), bond * math.sin(th) * math.cos(ph), bond * math.sin(th) * math.sin(ph)])
    return c + d2[0] * bc + d2[1] * m + d2[2] * n


def backbone(phipsi: list[tuple[float, float]]) -> np.ndarray:
    """N, CA, C, O coordinates per residue (trans peptide bonds, O anti to the next N)."""
    th = math.radians(ANGLE["N-CA-C"])
    n, ca = np.zeros(3), np.array([BOND["N-CA"], 0.0, 0.0])
    c = ca + BOND["CA-C"] * np.array([-math.cos(th), math.sin(th), 0.0])
    out = []
    for i, (_, psi) in enumerate(phipsi):
        n_next = place(n, ca, c, BOND["C-N"], ANGLE["CA-C-N"], psi)
        o = place(n_next, ca, c, BOND["C-O"], ANGLE["CA-C-O"], 180.0)
        out.append([n, ca, c, o])
        if i + 1 < len(phipsi):
            ca_next = place(ca, c, n_next, BOND["N-CA"], ANGLE["C-N-CA"], 180.0)
            c_next = place(c, n_next, ca_next, BOND["CA-C"], ANGLE["N-CA-C"], phipsi[i + 1][0])
            n, ca, c = n_next, ca_next, c_next
    return np.array(out)


def build(names: list[str], coords: np.ndarray, templates: struc.AtomArray) -> struc.AtomArray:
    """Each residue: its template fitted on the built N, CA, C (biotite superimpose), backbone set as built."""
    parts = []
    for i, (name, bb) in enumerate(zip(names, coords)):
        t = templates[templates.res_name == name].copy()
        core = np.array([np.flatnonzero(t.atom_name == a)[0] for a in ("N", "CA", "C")])
        _, transform = struc.superimpose(bb[:3], t.coord[core])
        t.coord = transform.apply(t.coord)
        for j, atom in enumerate(BACKBONE):
            t.coord[t.atom_name == atom] = bb[j]
        t.res_id[:] = i + 1
        parts.append(t)
    return struc.concatenate(parts)


def residue_contacts(atoms: struc.AtomArray, cutoff: float, n: int) -> list[list[int]]:
    """Residue pairs (i < j, j - i >= 3, 1-based) with any two heavy atoms within cutoff."""
    adj = struc.CellList(atoms, cell_size=cutoff).create_adjacency_matrix(cutoff)
    res = atoms.res_id - 1
    ii, jj = np.nonzero(adj)
    hit = np.zeros((n, n), dtype=bool)
    hit[res[ii], res[jj]] = True
    return [[i + 1, j + 1] for i in range(n) for j in range(i + 3, n) if hit[i, j]]


def main(scn: dict) -> dict:
    """One scenario in, the model's surface, secondary structure and contacts out."""
    rng = random.Random(int(scn["seed"]))
    n = int(scn["length"])
    names = rng.choices(AMINO_ACIDS, k=n)
    jitter = float(scn["jitter_deg"])
    phipsi = [(phi + rng.gauss(0.0, jitter), psi + rng.gauss(0.0, jitter)) for phi, psi in torsions(scn["fold"], n)]
    templates = PDBFile.read(str(scn["templates"])).get_structure(model=1)
    atoms = build(names, backbone(phipsi), templates)
    sasa = struc.sasa(atoms, probe_radius=float(scn["probe_radius"]), point_number=int(scn["sphere_points"]),
                      vdw_radii="Single")
    per_res = struc.apply_residue_wise(atoms, sasa, np.nansum)
    polar = np.isin(atoms.element, ("N", "O"))
    ca = atoms.coord[atoms.atom_name == "CA"]
    contacts = residue_contacts(atoms, float(scn["contact_cutoff"]), n)
    return {
        "sequence": "".join(ONE_LETTER[r] for r in names),
        "n_atoms": int(atoms.array_length()),
        "sse": "".join(struc.annotate_sse(atoms)),
        "sasa_total": float(np.nansum(sasa)),
        "sasa_polar_fraction": float(np.nansum(sasa[polar]) / np.nansum(sasa)),
        "sasa_per_residue": [float(v) for v in per_res],
        "gyration_radius": float(struc.gyration_radius(atoms)),
        "end_to_end_ca": float(np.linalg.norm(ca[-1] - ca[0])),
        "n_contacts": len(contacts),
        "contacts": contacts,
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
