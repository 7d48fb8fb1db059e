"""A projected CRS from the EPSG registry inspected with pyproj (CRS.from_epsg, geodetic_crs, datum, ellipsoid,
coordinate_operation params, axis_info, area_of_use) and sample points projected with Transformer.from_crs, with the
CRSs' own axis order or always_xy.

Entry workflow: main() draws its points from the scenario's seed.
"""

import numpy as np
from pyproj import CRS, Transformer


def _describe(crs: CRS) -> dict:
    ell, op = crs.ellipsoid, crs.coordinate_operation
    return {
        "name": crs.name,
        "geodetic_crs": crs.geodetic_crs.name,
        "datum": crs.datum.name,
        "ellipsoid": {"name": ell.name, "semi_major_m": float(ell.semi_major_metre),
                      "inverse_flattening": float(ell.inverse_flattening)},
        "method": op.method_name,
        "parameters": [{"name": p.name, "value": float(p.value), "unit": p.unit_name} for p in op.params],
        "axes": [{"abbrev": a.abbrev, "direction": a.direction, "unit": a.unit_name} for a in crs.axis_info],
        "area_of_use": [float(v) for v in crs.area_of_use.bounds],
    }


def main(s: dict) -> dict:
    crs = CRS.from_epsg(int(s["epsg"]))
    west, south, east, north = crs.area_of_use.bounds
    f = np.random.default_rng(int(s["seed"])).uniform(0.05, 0.95, (int(s["n_points"]), 2))
    lon = west + f[:, 0] * (east - west)
    lat = south + f[:, 1] * (north - south)
    xy = bool(s["always_xy"])
    tr = Transformer.from_crs(crs.geodetic_crs, crs, always_xy=xy)
    a, b = tr.transform(lon, lat) if xy else tr.transform(lat, lon)
    return {
        "crs": _describe(crs),
        "points": [{"lon_deg": float(lon[k]), "lat_deg": float(lat[k]), "first": float(a[k]), "second": float(b[k])}
                   for k in range(len(lon))],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
