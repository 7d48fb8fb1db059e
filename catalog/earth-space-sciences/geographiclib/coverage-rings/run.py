"""Satellite coverage rings with geographiclib's arc-mode direct problem (Geodesic(a, f).ArcDirect with
LATITUDE | LONGITUDE | DISTANCE | LONG_UNROLL) for the Earth or Mars.

Entry workflow: main() builds its rings from the scenario.
"""

import math
import tomllib
from pathlib import Path

from geographiclib.geodesic import Geodesic

# The figures' constants the instruction states, read from workflow.toml's [constants] (one source for both).
C = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
FIGURES = {
    "earth": (C["A_EARTH"], 1.0 / C["INV_F_EARTH"]),
    "mars": (C["A_MARS"], (C["A_MARS"] - C["B_MARS"]) / C["A_MARS"]),
}
CAPS = Geodesic.LATITUDE | Geodesic.LONGITUDE | Geodesic.DISTANCE | Geodesic.LONG_UNROLL


def _lambda(a: float, alt: float, elev: float) -> float:
    """Earth-central angle (degrees) from the sub-satellite point to where the satellite is at elevation elev."""
    e = math.radians(elev)
    return 90.0 - elev - math.degrees(math.asin(a * math.cos(e) / (a + alt)))


def main(s: dict) -> dict:
    a, f = FIGURES[str(s["body"])]
    g = Geodesic(a, f)
    lat, lon, alt = float(s["sat_lat_deg"]), float(s["sat_lon_deg"]), float(s["altitude_km"]) * 1000.0
    n = int(s["n_azimuths"])
    rings = []
    for elev in (float(v) for v in s["elevations_deg"]):
        lam = _lambda(a, alt, elev)
        pts = []
        for k in range(n):
            azi = 360.0 * k / n
            r = g.ArcDirect(lat, lon, azi, lam, CAPS)
            pts.append({"azi_deg": azi, "lat_deg": r["lat2"], "lon_deg": r["lon2"], "s12_m": r["s12"]})
        s12 = [p["s12_m"] for p in pts]
        rings.append({
            "elevation_deg": elev, "lambda_deg": lam, "points": pts,
            "mean_s12_m": sum(s12) / n, "min_s12_m": min(s12), "max_s12_m": max(s12),
            "north_lat_deg": max(p["lat_deg"] for p in pts), "south_lat_deg": min(p["lat_deg"] for p in pts),
        })
    return {"rings": rings}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
