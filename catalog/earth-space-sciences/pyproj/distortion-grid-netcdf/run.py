"""Distortion of a world map projection over a grid with pyproj: Proj forward and Proj.get_factors (scale factors,
areal scale, angular distortion, meridian convergence, Tissot semi-axes), written as a CF-style NetCDF grid.

Entry workflow: main() builds the grid from the scenario and writes one NetCDF4-classic file to $SWR_ARTIFACTS.
"""

import os

import numpy as np
from pyproj import Proj

FACTORS = {  # variable: (Factors attribute, units)
    "meridional_scale": ("meridional_scale", "1"), "parallel_scale": ("parallel_scale", "1"),
    "areal_scale": ("areal_scale", "1"), "angular_distortion": ("angular_distortion", "degree"),
    "meridian_convergence": ("meridian_convergence", "degree"),
    "tissot_semimajor": ("tissot_semimajor", "1"), "tissot_semiminor": ("tissot_semiminor", "1"),
}


def _proj_string(s: dict) -> str:
    shape = "+ellps=WGS84" if s["shape"] == "WGS84" else "+R=6371000"
    proj = f"+proj={s['projection']} +lon_0={float(s['lon_0_deg'])!r} {shape}"
    if s["projection"] == "eqdc":
        proj += " +lat_1=20 +lat_2=50"
    elif s["projection"] == "aeqd":
        proj += f" +lat_0={(float(s['lat_min_deg']) + float(s['lat_max_deg'])) / 2.0!r}"
    return proj


def _write(path: str, proj: str, lat: np.ndarray, lon: np.ndarray, grids: dict) -> None:
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.Conventions = "CF-1.8"
        nc.proj = proj
        for name, values, units in (("lat", lat, "degrees_north"), ("lon", lon, "degrees_east")):
            nc.createDimension(name, len(values))
            nc.createVariable(name, "f8", (name,)).units = units
            nc[name][:] = values
        for name, (values, units) in grids.items():
            var = nc.createVariable(name, "f8", ("lat", "lon"))
            var.units = units
            var[:] = values


def main(s: dict) -> dict:
    proj = _proj_string(s)
    p = Proj(proj)
    lat = np.linspace(float(s["lat_min_deg"]), float(s["lat_max_deg"]), int(s["n_lat"]))
    lon = float(s["lon_0_deg"]) + np.linspace(-170.0, 170.0, int(s["n_lon"]))
    lon2, lat2 = np.meshgrid(lon, lat)
    x, y = p(lon2, lat2)
    f = p.get_factors(lon2, lat2)
    grids = {"x": (np.asarray(x), "m"), "y": (np.asarray(y), "m")}
    grids |= {name: (np.asarray(getattr(f, attr)), units) for name, (attr, units) in FACTORS.items()}
    _write(os.path.join(os.environ["SWR_ARTIFACTS"], "distortion.nc"), proj, lat, lon, grids)
    ang, areal = grids["angular_distortion"][0], grids["areal_scale"][0]
    j, i = np.unravel_index(int(np.argmax(ang)), ang.shape)
    return {
        "factors": "distortion.nc",
        "max_angular_distortion_deg": float(ang[j, i]),
        "max_angular_distortion_lat_deg": float(lat[j]),
        "max_angular_distortion_dlon_deg": abs(float(lon[i]) - float(s["lon_0_deg"])),
        "min_areal_scale": float(areal.min()),
        "max_areal_scale": float(areal.max()),
        "share_low_distortion": float(np.mean(ang < 10.0)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
