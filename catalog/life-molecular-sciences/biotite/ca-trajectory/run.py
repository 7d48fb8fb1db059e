"""Trajectory analysis of a coarse-grained protein with biotite.structure: frames of a CA trace whose two halves
swing about a hinge torsion, with thermal noise, held as an AtomArrayStack, fitted onto the first frame
(superimpose), then per-frame RMSD (rmsd), per-residue fluctuation about the average structure (average, rmsf),
and the end-to-end distance and hinge torsion over time (index_distance, index_dihedral)."""

import math
import random

import biotite.structure as struc
import numpy as np

BOND = 3.8  # CA-CA distance, Angstrom


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


def frame_array(coords: np.ndarray) -> struc.AtomArray:
    atoms = struc.AtomArray(len(coords))
    atoms.coord = coords
    atoms.chain_id[:] = "A"
    atoms.res_id = np.arange(1, len(coords) + 1)
    atoms.res_name[:] = "ALA"
    atoms.atom_name[:] = "CA"
    atoms.element[:] = "C"
    return atoms


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    n, n_frames = int(scn["n_residues"]), int(scn["n_frames"])
    angles = [rng.uniform(85.0, 130.0) for _ in range(n)]
    torsions = [rng.uniform(-180.0, 180.0) for _ in range(n)]
    hinge = int(float(scn["hinge_fraction"]) * (n - 3)) + 3
    amplitude, noise = float(scn["hinge_amplitude_deg"]), float(scn["noise_sd"])
    frames = []
    for f in range(n_frames):
        t = list(torsions)
        t[hinge] += amplitude * math.sin(2 * math.pi * f / n_frames)
        coords = build(angles, t) + np.array([[rng.gauss(0.0, noise) for _ in range(3)] for _ in range(n)])
        frames.append(frame_array(coords))
    traj = struc.stack(frames)
    fitted, _ = struc.superimpose(traj[0], traj)
    mean = struc.average(fitted)
    return {
        "hinge_residue": hinge,
        "rmsd_to_first": [float(v) for v in struc.rmsd(fitted[0], fitted)],
        "rmsf": [float(v) for v in struc.rmsf(mean, fitted)],
        "end_to_end": [float(v) for v in struc.index_distance(traj, np.array([[0, n - 1]]))[:, 0]],
        "hinge_torsion_deg": [float(v) for v in
                              np.degrees(struc.index_dihedral(traj, np.array([[hinge - 3, hinge - 2, hinge - 1, hinge]]))[:, 0])],
    }
