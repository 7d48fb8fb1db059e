"""A gyroid lattice infill clipped to a sphere, meshed by manifold3d's level-set (marching tetrahedra on a
body-centred cubic grid, Manifold.level_set) from an implicit function, optionally united with a spherical skin, and
written as a binary STL; reports the lattice's volume, area and volume fraction.

Entry workflow: main() builds new objects per call and never mutates module state. The STL goes to
$SWR_ARTIFACTS, read on every call.
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
        fh.write(b"manifold3d gyroid-levelset".ljust(80, b" "))
        fh.write(np.uint32(len(t)).tobytes())
        fh.write(rec.tobytes())


def main(scenario: dict) -> dict:
    radius = float(scenario["radius"])
    cell = float(scenario["cell_size"])
    thickness = float(scenario["thickness"])
    edge = float(scenario["edge_frac"]) * thickness
    shell = float(scenario["shell_thickness"])
    k = 2.0 * math.pi / cell
    half = thickness / 2.0

    def sdf(x, y, z):
        g = math.sin(k * x) * math.cos(k * y) + math.sin(k * y) * math.cos(k * z) + math.sin(k * z) * math.cos(k * x)
        sheet = half - abs(g) / k  # > 0 inside the thickened gyroid sheet (|g|/k ~ distance near the surface)
        ball = radius - math.sqrt(x * x + y * y + z * z)
        return min(sheet, ball)

    b = radius + edge
    lattice = Manifold.level_set(sdf, [-b, -b, -b, b, b, b], edge)
    ball_volume = 4.0 / 3.0 * math.pi * radius**3
    result = lattice
    if bool(scenario["shell"]):
        segs = int(scenario["segments"])
        skin = Manifold.sphere(radius, segs) - Manifold.sphere(radius - shell, segs)
        result = lattice + skin
    name = "lattice.stl"
    write_stl(os.path.join(os.environ["SWR_ARTIFACTS"], name), result.to_mesh())
    return {
        "mesh": name,
        "lattice_volume": float(lattice.volume()),
        "lattice_area": float(lattice.surface_area()),
        "volume_fraction": float(lattice.volume() / ball_volume),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
