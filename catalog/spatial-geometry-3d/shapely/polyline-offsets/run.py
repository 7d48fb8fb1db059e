"""Sine-wave polyline: buffers with each cap/join style, one-sided offset curves, simplification and
linear referencing with shapely (GEOS).

Entry workflow: main() only builds new geometries and never mutates module state.
"""

import math

import shapely
from shapely.geometry import LineString, Point

QUAD_SEGS = 8
CAPS = ("round", "flat", "square")
JOINS = ("round", "mitre", "bevel")


def polyline(n, length, amplitude, wavelength, phase_deg):
    """n vertices at x_i = length*i/(n-1), y_i = amplitude*sin(2*pi*x_i/wavelength + phase)."""
    ph = math.radians(phase_deg)
    pts = []
    for i in range(n):
        x = length * i / (n - 1)
        pts.append((x, amplitude * math.sin(2.0 * math.pi * x / wavelength + ph)))
    return LineString(pts)


def n_vertices(geom):
    return int(shapely.get_num_coordinates(geom))


def main(scenario: dict) -> dict:
    n = int(scenario["n_vertices"])
    length = float(scenario["length"])
    amp = float(scenario["amplitude"])
    wl = float(scenario["wavelength"])
    phase = float(scenario["phase_deg"])
    width = float(scenario["half_width"])
    mitre_limit = float(scenario["mitre_limit"])
    tol = float(scenario["simplify_tolerance"])
    probe = Point(float(scenario["probe_x"]), float(scenario["probe_y"]))

    line = polyline(n, length, amp, wl, phase)

    buffers = {}
    for cap in CAPS:
        for join in JOINS:
            b = line.buffer(width, quad_segs=QUAD_SEGS, cap_style=cap, join_style=join,
                            mitre_limit=mitre_limit)
            buffers[f"{cap}_{join}"] = {
                "area": float(b.area),
                "perimeter": float(b.length),
                "holes": int(sum(len(p.interiors) for p in getattr(b, "geoms", [b]))),
                "vertices": n_vertices(b),
            }

    offsets = {}
    for side, dist in (("left", width), ("right", -width)):
        oc = line.offset_curve(dist, quad_segs=QUAD_SEGS, join_style="mitre", mitre_limit=mitre_limit)
        offsets[side] = {
            "length": float(oc.length),
            "vertices": n_vertices(oc),
            "hausdorff_to_line": float(oc.hausdorff_distance(line)),
        }

    simple = line.simplify(tol, preserve_topology=False)
    single_left = line.buffer(width, quad_segs=QUAD_SEGS, single_sided=True, join_style="round")
    s = line.project(probe)
    nearest = line.interpolate(s)
    mid = line.interpolate(0.5, normalized=True)

    return {
        "line_length": float(line.length),
        "line_bounds": [float(v) for v in line.bounds],
        "buffers": buffers,
        "single_sided_left_area": float(single_left.area),
        "offsets": offsets,
        "simplified": {
            "vertices": n_vertices(simple),
            "length": float(simple.length),
            "hausdorff_to_line": float(simple.hausdorff_distance(line)),
        },
        "probe": {
            "distance": float(line.distance(probe)),
            "projected_length": float(s),
            "nearest_point": [float(nearest.x), float(nearest.y)],
            "inside_round_buffer": bool(probe.within(line.buffer(width, quad_segs=QUAD_SEGS))),
        },
        "midpoint": [float(mid.x), float(mid.y)],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
