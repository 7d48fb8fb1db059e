"""2D polygon operations of ezdxf.math on a building footprint, as a site-planning check does them: the footprint
clipped to the lot and joined with an annex (Greiner-Hormann boolean operations, ezdxf.math.clipping), an inward
setback outline (ezdxf.math.offset_vertices_2d), the convex hull (convex_hull_2d), areas (ezdxf.math.area) and point
containment (is_point_in_polygon_2d); the results drawn as LWPOLYLINEs and written as DXF text with ezdxf's fixed
metadata (no timestamp or GUID).
"""

import io
import os
import random

import ezdxf
from ezdxf.math import Vec2, area, convex_hull_2d, is_point_in_polygon_2d, offset_vertices_2d
from ezdxf.math.clipping import greiner_hormann_difference, greiner_hormann_intersection, greiner_hormann_union


def footprint(scn):
    """Star-shaped footprint: 2n vertices counter-clockwise at angles 180*i/n, radius R*(1 - jitter*u_i) at even i
    and inner_ratio times that at odd i."""
    rng = random.Random(int(scn["seed"]))
    n, R, jit, inner = int(scn["n_points"]), float(scn["radius"]), float(scn["jitter"]), float(scn["inner_ratio"])
    return [Vec2.from_deg_angle(180.0 * i / n, R * (1.0 - jit * rng.random()) * (inner if i % 2 else 1.0))
            for i in range(2 * n)]


def rect(x0, y0, x1, y1):
    return [Vec2(x0, y0), Vec2(x1, y0), Vec2(x1, y1), Vec2(x0, y1)]


def polys_area(polys):
    return sum(abs(area(p)) for p in polys)


def main(scn: dict) -> dict:
    ezdxf.options.write_fixed_meta_data_for_testing = True
    fp = footprint(scn)
    R = float(scn["radius"])
    half, shift = float(scn["lot_width_frac"]) * R / 2.0, float(scn["lot_shift_frac"]) * R
    lot = rect(shift - half, -1.1 * R, shift + half, 1.1 * R)
    annex = rect(0.5 * R, -0.25 * R, 0.5 * R + float(scn["annex_length_frac"]) * R, 0.25 * R)
    clipped = greiner_hormann_intersection(fp, lot)
    joined = greiner_hormann_union(fp, annex)
    yard = greiner_hormann_difference(lot, fp)
    setback = list(offset_vertices_2d(fp, offset=float(scn["setback_frac"]) * R, closed=True))
    hull = convex_hull_2d(fp)
    step = float(scn["grid_step_frac"]) * R
    k = int(2 * R // step)
    grid = [Vec2(-R + i * step, -R + j * step) for i in range(k + 1) for j in range(k + 1)]
    inside = sum(1 for p in grid if is_point_in_polygon_2d(p, fp) >= 0)

    doc = ezdxf.new("R2010", setup=False)
    msp = doc.modelspace()
    for layer, polys in (("FOOTPRINT", [fp]), ("LOT", [lot]), ("CLIPPED", clipped), ("JOINED", joined),
                         ("SETBACK", [setback]), ("HULL", [hull])):
        doc.layers.add(layer)
        for p in polys:
            msp.add_lwpolyline([(v.x, v.y) for v in p], close=True, dxfattribs={"layer": layer})
    stream = io.StringIO()
    doc.write(stream)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "site.dxf"), "w", encoding="utf-8", newline="") as fh:
        fh.write(stream.getvalue())
    return {k: (float(v) if not isinstance(v, (int, str)) else v) for k, v in {
        "drawing": "site.dxf",
        "footprint_area": abs(area(fp)),
        "clipped_area": polys_area(clipped),
        "clipped_parts": len(clipped),
        "joined_area": polys_area(joined),
        "yard_area": polys_area(yard),
        "setback_area": abs(area(setback)),
        "hull_vertices": len(hull),
        "hull_area": abs(area(hull)),
        "grid_points_inside": inside,
        "coverage_ratio": polys_area(clipped) / abs(area(lot)),
    }.items()}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
