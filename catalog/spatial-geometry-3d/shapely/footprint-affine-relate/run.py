"""Register a building footprint against its surveyed position: shapely.affinity's rotate, scale, skew and
affine_transform, the DE-9IM relation (relate, relate_pattern), overlap, the oriented envelope (minimum rotated
rectangle) and nearest points between the two outlines.

Entry workflow: warm workers import this module once; main() builds new geometries per call.
"""

import math

import shapely
from shapely import affinity
from shapely.ops import nearest_points

SHAPES = {
    "L": [(0, 0), (1, 0), (1, 0.4), (0.4, 0.4), (0.4, 1), (0, 1)],
    "T": [(0, 0.6), (0.35, 0.6), (0.35, 0), (0.65, 0), (0.65, 0.6), (1, 0.6), (1, 1), (0, 1)],
    "U": [(0, 0), (1, 0), (1, 1), (0.7, 1), (0.7, 0.35), (0.3, 0.35), (0.3, 1), (0, 1)],
    "courtyard": [(0, 0), (1, 0), (1, 0.8), (0, 0.8)],
}
HOLE = [(0.3, 0.25), (0.7, 0.25), (0.7, 0.55), (0.3, 0.55)]


def footprint(name: str, size: float) -> shapely.Polygon:
    shell = [(x * size, y * size) for x, y in SHAPES[name]]
    holes = [[(x * size, y * size) for x, y in HOLE]] if name == "courtyard" else []
    return shapely.Polygon(shell, holes)


def main(scenario: dict) -> dict:
    size = float(scenario["size_m"])
    base = footprint(scenario["shape"], size)
    origin = scenario["origin"] if scenario["origin"] != "corner" else (0.0, 0.0)
    moved = affinity.scale(base, float(scenario["scale_x"]), float(scenario["scale_y"]), origin=origin)
    moved = affinity.skew(moved, xs=float(scenario["skew_x_deg"]), origin=origin)
    moved = affinity.rotate(moved, float(scenario["rotate_deg"]), origin=origin)
    dx = float(scenario["shift_fraction"]) * size
    moved = affinity.affine_transform(moved, [1, 0, 0, 1, dx, 0.5 * dx])
    moved = shapely.orient_polygons(moved)
    env = shapely.oriented_envelope(moved)
    ex = list(env.exterior.coords)
    e1, e2 = math.dist(ex[0], ex[1]), math.dist(ex[1], ex[2])
    long_edge = (ex[0], ex[1]) if e1 >= e2 else (ex[1], ex[2])
    angle = math.degrees(math.atan2(long_edge[1][1] - long_edge[0][1], long_edge[1][0] - long_edge[0][0])) % 180.0
    inter = base.intersection(moved).area
    p, q = nearest_points(base.exterior, moved.exterior)
    return {
        "moved_area_m2": moved.area,
        "moved_exterior": [list(c) for c in moved.exterior.coords],
        "de9im": base.relate(moved),
        "moved_within_base": bool(base.relate_pattern(moved, "T*F**F***")),
        "iou": inter / base.union(moved).area,
        "envelope_sides_m": sorted([e1, e2]),
        "envelope_angle_deg": angle,
        "outline_gap_m": p.distance(q),
        "centroid_shift_m": base.centroid.distance(moved.centroid),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
