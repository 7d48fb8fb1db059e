"""Fixture planning on a set of machined parts: trimesh's mesh graph finds the separate bodies (Trimesh.split), the
planar faces (Trimesh.facets: groups of coplanar adjacent triangles) that can serve as datum or clamping faces,
and the sharp (feature) edges from the dihedral angles between adjacent triangles (face_adjacency_angles); the
large planar faces are exported as a binary STL.

Entry workflow: main() builds new meshes per call and never mutates module state. The STL goes to $SWR_ARTIFACTS.
"""

import math
import os

import numpy as np
import trimesh


def parts(s: dict) -> trimesh.Trimesh:
    """A box at the origin, a cylinder beside it along +x and, if with_cone, a cone beside it along +y."""
    ex, ey, ez = (float(v) for v in s["box_extents"])
    r, h, n, gap = float(s["radius"]), float(s["height"]), int(s["sections"]), float(s["gap"])
    meshes = [trimesh.creation.box(extents=(ex, ey, ez))]
    cyl = trimesh.creation.cylinder(radius=r, height=h, sections=n)
    cyl.apply_translation((ex / 2 + gap + r, 0.0, 0.0))
    meshes.append(cyl)
    if bool(s["with_cone"]):
        cone = trimesh.creation.cone(radius=r, height=h, sections=n)
        cone.apply_translation((0.0, ey / 2 + gap + r, 0.0))
        meshes.append(cone)
    return trimesh.util.concatenate(meshes)


def main(s: dict) -> dict:
    mesh = parts(s)
    bodies = mesh.split(only_watertight=False)
    facets = mesh.facets
    areas = mesh.facets_area
    keep = areas >= float(s["min_facet_frac"]) * areas.max()
    faces = np.sort(np.concatenate([facets[i] for i in np.flatnonzero(keep)]))
    planar = mesh.submesh([faces], append=True)
    name = "planar.stl"
    planar.export(os.path.join(os.environ["SWR_ARTIFACTS"], name), file_type="stl")

    sharp = mesh.face_adjacency_angles > math.radians(float(s["feature_angle_deg"]))
    edges = mesh.vertices[mesh.face_adjacency_edges[sharp]]
    return {
        "planar": name,
        "n_bodies": len(bodies),
        "n_facets": len(facets),
        "n_planar_kept": int(keep.sum()),
        "n_feature_edges": int(sharp.sum()),
        "feature_edge_length": float(np.linalg.norm(edges[:, 1] - edges[:, 0], axis=1).sum()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
