"""Validity diagnosis and repair of a self-intersecting boundary with shapely (GEOS): is_valid_reason,
make_valid with the 'linework' and 'structure' methods, snapping to a precision grid (set_precision) and the
canonical form of the result (normalize).

Entry workflow: served by warm workers that import this module once; main() builds new geometries per call.
"""

import math

import shapely


def star_ring(scenario: dict) -> list:
    n, k = (int(v) for v in str(scenario["star"]).split("/"))
    r0, mod = float(scenario["radius"]), float(scenario["radius_modulation"])
    rot = math.radians(float(scenario["rotation_deg"]))
    pts = []
    for i in range(n):
        r = r0 * (1.0 + mod * (i % 2))
        a = rot + 2.0 * math.pi * k * i / n
        pts.append((r * math.cos(a), r * math.sin(a)))
    return pts


def summary(geom) -> dict:
    polys = [g for g in shapely.get_parts(geom) if g.geom_type == "Polygon"]
    return {
        "type": geom.geom_type,
        "parts": int(shapely.get_num_geometries(geom)),
        "area": float(geom.area),
        "polygon_perimeter": float(sum(p.length for p in polys)),
        "vertices": int(shapely.get_num_coordinates(geom)),
    }


def main(scenario: dict) -> dict:
    raw = shapely.Polygon(star_ring(scenario))
    grid = float(scenario["grid_fraction"]) * float(scenario["radius"])
    linework = shapely.make_valid(raw, method="linework")
    structure = shapely.make_valid(raw, method="structure", keep_collapsed=False)
    snapped = shapely.set_precision(structure, grid)
    canonical = shapely.normalize(snapped)
    pointwise = shapely.set_precision(raw, grid, mode="pointwise")
    return {
        "raw_valid_reason": shapely.is_valid_reason(raw).split("[")[0],
        "raw_area": float(shapely.area(raw)),
        "linework": summary(linework),
        "structure": summary(structure),
        "snapped": {**summary(snapped), "valid": bool(shapely.is_valid(snapped))},
        "snapped_normalized_exterior": [
            [float(x), float(y)]
            for x, y in shapely.get_coordinates(shapely.get_exterior_ring(shapely.get_geometry(canonical, 0)))
        ],
        "pointwise_snapped_distinct_vertices": int(
            shapely.get_num_coordinates(shapely.remove_repeated_points(pointwise, tolerance=0.0))
        )
        - 1,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
