"""Bending and twisting a bar with manifold3d's vertex warp, as for a spring clip or a curved bracket: a hollow
rectangular bar is refined to a maximum edge length (Manifold.refine_to_length) so that it can bend smoothly, then
each vertex is mapped by an analytic twist about the bar axis and a bend onto a circular arc (Manifold.warp); the
solid is written as a binary STL and its volume, area and bounding box are reported.

Entry workflow: main() builds new objects per call and never mutates module state. The STL goes to $SWR_ARTIFACTS,
read on every call.
"""

import math
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
        fh.write(b"manifold3d warp-bend".ljust(80, b" "))
        fh.write(np.uint32(len(t)).tobytes())
        fh.write(rec.tobytes())


def bend_twist(length, radius, twist):
    """Vertex map: twist about the x axis by twist*x/length, then wrap x onto an arc of the given radius."""
    def f(p):
        x, y, z = p
        a = twist * x / length
        y, z = y * math.cos(a) - z * math.sin(a), y * math.sin(a) + z * math.cos(a)
        if radius <= 0.0:
            return (x, y, z)
        phi = x / radius
        r = radius - z
        return (r * math.sin(phi), y, radius - r * math.cos(phi))
    return f


def main(scenario: dict) -> dict:
    length = float(scenario["length"])
    w, h = (float(v) for v in scenario["section"])
    wall = float(scenario["wall_frac"]) * min(w, h) / 2.0
    bend = float(scenario["bend_deg"])
    twist = math.radians(float(scenario["twist_deg"]))
    edge = float(scenario["edge_frac"]) * min(w, h)
    bar = Manifold.cube((length, w, h), True)
    if bool(scenario["hollow"]):
        bar = bar - Manifold.cube((length * 2.0, w - 2.0 * wall, h - 2.0 * wall), True)
    bar = bar.translate((length / 2.0, 0.0, 0.0))
    radius = length / math.radians(bend) if bend > 0.0 else 0.0
    solid = bar.refine_to_length(edge).warp(bend_twist(length, radius, twist))

    name = "bar.stl"
    write_stl(os.path.join(os.environ["SWR_ARTIFACTS"], name), solid.to_mesh())
    box = solid.bounding_box()
    return {
        "mesh": name,
        "triangles": int(solid.num_tri()),
        "bounding_box": [float(v) for v in box],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
