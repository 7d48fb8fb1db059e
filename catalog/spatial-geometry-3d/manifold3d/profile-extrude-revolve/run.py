"""A 2D profile built with manifold3d CrossSection booleans and offsetting, extruded with twist and
taper, unioned with a revolved ring and cut by a cylinder; the solid is written as a binary STL.

Entry workflow: main() builds new objects per call and never mutates module state (segment counts
are passed explicitly). The STL goes to $SWR_ARTIFACTS, read on every call.
"""

import math
import os

import numpy as np
from manifold3d import CrossSection, JoinType, Manifold

JOINS = {"round": JoinType.Round, "miter": JoinType.Miter, "square": JoinType.Square}


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
        fh.write(b"manifold3d profile-extrude-revolve".ljust(80, b" "))
        fh.write(np.uint32(len(t)).tobytes())
        fh.write(rec.tobytes())


def star(n, r_out, r_in, rot):
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = rot + math.pi * i / n
        pts.append((r * math.cos(a), r * math.sin(a)))
    return CrossSection([pts])


def main(scenario: dict) -> dict:
    n = int(scenario["star_points"])
    r_out = float(scenario["star_radius"])
    r_in = float(scenario["star_inner_ratio"]) * r_out
    delta = float(scenario["offset_frac"]) * r_in
    join = JOINS[str(scenario["offset_join"])]
    segs = int(scenario["segments"])
    height = float(scenario["height"])
    twist = float(scenario["twist_deg"])
    taper = float(scenario["top_scale"])
    ring_r = float(scenario["ring_radius_frac"]) * r_out
    ring_t = float(scenario["ring_thickness_frac"]) * r_out
    bore = float(scenario["bore_radius_frac"]) * r_in

    profile = star(n, r_out, r_in, 0.0).offset(delta, join, 2.0, segs)
    profile = profile - CrossSection.circle(0.35 * r_in, segs)
    body = profile.extrude(height, 16, twist, (taper, taper))

    # Ring: a circle of radius ring_thickness centred at x = ring_radius in the revolve plane,
    # revolved about the z axis and lifted to mid-height.
    ring_cs = CrossSection.circle(ring_t, segs).translate((ring_r, 0.0))
    ring = ring_cs.revolve(segs, 360.0).translate((0.0, 0.0, height / 2.0))
    solid = body + ring
    drill = Manifold.cylinder(height + 2.0 * ring_t + 2.0, bore, bore, segs).translate(
        (0.0, 0.0, -ring_t - 1.0))
    solid = solid - drill

    name = "part.stl"
    write_stl(os.path.join(os.environ["SWR_ARTIFACTS"], name), solid.to_mesh())
    return {
        "mesh": name,
        "profile_area": float(profile.area()),
        "profile_contours": int(profile.num_contour()),
        "profile_vertices": int(profile.num_vert()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
