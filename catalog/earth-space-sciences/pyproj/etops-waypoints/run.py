"""An ETOPS-style route check with pyproj.Geod: evenly spaced waypoints by Geod.inv_intermediate (del_s, azimuths
kept) and vectorised Geod.inv distances to two diversion airports.

Entry workflow: main() computes from the scenario.
"""

import numpy as np
from pyproj import Geod
from pyproj.enums import GeodIntermediateFlag

SHIFT = {"dep": -90.0, "arr": 60.0}  # longitude offsets: a transatlantic-like layout


def _point(s: dict, key: str) -> tuple[float, float]:
    lon, lat = (float(v) for v in s[key])
    return lon + SHIFT[key], lat


def _alternate(s: dict, key: str, lons: np.ndarray, lats: np.ndarray, third: int) -> tuple[float, float]:
    """An alternate airport offset from the waypoint `third` thirds of the way along the route."""
    k = round(third * (len(lons) - 1) / 3)
    dlon, dlat = (float(v) for v in s[key])
    return float(lons[k]) + dlon, float(lats[k]) + dlat


def main(s: dict) -> dict:
    geod = Geod(ellps=str(s["ellipsoid"]))
    (lon1, lat1), (lon2, lat2) = _point(s, "dep"), _point(s, "arr")
    r = geod.inv_intermediate(lon1, lat1, lon2, lat2, del_s=float(s["spacing_km"]) * 1000.0, initial_idx=0,
                              terminus_idx=0, flags=GeodIntermediateFlag.AZIS_KEEP, return_back_azimuth=False)
    lons, lats, azis = np.asarray(r.lons), np.asarray(r.lats), np.asarray(r.azis)
    dists, alts = [], {}
    for third, key in ((1, "alt1"), (2, "alt2")):
        alon, alat = _alternate(s, key, lons, lats, third)
        alts[key] = {"lon_deg": alon, "lat_deg": alat}
        _, _, d = geod.inv(lons, lats, np.full_like(lons, alon), np.full_like(lats, alat))
        dists.append(np.asarray(d))
    d1, d2 = dists
    nearer = np.minimum(d1, d2)
    k = int(np.argmax(nearer))
    limit = float(s["limit_km"]) * 1000.0
    return {
        "route": {"npts": int(r.npts), "del_s_m": float(r.del_s), "dist_m": float(r.dist)},
        "waypoints": [{"lon_deg": float(lons[i]), "lat_deg": float(lats[i]), "azimuth_deg": float(azis[i]),
                       "nearer": "alt1" if d1[i] <= d2[i] else "alt2", "nearer_m": float(nearer[i])}
                      for i in range(len(lons))],
        "alternates": alts,
        "critical_index": k,
        "critical_m": float(nearer[k]),
        "n_beyond_limit": int(np.count_nonzero(nearer > limit)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
