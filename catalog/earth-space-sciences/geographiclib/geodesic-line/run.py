"""Inverse geodesic with differential quantities, arc-spaced waypoints and azimuth-error miss distance on a
custom ellipsoid (oblate or prolate) with geographiclib.

Entry workflow: warm workers import this module once; main() builds its own Geodesic object.
"""

import math

from geographiclib.geodesic import Geodesic

KEYS = ("lat2", "lon2", "azi2", "s12", "a12", "m12", "M12", "M21", "S12")


def _pick(d):
    return {k: float(d[k]) for k in KEYS}


def main(scenario: dict) -> dict:
    g = Geodesic(float(scenario["a_m"]), float(scenario["flattening"]))
    lat1, lon1 = float(scenario["lat1_deg"]), float(scenario["lon1_deg"])
    lat2, lon2 = float(scenario["lat2_deg"]), float(scenario["lon2_deg"])
    n = int(scenario["n_waypoints"])

    inv = g.Inverse(lat1, lon1, lat2, lon2, Geodesic.ALL | Geodesic.LONG_UNROLL)
    line = g.InverseLine(lat1, lon1, lat2, lon2, Geodesic.ALL | Geodesic.LONG_UNROLL)
    waypoints = [_pick(line.ArcPosition(k * line.a13 / (n + 1), Geodesic.ALL | Geodesic.LONG_UNROLL))
                 for k in range(1, n + 1)]

    dazi = float(scenario["azimuth_error_deg"])
    off = g.Direct(lat1, lon1, inv["azi1"] + dazi, inv["s12"], Geodesic.STANDARD)
    miss = g.Inverse(off["lat2"], off["lon2"], lat2, lon2, Geodesic.DISTANCE)["s12"]

    return {
        "ellipsoid": {"b_m": float(g.a * (1.0 - g.f)), "area_m2": float(g.Polygon(False).area0)},
        "inverse": {k: float(inv[k]) for k in ("azi1", "azi2", "s12", "a12", "m12", "M12", "M21", "S12")},
        "waypoints": waypoints,
        "azimuth_error": {
            "lat_deg": float(off["lat2"]),
            "lon_deg": float(off["lon2"]),
            "miss_distance_m": float(miss),
            "first_order_miss_m": float(abs(inv["m12"] * math.radians(dazi))),
        },
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
