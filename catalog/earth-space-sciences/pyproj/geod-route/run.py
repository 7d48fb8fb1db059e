"""Geodesic route, densification and quadrilateral area on a named ellipsoid with pyproj.Geod.

Entry workflow: warm workers import this module once; main() builds its own Geod.
"""

from pyproj import Geod


def main(scenario: dict) -> dict:
    geod = Geod(ellps=str(scenario["ellipsoid"]))
    lon1, lat1 = float(scenario["lon1_deg"]), float(scenario["lat1_deg"])
    lon2, lat2 = float(scenario["lon2_deg"]), float(scenario["lat2_deg"])
    n = int(scenario["n_intermediate"])

    az12, az21, dist = geod.inv(lon1, lat1, lon2, lat2)
    pts = geod.npts(lon1, lat1, lon2, lat2, n)
    lons = [lon1] + [p[0] for p in pts] + [lon2]
    lats = [lat1] + [p[1] for p in pts] + [lat2]
    seg = geod.line_lengths(lons, lats)
    total = geod.line_length(lons, lats)

    frac = float(scenario["fraction"])
    flon, flat, fbaz = geod.fwd(lon1, lat1, az12, frac * dist)

    # Quadrilateral with corners at the two endpoints and the two "mixed" corners, counter-clockwise order
    # as given: (lon1, lat1) -> (lon2, lat1) -> (lon2, lat2) -> (lon1, lat2).
    qlon = [lon1, lon2, lon2, lon1]
    qlat = [lat1, lat1, lat2, lat2]
    area, perim = geod.polygon_area_perimeter(qlon, qlat)

    return {
        "ellipsoid": {"a_m": float(geod.a), "b_m": float(geod.b), "f": float(geod.f), "es": float(geod.es)},
        "inverse": {"az12_deg": float(az12), "az21_deg": float(az21), "distance_m": float(dist)},
        "waypoints": [{"lon_deg": float(lo), "lat_deg": float(la)} for lo, la in pts],
        "segment_lengths_m": [float(s) for s in seg],
        "densified_length_m": float(total),
        "forward_point": {"lon_deg": float(flon), "lat_deg": float(flat), "back_azimuth_deg": float(fbaz)},
        "quad_area_m2": float(area),
        "quad_perimeter_m": float(perim),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
