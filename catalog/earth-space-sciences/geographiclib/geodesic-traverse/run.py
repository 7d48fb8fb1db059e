"""Geodesic traverse (azimuth/distance legs) on WGS 84 with geographiclib: stations, misclosure, and the area
of the traverse polygon accumulated edge by edge with PolygonArea.

Entry workflow: warm workers import this module once; main() creates its own PolygonArea objects.
"""

import math

from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84


def main(scenario: dict) -> dict:
    lat, lon = float(scenario["lat_deg"]), float(scenario["lon_deg"])
    azi = math.remainder(float(scenario["initial_azimuth_deg"]), 360.0)
    turn = float(scenario["turn_deg"])
    legs_m = [float(s) * 1000.0 for s in scenario["leg_lengths_km"]]

    poly = G.Polygon(False)
    poly.AddPoint(lat, lon)
    stations = []
    cur_lat, cur_lon, cur_azi = lat, lon, azi
    for s in legs_m:
        d = G.Direct(cur_lat, cur_lon, cur_azi, s, Geodesic.STANDARD | Geodesic.LONG_UNROLL)
        poly.AddEdge(cur_azi, s)
        cur_lat, cur_lon = d["lat2"], d["lon2"]
        stations.append({
            "departure_azimuth_deg": float(cur_azi),
            "lat_deg": float(cur_lat),
            "lon_deg": float(cur_lon),
            "arrival_azimuth_deg": float(d["azi2"]),
        })
        cur_azi = math.remainder(d["azi2"] + turn, 360.0)

    close = G.Inverse(cur_lat, cur_lon, lat, lon, Geodesic.STANDARD)
    n, perimeter, area = poly.Compute(False, True)
    _, perimeter_r, area_r = poly.Compute(True, False)
    mean_leg = sum(legs_m) / len(legs_m)
    _, perimeter_t, area_t = poly.TestEdge(cur_azi, mean_leg, False, True)

    return {
        "stations": stations,
        "misclosure": {
            "distance_m": float(close["s12"]),
            "azimuth_deg": float(close["azi1"]),
        },
        "polygon": {
            "n_vertices": float(n),
            "perimeter_m": float(perimeter),
            "area_m2": float(area),
            "reversed_unsigned_area_m2": float(area_r),
        },
        "extra_leg_polygon": {
            "perimeter_m": float(perimeter_t),
            "area_m2": float(area_t),
        },
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
