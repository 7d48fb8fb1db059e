"""Filling GeoJSON study zones with H3 cells (Uber's H3 v4): a MultiPolygon (a ring-shaped zone with a hole and
an optional second zone) read through the __geo_interface__ route (h3.geo_to_h3shape), filled by h3.h3shape_to_cells,
zone by zone and as a whole, and the cells' union written back as GeoJSON (h3.cells_to_geo, h3.h3shape_to_geo).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import tomllib
from pathlib import Path

import h3

CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
EARTH_RADIUS_KM = CONSTANTS["EARTH_RADIUS_KM"]


def ring(lat0, lng0, radius_km, n, rot_deg):
    """Closed GeoJSON ring [[lng, lat], ...] of a regular n-gon of circumradius radius_km, counter-clockwise,
    mapped to degrees on the local tangent plane; the first vertex repeated at the end."""
    pts = []
    for i in range(n + 1):
        t = math.radians(rot_deg) + 2.0 * math.pi * (i % n) / n
        east, north = radius_km * math.cos(t), radius_km * math.sin(t)
        pts.append([lng0 + math.degrees(east / (EARTH_RADIUS_KM * math.cos(math.radians(lat0)))),
                    lat0 + math.degrees(north / EARTH_RADIUS_KM)])
    return pts


def main(s: dict) -> dict:
    res = int(s["resolution"])
    lat0, lng0, n = float(s["lat"]), float(s["lng"]), int(s["n_sides"])
    radius = float(s["radius_edges"]) * h3.average_hexagon_edge_length(res, unit="km")
    hole_r = float(s["hole_frac"]) * radius
    zone_a = [ring(lat0, lng0, radius, n, 0.0)]
    if hole_r > 0:
        zone_a.append(list(reversed(ring(lat0, lng0, hole_r, n, 180.0 / n))))
    polys = [zone_a]
    if s["second_zone"]:
        lng_b = lng0 + math.degrees(3.0 * radius / (EARTH_RADIUS_KM * math.cos(math.radians(lat0))))
        polys.append([ring(lat0, lng_b, radius / 2.0, n, 0.0)])
    geo = {"type": "MultiPolygon", "coordinates": polys}
    shape = h3.geo_to_h3shape(geo)
    cells = sorted(h3.h3shape_to_cells(shape, res))
    per_zone = [len(h3.h3shape_to_cells(h3.geo_to_h3shape({"type": "Polygon", "coordinates": p}), res)) for p in polys]
    hole_cells = len(h3.h3shape_to_cells(h3.geo_to_h3shape({"type": "Polygon", "coordinates": [zone_a[1][::-1]]}),
                                         res)) if hole_r > 0 else 0
    back = h3.h3shape_to_geo(shape)
    return {
        "cells": cells,
        "n_cells": len(cells),
        "cells_per_zone": per_zone,
        "hole_cells": hole_cells,
        "area_km2": sum(h3.cell_area(c, unit="km^2") for c in cells),
        "shape_rings": (sum(len(p) for p in back["coordinates"]) if back["type"] == "MultiPolygon"
                        else len(back["coordinates"])),
        "union": h3.cells_to_geo(cells) if cells else None,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
