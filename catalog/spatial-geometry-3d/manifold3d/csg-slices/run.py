"""Constructive solid geometry of a box, a sphere and a drilled cylinder with manifold3d, then
measures, planar slices, a projection and a plane trim of the result.

Entry workflow: main() builds new manifolds per call and never mutates module state (the circular
segment count is passed explicitly to every curved primitive, never set globally).
"""

import math

from manifold3d import Manifold


def measure(m):
    return {"volume": float(m.volume()), "surface_area": float(m.surface_area())}


def main(scenario: dict) -> dict:
    size = [float(v) for v in scenario["box_size"]]
    r = float(scenario["sphere_radius"])
    centre = [float(v) for v in scenario["sphere_center"]]
    hole_r = float(scenario["hole_radius"])
    segs = int(scenario["segments"])
    fracs = sorted(float(v) for v in scenario["slice_fractions"])
    tilt = math.radians(float(scenario["trim_tilt_deg"]))

    box = Manifold.cube(size, center=True)
    ball = Manifold.sphere(r, segs).translate(centre)
    zmax = max(size[2] / 2.0, centre[2] + r) + 1.0
    zmin = min(-size[2] / 2.0, centre[2] - r) - 1.0
    drill = Manifold.cylinder(zmax - zmin, hole_r, hole_r, segs).translate([0.0, 0.0, zmin])

    union = box + ball
    solid = union - drill
    inter = box ^ ball
    carved = box - ball

    parts = solid.decompose()
    lo = solid.bounding_box()
    slices = []
    for f in fracs:
        z = lo[2] + f * (lo[5] - lo[2])
        cs = solid.slice(z)
        slices.append({"z": float(z), "area": float(cs.area()), "contours": int(cs.num_contour())})

    normal = [math.sin(tilt), 0.0, math.cos(tilt)]
    kept = solid.trim_by_plane(normal, 0.0)
    shadow = solid.project()

    return {
        "union": measure(union),
        "intersection": measure(inter),
        "box_minus_sphere": measure(carved),
        "result": {
            **measure(solid),
            "genus": int(solid.genus()),
            "components": int(len(parts)),
            "bounding_box": [float(v) for v in lo],
        },
        "slices": slices,
        "footprint_area": float(shadow.area()),
        "trimmed_volume": float(kept.volume()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
