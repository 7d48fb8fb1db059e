"""Project two WGS 84 points into several projected CRSs with pyproj and report map distortion factors.

Entry workflow: warm workers import this module once; main() builds its own transformers. Every CRS uses
the WGS 84 datum, so PROJ needs no transformation grids (network access is disabled).
"""

import math

from pyproj import CRS, Geod, Proj, Transformer, network

network.set_network_enabled(False)
WGS84 = CRS.from_epsg(4326)
GEOD = Geod(ellps="WGS84")
FIXED = {
    "web_mercator": CRS.from_epsg(3857),
    "equal_earth": CRS.from_epsg(8857),
    "robinson": CRS.from_user_input("ESRI:54030"),
}


def _project(crs, lons, lats):
    tr = Transformer.from_crs(WGS84, crs, always_xy=True)
    xs, ys = tr.transform(lons, lats)
    f = Proj(crs).get_factors(lons[0], lats[0])
    return {
        "a_xy_m": [float(xs[0]), float(ys[0])],
        "b_xy_m": [float(xs[1]), float(ys[1])],
        "grid_distance_m": float(math.hypot(xs[1] - xs[0], ys[1] - ys[0])),
        "meridional_scale": float(f.meridional_scale),
        "parallel_scale": float(f.parallel_scale),
        "areal_scale": float(f.areal_scale),
        "angular_distortion_deg": float(f.angular_distortion),
        "meridian_convergence_deg": float(f.meridian_convergence),
    }


def main(scenario: dict) -> dict:
    lon_a, lat_a = float(scenario["lon_deg"]), float(scenario["lat_deg"])
    lon_b = lon_a + float(scenario["dlon_deg"])
    lat_b = lat_a + float(scenario["dlat_deg"])
    lons, lats = [lon_a, lon_b], [lat_a, lat_b]
    h = float(scenario["height_m"])

    zone = int(math.floor((lon_a + 180.0) / 6.0)) % 60 + 1
    utm_epsg = (32600 if lat_a >= 0.0 else 32700) + zone
    polar_epsg = 3413 if lat_a >= 0.0 else 3031
    sign = 1.0 if lat_a >= 0.0 else -1.0
    lat1 = sign * float(scenario["lcc_lat1_deg"])
    lat2 = sign * float(scenario["lcc_lat2_deg"])
    central_meridian = zone * 6.0 - 183.0
    lcc = CRS.from_proj4(
        f"+proj=lcc +lat_1={lat1!r} +lat_2={lat2!r} +lat_0={0.5 * (lat1 + lat2)!r} +lon_0={central_meridian!r} "
        "+x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs"
    )

    projections = {
        "utm": _project(CRS.from_epsg(utm_epsg), lons, lats),
        "polar_stereographic": _project(CRS.from_epsg(polar_epsg), lons, lats),
        "lcc": _project(lcc, lons, lats),
    }
    for name, crs in FIXED.items():
        projections[name] = _project(crs, lons, lats)

    inv = Transformer.from_crs(lcc, WGS84, always_xy=True)
    back_lon, back_lat = inv.transform(*projections["lcc"]["b_xy_m"])
    ecef = Transformer.from_crs(WGS84.to_3d(), CRS.from_epsg(4978), always_xy=True)
    x, y, z = ecef.transform(lon_a, lat_a, h)
    _, _, geodesic = GEOD.inv(lon_a, lat_a, lon_b, lat_b)

    return {
        "utm_epsg": float(utm_epsg),
        "polar_epsg": float(polar_epsg),
        "projections": {k: projections[k] for k in sorted(projections)},
        "geodesic_distance_m": float(geodesic),
        "lcc_roundtrip_b_deg": [float(back_lon), float(back_lat)],
        "ecef_a_m": [float(x), float(y), float(z)],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
