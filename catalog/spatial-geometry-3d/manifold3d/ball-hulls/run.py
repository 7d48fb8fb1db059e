"""Hulls of balls with manifold3d, as for a skeletal (ball-and-stick) model or a swept tool path: seeded balls are
either wrapped by one convex hull (Manifold.batch_hull) or joined as a chain of pairwise hulls (capsule-like links)
united in one batch boolean (Manifold.batch_boolean, OpType.Add); the solid is written as a binary STL and compared
with the hull of the ball centres (Manifold.hull_points) and the 2D hull of its footprint (CrossSection.hull).

Entry workflow: main() builds new objects per call and never mutates module state; the RNG is seeded by the input.
The STL goes to $SWR_ARTIFACTS, read on every call.
"""

import os

import numpy as np
from manifold3d import CrossSection, Manifold, OpType


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
        fh.write(b"manifold3d ball-hulls".ljust(80, b" "))
        fh.write(np.uint32(len(t)).tobytes())
        fh.write(rec.tobytes())


def main(scenario: dict) -> dict:
    n = int(scenario["n_balls"])
    rng = np.random.default_rng(int(scenario["seed"]))
    spread = float(scenario["spread"])
    r0 = float(scenario["radius"])
    jitter = float(scenario["radius_jitter"])
    segs = int(scenario["segments"])
    centres = rng.uniform(-spread / 2.0, spread / 2.0, size=(n, 3))
    radii = r0 * (1.0 + jitter * rng.uniform(-1.0, 1.0, size=n))
    balls = [Manifold.sphere(float(r), segs).translate(tuple(float(c) for c in p)) for p, r in zip(centres, radii)]
    if scenario["mode"] == "hull":
        solid = Manifold.batch_hull(balls)
    else:
        links = [Manifold.batch_hull([balls[i], balls[i + 1]]) for i in range(n - 1)]
        solid = Manifold.batch_boolean(links, OpType.Add)
    core = Manifold.hull_points([tuple(float(c) for c in p) for p in centres])
    footprint = CrossSection.hull(solid.project())

    name = "hulls.stl"
    write_stl(os.path.join(os.environ["SWR_ARTIFACTS"], name), solid.to_mesh())
    return {
        "mesh": name,
        "genus": int(solid.genus()),
        "centre_hull_volume": float(core.volume()),
        "footprint_hull_area": float(footprint.area()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
