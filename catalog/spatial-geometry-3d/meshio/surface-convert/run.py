"""Format conversion with meshio: a tetrahedral volume mesh from a mesher's or solver's file (Gmsh, VTU, VTK,
Medit, Abaqus) is placed by a scale, a rotation and a translation, its skin (the triangles bounding exactly one
tetrahedron, wound outward) is extracted, and the skin is written as a binary PLY surface for viewing or printing.

Entry workflow: main(dict) -> dict; the mesh is read on every call, the PLY goes to $SWR_ARTIFACTS, and no
module state is mutated.
"""

import math
import os
import re

import meshio
import numpy as np

FORMATS = {".msh": "gmsh", ".vtu": "vtu", ".vtk": "vtk", ".mesh": "medit", ".inp": "abaqus"}  # named, never guessed
FACES = ((1, 2, 3), (0, 3, 2), (0, 1, 3), (0, 2, 1))  # face k is opposite vertex k


def placed(points: np.ndarray, s: dict) -> np.ndarray:
    """Scale per axis, then rotate about z by rotation_z_deg (counter-clockwise seen from +z), then translate."""
    a = math.radians(float(s["rotation_z_deg"]))
    rot = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]])
    scaled = points * np.asarray(s["scale_xyz"], dtype=np.float64)
    return scaled @ rot.T + np.asarray(s["offset_xyz"], dtype=np.float64)


def skin(points: np.ndarray, tets: np.ndarray) -> np.ndarray:
    """Faces used by one tetrahedron only, each wound so its normal points away from the opposite vertex."""
    faces = np.concatenate([tets[:, list(f)] for f in FACES])
    opposite = np.concatenate([tets[:, k] for k in range(4)])
    key = np.sort(faces, axis=1)
    _, first, counts = np.unique(key, axis=0, return_index=True, return_counts=True)
    keep = np.sort(first[counts == 1])
    faces, opposite = faces[keep], opposite[keep]
    p = points[faces]
    normal = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    inward = np.einsum("ij,ij->i", normal, points[opposite] - p[:, 0]) > 0
    faces[inward] = faces[inward][:, ::-1]
    return faces


def drop_timestamp(path: str) -> None:
    """meshio stamps the PLY header's comment with the time of writing; the same mesh must give the same bytes."""
    with open(path, "rb") as fh:
        data = fh.read()
    end = data.index(b"end_header\n")
    head = re.sub(rb"(comment Created by meshio v[^,\n]*), [^\n]*", rb"\1", data[:end])
    with open(path, "wb") as fh:
        fh.write(head + data[end:])


def main(s: dict) -> dict:
    path = str(s["mesh"])
    mesh = meshio.read(path, file_format=FORMATS[path[path.rfind("."):]])
    pts = placed(np.asarray(mesh.points, dtype=np.float64)[:, :3], s)
    tets = np.concatenate([c.data for c in mesh.cells if c.type == "tetra"]).astype(np.int64)
    faces = skin(pts, tets)
    used, inverse = np.unique(faces, return_inverse=True)
    surface = meshio.Mesh(pts[used], [("triangle", inverse.reshape(-1, 3).astype(np.int32))])
    name = "skin.ply"
    out = os.path.join(os.environ["SWR_ARTIFACTS"], name)
    meshio.write(out, surface, file_format="ply", binary=True)
    drop_timestamp(out)
    return {
        "surface": name,
        "n_tetra": int(len(tets)),
        "n_skin_triangles": int(len(faces)),
        "n_skin_points": int(len(used)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
