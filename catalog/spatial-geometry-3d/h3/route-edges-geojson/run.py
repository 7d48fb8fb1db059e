"""A route across the H3 grid between two points (Uber's H3 v4): the cells of the grid path, the directed edges
crossed between consecutive cells with their boundary segments and lengths, and the outline of the path's cells
as GeoJSON (h3.cells_to_geo) of the corridor of cells within
grid distance corridor_k of the path.

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import tomllib
from pathlib import Path

import h3

CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
EARTH_RADIUS_KM = CONSTANTS["EARTH_RADIUS_KM"]
AREA_UNIT = {"km": "km^2", "m": "m^2", "rads": "rads^2"}


def offset_point(lat: float, lng: float, distance_km: float, bearing_deg: float) -> tuple[float, float]:
    """The point distance_km away along a great circle at the given initial bearing (spherical Earth)."""
    p1, l1, d, b = math.radians(lat), math.radians(lng), distance_km / EARTH_RADIUS_KM, math.radians(bearing_deg)
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    return math.degrees(p2), (math.degrees(l2) + 540.0) % 360.0 - 180.0


def main(s: dict) -> dict:
    res, unit = int(s["resolution"]), str(s["unit"])
    lat, lng = float(s["lat"]), float(s["lng"])
    edge = h3.average_hexagon_edge_length(res, unit="km")
    lat2, lng2 = offset_point(lat, lng, float(s["distance_edges"]) * edge, float(s["bearing_deg"]))
    a, b = h3.latlng_to_cell(lat, lng, res), h3.latlng_to_cell(lat2, lng2, res)
    try:
        path = list(h3.grid_path_cells(a, b))
    except h3.H3BaseException:
        path = []
    edges = [h3.cells_to_directed_edge(p, q) for p, q in zip(path, path[1:])]
    centres = [h3.cell_to_latlng(c) for c in path]
    k = int(s["corridor_k"])
    corridor = sorted({c for p in path for c in h3.grid_disk(p, k)})
    return {
        "origin": a,
        "destination": b,
        "path": path,
        "edges": edges,
        "edge_lengths": [h3.edge_length(e, unit=unit) for e in edges],
        "edge_segments": [[list(v) for v in h3.directed_edge_to_boundary(e)] for e in edges],
        "exits": [len(h3.origin_to_directed_edges(c)) for c in path],
        "centre_path_length": sum(h3.great_circle_distance(p, q, unit=unit) for p, q in zip(centres, centres[1:])),
        "straight_length": h3.great_circle_distance((lat, lng), (lat2, lng2), unit=unit),
        "corridor_cells": len(corridor),
        "corridor_area": sum(h3.cell_area(c, unit=AREA_UNIT[unit]) for c in corridor),
        "corridor_outline": h3.cells_to_geo(corridor) if corridor else None,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
