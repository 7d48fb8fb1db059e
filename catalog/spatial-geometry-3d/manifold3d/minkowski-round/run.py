"""Rounding a convex part by a Minkowski sum with a ball in manifold3d, as for a cutter-compensated or coated
outline: a convex body (a box, a cylinder, or the hull of seeded points) is dilated by a polygonal sphere
(Manifold.minkowski_sum), optionally only the coating layer is kept (difference with the body), and the solid is
written as a binary STL with its volume, area, coating volume and bounding box.

Entry workflow: main() builds new objects per call and never mutates module state; the RNG is seeded by the input.
The STL goes to $SWR_ARTIFACTS, read on every call.
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
        fh.write(b"manifold3d minkowski-round".ljust(80, b" "))
        fh.write(np.uint32(len(t)).tobytes())
        fh.write(rec.tobytes())


def body(shape, dims, segments, seed):
    a, b, c = dims
    if shape == "box":
        return Manifold.cube((a, b, c), True)
    if shape == "cylinder":
        return Manifold.cylinder(c, a / 2.0, a / 2.0, segments, True)
    rng = np.random.default_rng(seed)
    pts = rng.uniform(-0.5, 0.5, size=(12, 3)) * np.array([a, b, c])
    return Manifold.hull_points([tuple(float(v) for v in p) for p in pts])


def main(scenario: dict) -> dict:
    dims = [float(v) for v in scenario["dims"]]
    segs = int(scenario["segments"])
    core = body(str(scenario["shape"]), dims, segs, int(scenario["seed"]))
    r = float(scenario["round_radius"])
    rounded = core.minkowski_sum(Manifold.sphere(r, int(scenario["ball_segments"])))
    solid = rounded - core if bool(scenario["coating_only"]) else rounded

    name = "rounded.stl"
    write_stl(os.path.join(os.environ["SWR_ARTIFACTS"], name), solid.to_mesh())
    return {
        "mesh": name,
        "core_volume": float(core.volume()),
        "rounded_volume": float(rounded.volume()),
        "rounded_area": float(rounded.surface_area()),
        "coating_volume": float(rounded.volume() - core.volume()),
        "bounding_box": [float(v) for v in rounded.bounding_box()],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
