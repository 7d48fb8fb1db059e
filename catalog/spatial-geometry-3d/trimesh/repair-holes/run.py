"""Repairing a damaged scan-like surface with trimesh.repair, as before 3D printing or volume meshing: an ellipsoid
(a scaled icosphere) loses a deterministic set of triangles (holes) and has the winding of another set flipped;
trimesh.repair.fix_winding makes the winding consistent, fix_inversion turns the normals outwards, fill_holes closes
the small holes, and the repaired surface is written as a binary PLY with its watertightness and volume.

Entry workflow: main() builds new meshes per call and never mutates module state. The PLY goes to $SWR_ARTIFACTS,
read on every call.
"""

import os

import numpy as np
import trimesh
from trimesh import repair


def damaged(subdivisions, axes, stride, phase, flip_x):
    sphere = trimesh.creation.icosphere(subdivisions=subdivisions, radius=1.0)
    verts = sphere.vertices * np.asarray(axes, dtype=np.float64)
    faces = sphere.faces.copy()
    idx = np.arange(len(faces))
    centroid_x = verts[faces].mean(axis=1)[:, 0]
    flip = centroid_x > flip_x * axes[0]
    faces[flip] = faces[flip][:, ::-1]
    keep = (idx % stride) != phase
    return trimesh.Trimesh(vertices=verts, faces=faces[keep], process=False), int((~keep).sum()), int(flip.sum())


def main(scenario: dict) -> dict:
    axes = [float(v) for v in scenario["semi_axes"]]
    mesh, removed, flipped = damaged(int(scenario["subdivisions"]), axes, int(scenario["stride"]),
                                     int(scenario["phase"]) % int(scenario["stride"]), float(scenario["flip_x"]))
    if bool(scenario["invert"]):
        mesh.invert()
    repair.fix_winding(mesh)
    repair.fix_inversion(mesh)
    filled = bool(repair.fill_holes(mesh))
    name = "repaired.ply"
    mesh.export(os.path.join(os.environ["SWR_ARTIFACTS"], name), file_type="ply", encoding="binary")
    return {
        "mesh": name,
        "removed_faces": removed,
        "flipped_faces": flipped,
        "fully_filled": filled,
        "faces_after": int(len(mesh.faces)),
        "winding_consistent": bool(mesh.is_winding_consistent),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
