"""Importing a scanned closed surface into manifold3d and decimating it, as one lightens a scan before CSG: a
bumpy sphere is tessellated by manifold3d itself (Manifold.sphere), its vertices are displaced radially by an
analytic bump pattern and handed back as a new MeshGL (Mesh(vert_properties, tri_verts), float32),
and simplified within a distance tolerance (Manifold.simplify); the result is written as a binary STL with the
triangle counts and the volume change.

Entry workflow: main() builds new objects per call and never mutates module state. The STL goes to $SWR_ARTIFACTS,
read on every call.
"""

import os

import numpy as np
from manifold3d import Manifold, Mesh


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
        fh.write(b"manifold3d scan-simplify".ljust(80, b" "))
        fh.write(np.uint32(len(t)).tobytes())
        fh.write(rec.tobytes())


def main(scenario: dict) -> dict:
    radius = float(scenario["radius"])
    segs = int(scenario["segments"])
    amp = float(scenario["bump_amplitude"])
    k_lat, k_lon = int(scenario["bumps"][0]), int(scenario["bumps"][1])
    base = Manifold.sphere(radius, segs).to_mesh()
    v = np.asarray(base.vert_properties, dtype=np.float64)[:, :3]
    tris = np.asarray(base.tri_verts, dtype=np.uint32)
    r = np.linalg.norm(v, axis=1)
    theta = np.arccos(np.clip(v[:, 2] / r, -1.0, 1.0))
    phi = np.arctan2(v[:, 1], v[:, 0])
    scale = 1.0 + amp * np.sin(k_lat * theta) ** 2 * np.cos(k_lon * phi)
    scan = Manifold(Mesh(vert_properties=(v * scale[:, None]).astype(np.float32), tri_verts=tris))
    tol = float(scenario["tolerance_frac"]) * radius
    light = scan.simplify(tol)

    name = "simplified.stl"
    write_stl(os.path.join(os.environ["SWR_ARTIFACTS"], name), light.to_mesh())
    return {
        "mesh": name,
        "triangles_before": int(scan.num_tri()),
        "triangles_after": int(light.num_tri()),
        "scan_volume": float(scan.volume()),
        "volume_change": float(light.volume() / scan.volume() - 1.0),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
