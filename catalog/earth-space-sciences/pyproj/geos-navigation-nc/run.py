"""Geostationary fixed-grid navigation with pyproj: the CRS from the CF geostationary grid mapping (CRS.from_cf, as a
GOES-R ABI file gives it), Transformer.from_crs to its geodetic CRS on the scan-angle grid, and geodesic distances
from the sub-satellite point with Geod(a, rf).inv on the datum's ellipsoid; written as a NetCDF file.

Entry workflow: main() builds the grid from the scenario and writes one NetCDF4-classic file to $SWR_ARTIFACTS.
"""

import os
import tomllib
from pathlib import Path

import numpy as np
from pyproj import CRS, Geod, Transformer

H = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]["GEOS_HEIGHT_M"]


def _write(path: str, sweep: str, x: np.ndarray, y: np.ndarray, grids: dict) -> None:
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.Conventions = "CF-1.8"
        nc.sweep_angle_axis = sweep
        for name, values in (("y", y), ("x", x)):
            nc.createDimension(name, len(values))
            nc.createVariable(name, "f8", (name,)).units = "rad"
            nc[name][:] = values
        for name, (values, units) in grids.items():
            var = nc.createVariable(name, "f8", ("y", "x"), fill_value=np.nan)
            var.units = units
            var[:] = values


def main(s: dict) -> dict:
    lon0, sweep = float(s["sat_lon_deg"]), str(s["sweep"])
    crs = CRS.from_cf({"grid_mapping_name": "geostationary", "perspective_point_height": H,
                       "longitude_of_projection_origin": lon0, "sweep_angle_axis": sweep,
                       "horizontal_datum_name": str(s["datum"])})
    m = float(s["max_scan_rad"])
    x = np.linspace(-m, m, int(s["n_cols"]))
    y = np.linspace(m, -m, int(s["n_rows"]))
    xx, yy = np.meshgrid(x * H, y * H)
    lon, lat = Transformer.from_crs(crs, crs.geodetic_crs, always_xy=True).transform(xx, yy)
    lon, lat = np.asarray(lon, float), np.asarray(lat, float)
    disk = np.isfinite(lon) & np.isfinite(lat)
    lon[~disk], lat[~disk] = np.nan, np.nan
    dist = np.full(lon.shape, np.nan)
    if disk.any():
        geod = Geod(a=crs.ellipsoid.semi_major_metre, rf=crs.ellipsoid.inverse_flattening)
        _, _, d = geod.inv(np.full(disk.sum(), lon0), np.zeros(disk.sum()), lon[disk], lat[disk])
        dist[disk] = d
    grids = {"lat": (lat, "degrees_north"), "lon": (lon, "degrees_east"), "distance": (dist, "m")}
    _write(os.path.join(os.environ["SWR_ARTIFACTS"], "navigation.nc"), sweep, x, y, grids)
    return {
        "navigation": "navigation.nc",
        "n_on_disk": int(disk.sum()),
        "max_distance_m": float(np.nanmax(dist)) if disk.any() else 0.0,
        "lat_range_deg": [float(lat[disk].min()), float(lat[disk].max())] if disk.any() else [],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
