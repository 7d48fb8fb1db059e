"""Covering a polygon with H3 cells (Uber's H3 v4): the cells by a chosen containment mode, their compacted
mixed-resolution set, the covered area and the outline of the cell union.

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import tomllib
from pathlib import Path

import h3


# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

EARTH_RADIUS_KM = CONSTANTS["EARTH_RADIUS_KM"]


def polygon(s: dict, radius_km: float) -> list[tuple[float, float]]:
    """Vertices (lat, lng) of an n-gon inscribed in an ellipse of semi-axes radius_km (east) and
    aspect*radius_km (north), first vertex at rotation_deg, mapped to degrees by the local tangent plane."""
    lat0, lng0, n = float(s["lat"]), float(s["lng"]), int(s["n_vertices"])
    rot, aspect = math.radians(float(s["rotation_deg"])), float(s["aspect"])
    out = []
    for i in range(n):
        t = rot + 2.0 * math.pi * i / n
        east, north = radius_km * math.cos(t), aspect * radius_km * math.sin(t)
        lat = lat0 + math.degrees(north / EARTH_RADIUS_KM)
        lng = lng0 + math.degrees(east / (EARTH_RADIUS_KM * math.cos(math.radians(lat0))))
        out.append((lat, lng))
    return out


def main(s: dict) -> dict:
    res = int(s["resolution"])
    radius_km = float(s["radius_edges"]) * h3.average_hexagon_edge_length(res, unit="km")
    verts = polygon(s, radius_km)
    cells = sorted(h3.polygon_to_cells_experimental(h3.LatLngPoly(verts), res, contain=str(s["containment"])))
    compact = sorted(h3.compact_cells(cells))
    centers = [h3.cell_to_latlng(c) for c in cells] or [(float(s["lat"]), float(s["lng"]))]
    outline = h3.cells_to_h3shape(cells, tight=False).polys if cells else []
    return {
        "vertices": [[a, b] for a, b in verts],
        "n_cells": len(cells),
        "cells": cells,
        "compacted": compact,
        "coarsest_resolution": min((h3.get_resolution(c) for c in compact), default=res),
        "covered_area_km2": sum(h3.cell_area(c, unit="km^2") for c in cells),
        "cells_centroid": [sum(c[0] for c in centers) / len(centers), sum(c[1] for c in centers) / len(centers)],
        "outline_vertices": sum(len(p.outer) + sum(len(h) for h in p.holes) for p in outline),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
