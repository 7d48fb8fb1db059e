"""Fairing a mesher's boundary surface with Laplacian smoothing, as before rendering or re-meshing a noisy surface:
the triangle cells of a tetrahedral mesh file (read with meshio) are taken with only the points they use, each
point is moved towards the mean of its edge neighbours (umbrella operator, explicit steps, optionally Taubin's
shrink-free lambda/mu pair), and meshio writes the result as an OFF surface.

Entry workflow: main(dict) -> dict; the mesh file is read on every call, no module state is mutated. The OFF goes to
$SWR_ARTIFACTS, read on every call.
"""

import os

import meshio
import numpy as np

FORMATS = {".vtu": "vtu", ".vtk": "vtk", ".mesh": "medit"}  # named, never guessed


def neighbours(tris, n):
    """Sparse-free umbrella operator data: unique undirected edges (i, j) and each point's degree."""
    e = np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]])
    e = np.unique(np.sort(e, axis=1), axis=0)
    deg = np.bincount(e.ravel(), minlength=n).astype(np.float64)
    return e, deg


def umbrella(p, e, deg):
    """Mean of the edge neighbours minus the point, per point."""
    acc = np.zeros_like(p)
    np.add.at(acc, e[:, 0], p[e[:, 1]])
    np.add.at(acc, e[:, 1], p[e[:, 0]])
    return acc / deg[:, None] - p


def area_volume(p, tris):
    a, b, c = p[tris[:, 0]], p[tris[:, 1]], p[tris[:, 2]]
    cross = np.cross(b - a, c - a)
    return float(np.linalg.norm(cross, axis=1).sum() / 2.0), float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)


def main(s: dict) -> dict:
    path = str(s["mesh"])
    mesh = meshio.read(path, file_format=FORMATS[path[path.rfind("."):]])
    tris_all = np.concatenate([c.data for c in mesh.cells if c.type == "triangle"]).astype(np.int64)
    used, local = np.unique(tris_all, return_inverse=True)
    tris = local.reshape(-1, 3)
    p = np.asarray(mesh.points, dtype=np.float64)[used, :3] * float(s["scale"])
    e, deg = neighbours(tris, len(p))
    area0, vol0 = area_volume(p, tris)
    lam = float(s["lam"])
    mu = -(lam + float(s["taubin_gap"]) * lam) if bool(s["taubin"]) else None
    for _ in range(int(s["iterations"])):
        p = p + lam * umbrella(p, e, deg)
        if mu is not None:
            p = p + mu * umbrella(p, e, deg)
    area1, vol1 = area_volume(p, tris)
    name = "faired.off"
    meshio.write(os.path.join(os.environ["SWR_ARTIFACTS"], name), meshio.Mesh(p, [("triangle", tris)]),
                 file_format="off")
    return {
        "surface": name,
        "points": int(len(p)),
        "triangles": int(len(tris)),
        "area_ratio": area1 / area0,
        "volume_ratio": vol1 / vol0,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
