"""Blocks cut out of a rock face by a random fracture network, with shapely's noding and polygonization
(GEOS): node the fracture traces, polygonize them into closed blocks, and classify the leftover dangles and
cut edges.

Entry workflow: served by warm workers that import this module once; main() builds new geometries per call.
"""

import numpy as np
import shapely


def fractures(scenario: dict) -> list:
    rng = np.random.default_rng(int(scenario["seed"]))
    n = int(scenario["n_fractures"])
    size = float(scenario["extent"])
    centres = rng.uniform(0.0, size, (n, 2))
    spread = float(scenario["strike_spread_deg"]) * (rng.uniform(0.0, 1.0, n) - 0.5)
    angles = np.radians(float(scenario["strike_deg"]) + spread)
    lengths = size * rng.uniform(float(scenario["length_min_frac"]), float(scenario["length_max_frac"]), n)
    half = 0.5 * lengths[:, None] * np.column_stack([np.cos(angles), np.sin(angles)])
    lines = [shapely.LineString([c - h, c + h]) for c, h in zip(centres, half)]
    if bool(scenario["include_frame"]):
        lines.append(shapely.box(0.0, 0.0, size, size).exterior)
    return lines


def main(scenario: dict) -> dict:
    noded = shapely.node(shapely.MultiLineString(fractures(scenario)))
    edges = shapely.get_parts(noded)
    polys, cuts, dangles, invalid = shapely.polygonize_full(edges)
    blocks = shapely.get_parts(polys)
    areas = sorted((float(a) for a in shapely.area(blocks)), reverse=True)
    merged = shapely.line_merge(noded)
    return {
        "noded_edges": int(len(edges)),
        "network_length": float(noded.length),
        "merged_lines": int(shapely.get_num_geometries(merged)),
        "blocks": int(len(blocks)),
        "block_areas_desc": areas,
        "block_perimeter_total": float(sum(shapely.length(blocks))) if len(blocks) else 0.0,
        "dangles": int(shapely.get_num_geometries(dangles)),
        "dangle_length": float(shapely.length(dangles)),
        "cut_edges": int(shapely.get_num_geometries(cuts)),
        "invalid_rings": int(shapely.get_num_geometries(invalid)),
        "built_area": float(shapely.build_area(noded).area),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
