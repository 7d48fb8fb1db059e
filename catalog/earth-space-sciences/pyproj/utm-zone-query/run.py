"""UTM zones of a field area from PROJ's CRS database with pyproj (pyproj.database.query_utm_crs_info with an
AreaOfInterest, intersecting and containing), and field points projected into their zones.

Entry workflow: main() draws its points from the scenario's seed.
"""

import numpy as np
from pyproj import Transformer
from pyproj.aoi import AreaOfInterest
from pyproj.database import query_utm_crs_info


def _inside(bounds: tuple, lon: float, lat: float) -> bool:
    w, s, e, n = bounds
    return w <= lon <= e and s <= lat <= n


def main(s: dict) -> dict:
    lon_c, lat_c = float(s["lon_c_deg"]), float(s["lat_c_deg"])
    hw, hh = float(s["width_deg"]) / 2.0, float(s["height_deg"]) / 2.0
    west, east, south, north = lon_c - hw, lon_c + hw, lat_c - hh, lat_c + hh
    aoi = AreaOfInterest(west, south, east, north)
    hits = query_utm_crs_info(datum_name="WGS 84", area_of_interest=aoi)
    whole = query_utm_crs_info(datum_name="WGS 84", area_of_interest=aoi, contains=True)
    rng = np.random.default_rng(int(s["seed"]))
    n = int(s["n_points"])
    lon = rng.uniform(west, east, n)
    lat = rng.uniform(south, north, n)
    points, used, transformers = [], set(), {}
    for k in range(n):
        info = next(c for c in hits if _inside(tuple(c.area_of_use.bounds), float(lon[k]), float(lat[k])))
        code = f"{info.auth_name}:{info.code}"
        tr = transformers.setdefault(code, Transformer.from_crs("EPSG:4326", code, always_xy=True))
        x, y = tr.transform(float(lon[k]), float(lat[k]))
        used.add(code)
        points.append({"lon_deg": float(lon[k]), "lat_deg": float(lat[k]), "zone": code, "easting_m": float(x),
                       "northing_m": float(y)})
    return {
        "intersecting": [{"code": f"{c.auth_name}:{c.code}", "name": c.name} for c in hits],
        "containing": [{"code": f"{c.auth_name}:{c.code}", "name": c.name} for c in whole],
        "points": points,
        "n_zones_used": len(used),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
