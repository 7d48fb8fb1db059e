"""A clearance and interference check of a pin in a bored block with manifold3d, as one checks a fit before
machining: the smallest gap between the two solids (Manifold.min_gap), their interference volume (intersection), the
block with the pin's envelope cut away (difference, written as a binary STL) and its genus, and
the pin's volume on each side of the block's mid-plane (Manifold.split_by_plane).

Entry workflow: main() builds new objects per call and never mutates module state. The STL goes to $SWR_ARTIFACTS,
read on every call.
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
        fh.write(b"manifold3d pin-clearance".ljust(80, b" "))
        fh.write(np.uint32(len(t)).tobytes())
        fh.write(rec.tobytes())


def main(scenario: dict) -> dict:
    lx, ly, lz = (float(v) for v in scenario["block_size"])
    segs = int(scenario["segments"])
    bore = float(scenario["bore_frac"]) * min(lx, ly) / 2.0
    pin_r = float(scenario["pin_ratio"]) * bore
    dx, dy = (float(v) * bore for v in scenario["pin_offset_frac"])
    lift = float(scenario["pin_lift_frac"]) * lz
    tilt = float(scenario["pin_tilt_deg"])
    block = Manifold.cube((lx, ly, lz), True) - Manifold.cylinder(2.0 * lz, bore, bore, segs, True)
    pin = Manifold.cylinder(1.5 * lz, pin_r, pin_r, segs, True).rotate((tilt, 0.0, 0.0)).translate((dx, dy, lift))
    search = float(scenario["gap_search"])
    gap = float(block.min_gap(pin, search))
    overlap = block ^ pin
    cut = block - pin
    upper, lower = pin.split_by_plane((0.0, 0.0, 1.0), 0.0)

    name = "block.stl"
    write_stl(os.path.join(os.environ["SWR_ARTIFACTS"], name), cut.to_mesh())
    return {
        "mesh": name,
        "min_gap": gap,
        "interference_volume": float(overlap.volume()),
        "cut_genus": int(cut.genus()),
        "pin_volume_above": float(upper.volume()),
        "pin_volume_below": float(lower.volume()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
