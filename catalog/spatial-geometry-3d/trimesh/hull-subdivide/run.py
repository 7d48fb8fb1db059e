"""Convex hull of a deterministic superellipsoid point cloud, Loop-subdivided and Taubin-smoothed
with trimesh, written as a binary STL artifact.

Entry workflow: main() builds new arrays/meshes per call and never mutates module state. The STL
goes to $SWR_ARTIFACTS, read on every call.
"""

import math
import os

import numpy as np
import trimesh
from trimesh import remesh, smoothing

GOLDEN = math.pi * (3.0 - math.sqrt(5.0))


def signed_pow(x, p):
    return np.sign(x) * np.abs(x) ** p


def cloud(n, axes, exponent, twist, bumps, bump_amp):
    """Fibonacci-sphere directions mapped onto a superellipsoid with a radial bump pattern."""
    i = np.arange(n, dtype=np.float64)
    z = 1.0 - 2.0 * (i + 0.5) / n
    rho = np.sqrt(1.0 - z * z)
    phi = i * GOLDEN + twist
    x, y = rho * np.cos(phi), rho * np.sin(phi)
    e = 2.0 / exponent
    pts = np.column_stack([signed_pow(x, e), signed_pow(y, e), signed_pow(z, e)])
    radial = 1.0 + bump_amp * np.sin(bumps * phi) * rho
    return pts * np.asarray(axes, dtype=np.float64) * radial[:, None]


def main(scenario: dict) -> dict:
    n = int(scenario["n_points"])
    axes = [float(v) for v in scenario["semi_axes"]]
    exponent = float(scenario["exponent"])
    twist = math.radians(float(scenario["twist_deg"]))
    bumps = int(scenario["bumps"])
    bump_amp = float(scenario["bump_amplitude"])
    iters = int(scenario["subdivisions"])
    smooth_iters = int(scenario["taubin_iterations"])

    pts = cloud(n, axes, exponent, twist, bumps, bump_amp)
    hull = trimesh.convex.convex_hull(pts)
    on_hull = int(len(hull.vertices))
    verts, faces = remesh.subdivide_loop(hull.vertices, hull.faces, iterations=iters)
    mesh = trimesh.Trimesh(vertices=verts, faces=faces, process=False)
    smoothing.filter_taubin(mesh, lamb=0.5, nu=0.53, iterations=smooth_iters)

    out_dir = os.environ["SWR_ARTIFACTS"]
    name = "hull.stl"
    mesh.export(os.path.join(out_dir, name), file_type="stl")
    return {
        "mesh": name,
        "hull_vertices": on_hull,
        "interior_points": int(n - on_hull),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
