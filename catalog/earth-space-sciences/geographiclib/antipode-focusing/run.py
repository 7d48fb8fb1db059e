"""Geodesics focusing at an epicentre's antipode with geographiclib: a fan of ArcDirectLine / ArcPosition rays to
arc 180 degrees (reduced length, geodesic scale) and nearly antipodal inverse problems (the astroid start).

Entry workflow: main() draws its stations from the scenario's seed.
"""

import numpy as np
from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84


def _rays(lat: float, lon: float, n: int) -> list[dict]:
    """Each azimuth's point at arc 180 and its distance from the exact antipode."""
    rays = []
    for k in range(n):
        azi = 360.0 * (k + 0.25) / n
        p = G.ArcDirectLine(lat, lon, azi, 180.0, Geodesic.ALL).ArcPosition(180.0, Geodesic.ALL | Geodesic.LONG_UNROLL)
        miss = G.Inverse(p["lat2"], p["lon2"], -lat, lon + 180.0)["s12"]
        rays.append({"azi_deg": azi, "lat_deg": p["lat2"], "lon_deg": p["lon2"], "s12_m": p["s12"],
                     "m12_m": p["m12"], "M12": p["M12"], "miss_m": miss})
    return rays


def main(s: dict) -> dict:
    lat, lon = float(s["lat_deg"]), float(s["lon_deg"])
    rays = _rays(lat, lon, int(s["n_rays"]))
    rng = np.random.default_rng(int(s["seed"]))
    d = float(s["station_spread_deg"])
    stations = []
    for _ in range(int(s["n_stations"])):
        slat = float(np.clip(-lat + rng.uniform(-d, d), -90.0, 90.0))
        slon = lon + 180.0 + float(rng.uniform(-d, d))
        r = G.Inverse(lat, lon, slat, slon, Geodesic.ALL)
        stations.append({"lat_deg": slat, "lon_deg": slon, "s12_m": r["s12"], "azi1_deg": r["azi1"],
                         "azi2_deg": r["azi2"], "m12_m": r["m12"]})
    lengths = [st["s12_m"] for st in stations]
    return {
        "rays": rays,
        "caustic_m": max(r["miss_m"] for r in rays),
        "stations": stations,
        "shortest_station": int(np.argmin(lengths)),
        "longest_station": int(np.argmax(lengths)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
