"""A regional model grid on a map projection with pyproj, written as a CF NetCDF grid: CRS.from_proj4, CRS.to_cf and
CRS.cs_to_cf (the grid-mapping and axis attributes), Transformer.from_crs(...).transform over the grid and
Transformer.transform_bounds for its geographic bounding box.

Entry workflow: main() builds the grid from the scenario and writes one NetCDF4-classic file to $SWR_ARTIFACTS.
"""

import os

import numpy as np
from pyproj import CRS, Transformer

CF_NAME_KEYS = ("reference_ellipsoid_name", "prime_meridian_name", "geographic_crs_name", "horizontal_datum_name",
                "projected_crs_name")


def _crs(s: dict) -> CRS:
    """The projection centred on the grid, as a PROJ string: conics get standard parallels 5 degrees either side."""
    lat = float(s["abs_lat_c_deg"]) * (1.0 if s["hemisphere"] == "north" else -1.0)
    proj = f"+proj={s['projection']} +lat_0={lat!r} +lon_0={float(s['lon_c_deg'])!r} +ellps={s['ellipsoid']}"
    if s["projection"] in ("lcc", "aea"):
        proj += f" +lat_1={lat - 5.0!r} +lat_2={lat + 5.0!r}"
    elif s["projection"] == "tmerc":
        proj += " +k_0=0.9996"
    return CRS.from_proj4(proj + " +units=m +no_defs")


def _write(path: str, crs: CRS, x: np.ndarray, y: np.ndarray, lon: np.ndarray, lat: np.ndarray) -> None:
    """CF grid: projection coordinates, auxiliary lat/lon and the grid-mapping variable."""
    import netCDF4

    cf = {k: v for k, v in crs.to_cf().items() if k != "crs_wkt" and k not in CF_NAME_KEYS}
    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.Conventions = "CF-1.8"
        nc.createDimension("y", len(y))
        nc.createDimension("x", len(x))
        for name, values, attrs in (("x", x, crs.cs_to_cf()[0]), ("y", y, crs.cs_to_cf()[1])):
            var = nc.createVariable(name, "f8", (name,))
            var.setncatts(attrs)
            var[:] = values
        for name, values, units, std in (("lat", lat, "degrees_north", "latitude"),
                                         ("lon", lon, "degrees_east", "longitude")):
            var = nc.createVariable(name, "f8", ("y", "x"))
            var.units, var.standard_name = units, std
            var[:] = values
        var = nc.createVariable("crs", "i4", ())
        var.setncatts({k: (list(v) if isinstance(v, tuple) else v) for k, v in cf.items()})
        var.assignValue(0)


def main(s: dict) -> dict:
    crs = _crs(s)
    dx = float(s["dx_km"]) * 1000.0
    nx, ny = int(s["nx"]), int(s["ny"])
    x = (np.arange(nx) - (nx - 1) / 2.0) * dx
    y = (np.arange(ny) - (ny - 1) / 2.0) * dx
    tr = Transformer.from_crs(crs, crs.geodetic_crs, always_xy=True)
    xx, yy = np.meshgrid(x, y)
    lon, lat = tr.transform(xx, yy)
    _write(os.path.join(os.environ["SWR_ARTIFACTS"], "grid.nc"), crs, x, y, lon, lat)
    corners = [(0, 0), (0, nx - 1), (ny - 1, nx - 1), (ny - 1, 0)]
    return {
        "grid": "grid.nc",
        "corners": [{"lon_deg": float(lon[j, i]), "lat_deg": float(lat[j, i])} for j, i in corners],
        "bounds_deg": [float(v) for v in tr.transform_bounds(x[0], y[0], x[-1], y[-1], densify_pts=21)],
        "grid_mapping_name": str(crs.to_cf()["grid_mapping_name"]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
