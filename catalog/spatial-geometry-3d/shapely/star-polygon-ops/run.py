"""Star polygon plus translated copies: boolean operations and measures with shapely (GEOS)."""

import json
import math
import sys

from shapely import affinity
from shapely.geometry import MultiPolygon, Polygon
from shapely.ops import unary_union

QUAD_SEGS = 16


def star(n, radius, ratio, rotation_deg):
    """2n-vertex star: outer vertices at `radius`, inner ones at `ratio*radius` halfway between."""
    pts = []
    rot = math.radians(rotation_deg)
    for i in range(2 * n):
        r = radius if i % 2 == 0 else ratio * radius
        a = rot + math.pi * i / n
        pts.append((r * math.cos(a), r * math.sin(a)))
    return Polygon(pts)


def parts(geom):
    if geom.is_empty:
        return []
    if isinstance(geom, MultiPolygon):
        return list(geom.geoms)
    return [geom]


def compute(scn):
    n = int(scn["n_points"])
    radius = float(scn["radius"])
    ratio = float(scn["inner_ratio"])
    rot = float(scn["rotation_deg"])
    dist = float(scn["copy_distance"])
    angles = [float(a) for a in scn["copy_angles_deg"]]
    buf = float(scn["buffer_distance"])

    base = star(n, radius, ratio, rot)
    copies = [
        affinity.translate(base, dist * math.cos(math.radians(a)), dist * math.sin(math.radians(a)))
        for a in angles
    ]
    copies_union = unary_union(copies)
    union = unary_union([base] + copies)
    inter = base.intersection(copies_union)
    sym = base.symmetric_difference(copies_union)
    buffered = union.buffer(buf, quad_segs=QUAD_SEGS)
    hull = union.convex_hull
    mrr = union.minimum_rotated_rectangle
    u_parts = parts(union)
    c = union.centroid

    return {
        "star_area": base.area,
        "star_perimeter": base.length,
        "star_hull_hausdorff": base.exterior.hausdorff_distance(base.convex_hull.exterior),
        "union_area": union.area,
        "union_perimeter": union.length,
        "union_parts": len(u_parts),
        "union_holes": sum(len(p.interiors) for p in u_parts),
        "intersection_area": inter.area,
        "symmetric_difference_area": sym.area,
        "union_centroid": [c.x, c.y],
        "hull_area": hull.area,
        "hull_vertices": len(hull.exterior.coords) - 1,
        "min_rotated_rectangle_area": mrr.area,
        "buffered_area": buffered.area,
        "buffered_perimeter": buffered.length,
        "buffered_bounds": list(buffered.bounds),
    }


if __name__ == "__main__":
    scenario = json.load(sys.stdin)
    json.dump(compute(scenario), sys.stdout)
    sys.stdout.write("\n")
