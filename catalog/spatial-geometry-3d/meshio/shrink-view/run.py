"""An exploded ("shrink") view of a tetrahedral mesh for inspecting element shapes, as ParaView's Shrink filter
draws it: the tetra cells of a mesher's file are optionally restricted to those whose centroid lies on one side of a
plane (a crinkle clip), every cell is shrunk towards its centroid, and the four faces of each shrunk cell are written
by meshio's STL writer as one binary STL surface.

Entry workflow: main(dict) -> dict; the mesh file is read on every call, no module state is mutated. The STL goes to
$SWR_ARTIFACTS, read on every call.
"""

import os

import meshio
import numpy as np

FORMATS = {".msh": "gmsh", ".mesh": "medit", ".inp": "abaqus"}  # named, never guessed
FACES = ((0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3))  # outward for a positively oriented tetrahedron


def main(s: dict) -> dict:
    path = str(s["mesh"])
    mesh = meshio.read(path, file_format=FORMATS[path[path.rfind("."):]])
    pts = np.asarray(mesh.points, dtype=np.float64)[:, :3] * float(s["scale"])
    tets = np.concatenate([c.data for c in mesh.cells if c.type == "tetra"]).astype(np.int64)
    p = pts[tets]
    centroid = p.mean(axis=1)
    normal = np.asarray(s["clip_normal"], dtype=np.float64)
    normal = normal / np.linalg.norm(normal)
    mid = (pts.min(axis=0) + pts.max(axis=0)) / 2.0
    keep = (centroid - mid) @ normal <= float(s["clip_offset_frac"]) * float(np.ptp(pts @ normal))
    if not bool(s["clip"]):
        keep[:] = True
    factor = float(s["shrink"])
    q = centroid[keep, None, :] + factor * (p[keep] - centroid[keep, None, :])
    # orient each tetrahedron positively so that the face table points outwards
    det = np.einsum("ij,ij->i", q[:, 1] - q[:, 0], np.cross(q[:, 2] - q[:, 0], q[:, 3] - q[:, 0]))
    q[det < 0] = q[det < 0][:, [0, 2, 1, 3]]
    verts = q.reshape(-1, 3)
    base = 4 * np.arange(len(q))[:, None]
    tris = np.concatenate([base + np.asarray(f) for f in FACES], axis=1).reshape(-1, 3)
    name = "shrunk.stl"
    out = os.path.join(os.environ["SWR_ARTIFACTS"], name)
    meshio.write(out, meshio.Mesh(verts, [("triangle", tris)]), file_format="stl", binary=True)
    back = meshio.read(out, file_format="stl")  # the viewer's side: the STL read back, its triangles counted
    vol = np.abs(np.einsum("ij,ij->i", p[:, 1] - p[:, 0], np.cross(p[:, 2] - p[:, 0], p[:, 3] - p[:, 0]))) / 6.0
    return {
        "mesh": name,
        "cells_total": int(len(tets)),
        "cells_shown": int(keep.sum()),
        "triangles_read_back": int(sum(len(c.data) for c in back.cells if c.type == "triangle")),
        "shown_volume_fraction": float(vol[keep].sum() / vol.sum()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
