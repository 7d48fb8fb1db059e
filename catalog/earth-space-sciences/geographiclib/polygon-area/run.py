"""Geodesic area and perimeter of a generated parcel with geographiclib: PolygonArea in polygon and polyline modes
(AddPoint, Compute with both orientations, TestPoint) on a chosen ellipsoid, and each edge's inverse problem.

Entry workflow: main() builds its vertices from the scenario's seed.
"""

import math
import tomllib
from pathlib import Path

import numpy as np
from geographiclib.geodesic import Geodesic

# The ellipsoids' constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
ELLIPSOIDS = {  # (a in m, inverse flattening)
    "WGS84": (CONSTANTS["WGS84_A"], CONSTANTS["WGS84_INV_F"]),
    "GRS80": (CONSTANTS["GRS80_A"], CONSTANTS["GRS80_INV_F"]),
    "intl": (CONSTANTS["INTL_A"], CONSTANTS["INTL_INV_F"]),
    "clrk66": (CONSTANTS["CLRK66_A"], CONSTANTS["CLRK66_INV_F"]),
}


def _vertices(s: dict) -> list[tuple[float, float]]:
    """A clockwise ring of n vertices around the centre with seeded radii; reversed for counter-clockwise."""
    n, lat_c, lon_c = int(s["n_vertices"]), float(s["lat_c_deg"]), float(s["lon_c_deg"])
    u = np.random.default_rng(int(s["seed"])).random(n)
    rho = 1.0 + float(s["irregularity"]) * (u - 0.5)
    theta = 2.0 * math.pi * np.arange(n) / n
    r = float(s["radius_deg"]) * rho
    pts = [(lat_c + float(r[k] * math.cos(theta[k])),
            lon_c + float(r[k] * math.sin(theta[k]) / math.cos(math.radians(lat_c)))) for k in range(n)]
    return pts[::-1] if s["orientation"] == "counterclockwise" else pts


def main(s: dict) -> dict:
    a, inv_f = ELLIPSOIDS[str(s["ellipsoid"])]
    g = Geodesic(a, 1.0 / inv_f)
    pts = _vertices(s)
    poly, line = g.Polygon(False), g.Polygon(True)
    for lat, lon in pts:
        poly.AddPoint(lat, lon)
        line.AddPoint(lat, lon)
    count, perim, area = poly.Compute(False, True)
    _, _, rev_area = poly.Compute(True, False)
    _, t_perim, t_area = poly.TestPoint(float(s["lat_c_deg"]), float(s["lon_c_deg"]), False, True)
    _, line_len, _ = line.Compute(False, True)
    edges = []
    for (lat1, lon1), (lat2, lon2) in zip(pts, pts[1:] + pts[:1]):
        inv = g.Inverse(lat1, lon1, lat2, lon2)
        edges.append({"s12_m": inv["s12"], "azi1_deg": inv["azi1"], "azi2_deg": inv["azi2"]})
    return {
        "vertices": [{"lat_deg": lat, "lon_deg": lon} for lat, lon in pts],
        "edges": edges,
        "count": int(count),
        "perimeter_m": float(perim),
        "signed_area_m2": float(area),
        "reverse_area_m2": float(rev_area),
        "test_centre_perimeter_m": float(t_perim),
        "test_centre_area_m2": float(t_area),
        "polyline_length_m": float(line_len),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
