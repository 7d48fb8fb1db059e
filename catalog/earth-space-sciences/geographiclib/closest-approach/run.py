"""Closest point of approach of a geodesic leg to hazards with geographiclib: Geodesic.InverseLine and
GeodesicLine.Position along the leg and Inverse azimuths for the right-angle condition (solved by bisection).

Entry workflow: main() draws its hazards from the scenario's seed.
"""

import math

import numpy as np
from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84
TOL_M = 1e-7  # bisection stops when the bracket is this narrow


def _g(line, s: float, lat: float, lon: float) -> tuple[float, dict, dict]:
    """cos of the angle between the leg and the geodesic to the hazard at along-track s (0 at the CPA)."""
    p = line.Position(s, Geodesic.STANDARD)
    r = G.Inverse(p["lat2"], p["lon2"], lat, lon)
    return math.cos(math.radians(r["azi1"] - p["azi2"])), p, r


def _cpa(line, lat: float, lon: float) -> tuple[float, dict, dict]:
    lo, hi = 0.0, line.s13
    g_lo, g_hi = _g(line, lo, lat, lon)[0], _g(line, hi, lat, lon)[0]
    if g_lo <= 0.0:
        s = lo
    elif g_hi >= 0.0:
        s = hi
    else:
        while hi - lo > TOL_M:
            mid = 0.5 * (lo + hi)
            if _g(line, mid, lat, lon)[0] > 0.0:
                lo = mid
            else:
                hi = mid
        s = 0.5 * (lo + hi)
    _, p, r = _g(line, s, lat, lon)
    return s, p, r


def main(s: dict) -> dict:
    lat1, lon1 = float(s["lat1_deg"]), float(s["lon1_deg"])
    line = G.InverseLine(lat1, lon1, lat1 + float(s["dlat_deg"]), lon1 + float(s["dlon_deg"]))
    rng = np.random.default_rng(int(s["seed"]))
    off = float(s["offset_deg"])
    hazards = []
    for _ in range(int(s["n_hazards"])):
        f = float(rng.uniform(0.1, 0.9))
        u = float(rng.uniform(-1.0, 1.0))
        v = float(rng.uniform(-1.0, 1.0))
        base = line.Position(f * line.s13, Geodesic.STANDARD)
        h = {"lat2": base["lat2"] + u * off, "lon2": base["lon2"] + v * off}
        along, p, r = _cpa(line, h["lat2"], h["lon2"])
        side = "right" if math.sin(math.radians(r["azi1"] - p["azi2"])) > 0.0 else "left"
        hazards.append({"lat_deg": h["lat2"], "lon_deg": h["lon2"], "cpa_along_m": along, "cpa_distance_m": r["s12"],
                        "cpa_lat_deg": p["lat2"], "cpa_lon_deg": p["lon2"], "side": side})
    radius = float(s["safety_radius_km"]) * 1000.0
    return {
        "leg_length_m": line.s13,
        "hazards": hazards,
        "min_cpa_m": min(h["cpa_distance_m"] for h in hazards),
        "n_too_close": sum(h["cpa_distance_m"] < radius for h in hazards),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
