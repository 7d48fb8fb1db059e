"""A concept model of a moulded housing with manifold3d's subdivision smoothing: a block with a cylindrical boss on
top is turned into a smooth shape whose sharp edges are chosen by their dihedral angle (Manifold.smooth_out sets
tangents, Manifold.refine subdivides every edge and places the new vertices on the smooth surface); the result is
written as a binary STL with its volume change, triangle count and bounding box.

Entry workflow: main() builds new objects per call and never mutates module state. The STL goes to $SWR_ARTIFACTS.
"""

import os

import numpy as np
from manifold3d import Manifold


def write_stl(path, mesh):
    """Binary STL with facet normals from the triangle winding."""
    v = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
    t = np.asarray(mesh.tri_verts, dtype=np.int64)
    tri = v[t]
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    ln = np.linalg.norm(n, axis=1, keepdims=True)
    n = np.divide(n, ln, out=np.zeros_like(n), where=ln > 0)
    rec = np.zeros(len(t), dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    rec["n"] = n
    rec["v"] = tri
    with open(path, "wb") as fh:
        fh.write(b"manifold3d smooth-shell".ljust(80, b" "))
        fh.write(np.uint32(len(t)).tobytes())
        fh.write(rec.tobytes())


def main(s: dict) -> dict:
    ex, ey, ez = (float(v) for v in s["block"])
    r, h = float(s["boss_radius"]), float(s["boss_height"])
    boss = Manifold.cylinder(h, r, r, int(s["boss_segments"])).translate((0.0, 0.0, ez / 2.0))
    body = Manifold.cube((ex, ey, ez), True) + boss
    smooth = body.smooth_out(float(s["sharp_angle_deg"]), float(s["smoothness"])).refine(int(s["refine"]))
    name = "shell.stl"
    write_stl(os.path.join(os.environ["SWR_ARTIFACTS"], name), smooth.to_mesh())
    return {
        "mesh": name,
        "volume_ratio": float(smooth.volume() / body.volume()),
        "triangles": int(smooth.num_tri()),
        "bounding_box": [float(v) for v in smooth.bounding_box()],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
