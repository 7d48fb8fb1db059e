"""A spur-gear blank from manifold3d's 2D CrossSection tools, as one prepares a part for laser cutting or
extrusion: trapezoidal teeth around a root circle are united (CrossSection.batch_boolean), the outline's corners
are rounded by a morphological opening and closing with round joins (CrossSection.offset), a bore with a keyway is
cut, and the profile is extruded (CrossSection.extrude) and written as a binary STL; its area and vertex count are
reported.

Entry workflow: main() builds new objects per call and never mutates module state. The STL goes to $SWR_ARTIFACTS,
read on every call.
"""

import math
import os

import numpy as np
from manifold3d import CrossSection, JoinType, OpType


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
        fh.write(b"manifold3d gear-blank".ljust(80, b" "))
        fh.write(np.uint32(len(t)).tobytes())
        fh.write(rec.tobytes())


def tooth(r_root, r_tip, base_w, tip_w, angle_deg):
    pts = [(r_root * 0.98, -base_w / 2.0), (r_tip, -tip_w / 2.0), (r_tip, tip_w / 2.0), (r_root * 0.98, base_w / 2.0)]
    return CrossSection([pts]).rotate(angle_deg)


def main(scenario: dict) -> dict:
    z = int(scenario["teeth"])
    module = float(scenario["module"])
    segs = int(scenario["segments"])
    r_pitch = module * z / 2.0
    r_root, r_tip = r_pitch - 1.25 * module, r_pitch + module
    pitch_arc = 2.0 * math.pi * r_pitch / z
    base_w, tip_w = 0.5 * pitch_arc * 1.2, 0.5 * pitch_arc * float(scenario["tip_ratio"])
    parts = [CrossSection.circle(r_root, segs)] + [tooth(r_root, r_tip, base_w, tip_w, 360.0 * k / z)
                                                    for k in range(z)]
    profile = CrossSection.batch_boolean(parts, OpType.Add)
    fillet = float(scenario["fillet_frac"]) * module
    # opening (round the convex corners: tooth tips) then closing (round the concave ones: tooth roots)
    profile = profile.offset(-fillet, JoinType.Round, 2.0, segs).offset(fillet, JoinType.Round, 2.0, segs)
    profile = profile.offset(fillet, JoinType.Round, 2.0, segs).offset(-fillet, JoinType.Round, 2.0, segs)
    bore = float(scenario["bore_frac"]) * r_root
    cut = CrossSection.circle(bore, segs)
    if bool(scenario["keyway"]):
        cut = cut + CrossSection.square((0.5 * bore, 0.5 * bore), True).translate((bore, 0.0))
    profile = (profile - cut).simplify(1e-9)
    solid = profile.extrude(float(scenario["thickness"]))

    name = "gear.stl"
    write_stl(os.path.join(os.environ["SWR_ARTIFACTS"], name), solid.to_mesh())
    return {
        "mesh": name,
        "profile_area": float(profile.area()),
        "profile_vertices": int(profile.num_vert()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
