"""A rotated-pole climate model grid with pyproj: CRS.from_cf for the rotated_latitude_longitude grid mapping and
Transformer.from_crs both ways between rotated and geographic coordinates.

Entry workflow: main() draws its stations from the scenario's seed.
"""

import numpy as np
from pyproj import CRS, Transformer


def main(s: dict) -> dict:
    crs = CRS.from_cf({
        "grid_mapping_name": "rotated_latitude_longitude",
        "grid_north_pole_latitude": float(s["pole_lat_deg"]),
        "grid_north_pole_longitude": float(s["pole_lon_deg"]),
        "north_pole_grid_longitude": float(s["north_pole_grid_lon_deg"]),
    })
    d, nx, ny = float(s["spacing_deg"]), int(s["nx"]), int(s["ny"])
    r0, r1 = float(s["rlon_min_deg"]), float(s["rlon_min_deg"]) + (nx - 1) * d
    q0, q1 = float(s["rlat_min_deg"]), float(s["rlat_min_deg"]) + (ny - 1) * d
    to_geo = Transformer.from_crs(crs, "EPSG:4326", always_xy=True)
    corners = [to_geo.transform(x, y) for x, y in ((r0, q0), (r1, q0), (r1, q1), (r0, q1))]
    clon, clat = to_geo.transform((r0 + r1) / 2.0, (q0 + q1) / 2.0)
    rng = np.random.default_rng(int(s["seed"]))
    spread = 0.75 * max(nx, ny) * d
    to_rot = Transformer.from_crs("EPSG:4326", crs, always_xy=True)
    stations = []
    for _ in range(int(s["n_stations"])):
        lon = clon + float(rng.uniform(-spread, spread))
        lat = clat + float(rng.uniform(-spread, spread))
        rlon, rlat = to_rot.transform(lon, lat)
        inside = bool(r0 <= rlon <= r1 and q0 <= rlat <= q1)
        stations.append({"lon_deg": lon, "lat_deg": lat, "rlon_deg": float(rlon), "rlat_deg": float(rlat),
                         "inside": inside})
    return {
        "method": crs.coordinate_operation.method_name,
        "corners": [{"lon_deg": float(a), "lat_deg": float(b)} for a, b in corners],
        "centre": {"lon_deg": float(clon), "lat_deg": float(clat)},
        "stations": stations,
        "n_inside": sum(st["inside"] for st in stations),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
