"""A custom map projection assembled from pyproj's conversion classes (pyproj.crs.coordinate_operation:
LambertConformalConic2SPConversion, AlbersEqualAreaConversion, LambertAzimuthalEqualAreaConversion,
TransverseMercatorConversion, StereographicConversion) on a chosen datum (pyproj.crs.GeographicCRS, ProjectedCRS), as a
cartographer defines a national or project grid, with a lat/lon graticule projected through it and written as NetCDF.

Entry workflow: main(dict) -> dict; the NetCDF file goes to $SWR_ARTIFACTS.
"""

import os

import numpy as np
from pyproj import Transformer
from pyproj.crs import GeographicCRS, ProjectedCRS
from pyproj.crs import coordinate_operation as co


def _conversion(s: dict):
    """The conversion named by `method`, centred on (lat_0, lon_0)."""
    lat0, lon0 = float(s["lat_0_deg"]), float(s["lon_0_deg"])
    fe, k = float(s["false_easting_m"]), float(s["scale_factor"])
    sp = float(s["standard_parallel_offset_deg"])
    method = str(s["method"])
    if method == "lcc2sp":
        return co.LambertConformalConic2SPConversion(lat0 - sp, lat0 + sp, lat0, lon0, fe, 0.0)
    if method == "aea":
        return co.AlbersEqualAreaConversion(lat0 - sp, lat0 + sp, lat0, lon0, fe, 0.0)
    if method == "laea":
        return co.LambertAzimuthalEqualAreaConversion(lat0, lon0, fe, 0.0)
    if method == "tmerc":
        return co.TransverseMercatorConversion(lat0, lon0, fe, 0.0, scale_factor_natural_origin=k)
    return co.StereographicConversion(lat0, lon0, fe, 0.0, scale_factor_natural_origin=k)


def main(s: dict) -> dict:
    import netCDF4

    geo = GeographicCRS(datum=str(s["datum"]))
    crs = ProjectedCRS(conversion=_conversion(s), geodetic_crs=geo, name="custom grid")
    tr = Transformer.from_crs(geo, crs, always_xy=True)
    n, half = int(s["n_nodes"]), float(s["half_span_deg"])
    lat = float(s["lat_0_deg"]) + np.linspace(-half, half, n)
    lon = float(s["lon_0_deg"]) + np.linspace(-half, half, n)
    lon2, lat2 = np.meshgrid(lon, lat)
    x, y = tr.transform(lon2, lat2)
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "graticule.nc")
    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.createDimension("lat", n)
        nc.createDimension("lon", n)
        nc.createVariable("lat", "f8", ("lat",)).units = "degrees_north"
        nc.createVariable("lon", "f8", ("lon",)).units = "degrees_east"
        nc["lat"][:], nc["lon"][:] = lat, lon
        for name, val in (("x", x), ("y", y)):
            var = nc.createVariable(name, "f8", ("lat", "lon"))
            var.units = "m"
            var[:] = val
        nc.projection_method = crs.coordinate_operation.method_name
        nc.datum = crs.datum.name
    ell = crs.ellipsoid
    return {
        "graticule": "graticule.nc",
        "method_name": crs.coordinate_operation.method_name,
        "datum_name": crs.datum.name,
        "ellipsoid_name": ell.name,
        "inverse_flattening": float(ell.inverse_flattening),
        "parameter_names": [p.name for p in crs.coordinate_operation.params],
        "x_range_m": [float(x.min()), float(x.max())],
        "y_range_m": [float(y.min()), float(y.max())],
        "south_edge_length_m": float(np.hypot(np.diff(x[0]), np.diff(y[0])).sum()),
        "north_edge_length_m": float(np.hypot(np.diff(x[-1]), np.diff(y[-1])).sum()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
