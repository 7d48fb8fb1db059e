"""Hydrostatic load on a submerged body for a boundary-element or structural solver: the outward-oriented boundary
triangles of a tetrahedral mesh read with meshio carry the fluid pressure at their centroids (exact for a pressure
linear in depth), whose integral is the buoyancy force; the skin with its pressure and areas is written in meshio's
HDF5 mesh format (hmf).

Entry workflow: main(dict) -> dict; the deck is read on every call, no module state is mutated.
"""

import os

import meshio
import numpy as np

FORMATS = {".post": "permas", ".xml": "dolfin-xml", ".ans": "ansys"}  # named, never guessed
AXES = {"x": 0, "y": 1, "z": 2}
GRAVITY = 9.81  # m/s^2
# the outward faces of a positively oriented tetrahedron (p0, p1, p2, p3), in this order
FACES = np.array([[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]])


def main(s: dict) -> dict:
    path = str(s["mesh"])
    mesh = meshio.read(path, file_format=FORMATS[path[path.rfind("."):]])
    pts = np.asarray(mesh.points, dtype=np.float64)[:, :3] * float(s["scale_m"])
    tets = np.concatenate([c.data for c in mesh.cells if c.type == "tetra"]).astype(np.int64)
    p = pts[tets]
    det = np.einsum("ij,ij->i", p[:, 1] - p[:, 0], np.cross(p[:, 2] - p[:, 0], p[:, 3] - p[:, 0]))
    tets[det < 0] = tets[det < 0][:, [0, 1, 3, 2]]

    faces = tets[:, FACES].reshape(-1, 3)  # tet by tet, faces in FACES order
    _, first, counts = np.unique(np.sort(faces, axis=1), axis=0, return_index=True, return_counts=True)
    tris = faces[np.sort(first[counts == 1])]
    used = np.unique(tris)
    skin_pts = pts[used]
    tris = np.searchsorted(used, tris)

    a, b, c = skin_pts[tris[:, 0]], skin_pts[tris[:, 1]], skin_pts[tris[:, 2]]
    cross = np.cross(b - a, c - a)
    area = 0.5 * np.linalg.norm(cross, axis=1)
    k = AXES[str(s["up_axis"])]
    lo, hi = pts[:, k].min(), pts[:, k].max()
    level = lo + float(s["waterline_frac"]) * (hi - lo)
    depth = np.maximum(level - (a[:, k] + b[:, k] + c[:, k]) / 3.0, 0.0)
    pressure = float(s["density_kg_m3"]) * GRAVITY * depth
    force = -(pressure[:, None] * 0.5 * cross).sum(axis=0)  # -p n A with n A = cross/2 outward

    cell_data = {"pressure": [pressure], "area": [area]}
    point_data = {}
    if bool(s["with_normals"]):
        normals = np.zeros_like(skin_pts)
        for j in range(3):
            np.add.at(normals, tris[:, j], 0.5 * cross)
        point_data["normal"] = normals / np.linalg.norm(normals, axis=1)[:, None]
    out = meshio.Mesh(skin_pts, [("triangle", tris)], point_data=point_data, cell_data=cell_data)
    meshio.write(os.path.join(os.environ["SWR_ARTIFACTS"], "skin.h5"), out, file_format="hmf")
    return {
        "skin": "skin.h5",
        "n_triangles": int(len(tris)),
        "buoyancy_n": float(force[k]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
