"""Discrete curvature of a triangulated surface with trimesh.curvature, as one checks a scanned or designed surface:
the Euler number, and the integrated Gaussian and mean curvature inside balls around probe points
(trimesh.curvature.discrete_gaussian_curvature_measure and discrete_mean_curvature_measure) on an ellipsoid or a
torus, with the dihedral angles between adjacent faces (Trimesh.face_adjacency_angles).

Entry workflow: main() builds new meshes per call and never mutates module state.
"""

import math

import numpy as np
import trimesh
from trimesh import curvature


def surface(shape, a, b, c, detail):
    if shape == "ellipsoid":
        mesh = trimesh.creation.icosphere(subdivisions=detail, radius=1.0)
        return trimesh.Trimesh(vertices=mesh.vertices * np.array([a, b, c]), faces=mesh.faces, process=False)
    return trimesh.creation.torus(major_radius=a, minor_radius=min(c, 0.9 * a), major_sections=8 * detail + 8,
                                  minor_sections=4 * detail + 8)


def main(scenario: dict) -> dict:
    a, b, c = (float(v) for v in scenario["dims"])
    mesh = surface(str(scenario["shape"]), a, b, c, int(scenario["detail"]))
    radius = float(scenario["ball_frac"]) * float(np.ptp(mesh.bounds, axis=0).max())
    # probes: the surface points nearest to far points in the equatorial plane at the given azimuths
    az = [math.radians(float(v)) for v in scenario["probe_azimuths_deg"]]
    far = 10.0 * float(np.ptp(mesh.bounds, axis=0).max())
    targets = np.array([[far * math.cos(t), far * math.sin(t), 0.0] for t in az])
    probes, _, _ = trimesh.proximity.closest_point(mesh, targets)
    gauss = curvature.discrete_gaussian_curvature_measure(mesh, probes, radius)
    mean = curvature.discrete_mean_curvature_measure(mesh, probes, radius)
    angles = np.asarray(mesh.face_adjacency_angles, dtype=np.float64)
    return {
        "vertices": int(len(mesh.vertices)),
        "euler_number": int(mesh.euler_number),
        "gaussian_measure": [float(v) for v in gauss],
        "mean_measure": [float(v) for v in mean],
        "max_dihedral_deg": float(np.degrees(angles.max())),
        "mean_dihedral_deg": float(np.degrees(angles.mean())),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
