"""Cutting a plate into pieces with a saw of finite kerf in manifold3d, as for nesting and yield estimates: the
cutter is a union of thin slabs (one family of parallel cuts at an angle and, optionally, a crossing family);
Manifold.split divides the plate into the material inside the kerf and the rest, the rest falls apart into pieces
(Manifold.decompose), and the pieces' volumes and the kerf loss are reported with the cut plate as a binary STL.

Entry workflow: main() builds new objects per call and never mutates module state. The STL goes to $SWR_ARTIFACTS,
read on every call.
"""

import os

import numpy as np
from manifold3d import Manifold, OpType


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
        fh.write(b"manifold3d kerf-pieces".ljust(80, b" "))
        fh.write(np.uint32(len(t)).tobytes())
        fh.write(rec.tobytes())


def slabs(n, spacing, kerf, angle_deg, reach, thick):
    """n slabs of width kerf, centred at offsets (k - (n - 1)/2)*spacing along the direction angle_deg + 90."""
    out = []
    for k in range(n):
        off = (k - (n - 1) / 2.0) * spacing
        slab = Manifold.cube((reach, kerf, thick), True).translate((0.0, off, 0.0)).rotate((0.0, 0.0, angle_deg))
        out.append(slab)
    return out


def main(scenario: dict) -> dict:
    lx, ly = (float(v) for v in scenario["plate_size"])
    t = float(scenario["thickness"])
    kerf = float(scenario["kerf"])
    n = int(scenario["cuts"])
    spacing = float(scenario["spacing_frac"]) * min(lx, ly)
    angle = float(scenario["angle_deg"])
    reach = 3.0 * max(lx, ly)
    plate = Manifold.cube((lx, ly, t), True)
    cutters = slabs(n, spacing, kerf, angle, reach, 2.0 * t)
    if bool(scenario["cross_cuts"]):
        cutters += slabs(n, spacing, kerf, angle + 90.0, reach, 2.0 * t)
    saw = Manifold.batch_boolean(cutters, OpType.Add)
    kerf_part, rest = plate.split(saw)
    pieces = rest.decompose()
    volumes = sorted(float(p.volume()) for p in pieces)

    name = "cut.stl"
    write_stl(os.path.join(os.environ["SWR_ARTIFACTS"], name), rest.to_mesh())
    return {
        "mesh": name,
        "pieces": len(pieces),
        "piece_volumes": volumes,
        "kerf_loss": float(kerf_part.volume()),
        "yield_fraction": float(rest.volume() / plate.volume()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
