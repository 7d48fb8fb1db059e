"""A single-axis tracker on sloped terrain with pvlib: tracking.singleaxis with backtracking and cross-axis tilt
(calc_axis_tilt, calc_cross_axis_tilt) under the analytical sun (declination_spencer71, equation_of_time_spencer71,
hour_angle, solar_zenith_analytical, solar_azimuth_analytical), the day's series written as NetCDF.

Entry workflow: main() builds its series from the scenario and writes one NetCDF4-classic file to $SWR_ARTIFACTS.
"""

import os

import numpy as np
import pandas as pd
from pvlib import solarposition, tracking

N_SAMPLES = 96  # quarter-hour midpoints of one day


def _sun(s: dict) -> tuple[np.ndarray, np.ndarray]:
    """Analytical solar zenith and azimuth (degrees) at the day's quarter-hour midpoints."""
    doy = int(s["day_of_year"])
    lat, lon = float(s["latitude_deg"]), float(s["longitude_deg"])
    day = pd.Timestamp("2023-01-01", tz="UTC") + pd.Timedelta(days=doy - 1)
    shift = pd.Timedelta(seconds=round(lon / 15.0 * 3600.0))
    times = pd.DatetimeIndex([day + pd.Timedelta(minutes=15 * k + 7.5) - shift for k in range(N_SAMPLES)])
    decl = solarposition.declination_spencer71(doy)
    ha = np.radians(np.asarray(solarposition.hour_angle(times, lon, solarposition.equation_of_time_spencer71(doy))))
    zen = solarposition.solar_zenith_analytical(np.radians(lat), ha, decl)
    azi = solarposition.solar_azimuth_analytical(np.radians(lat), ha, decl, zen)
    return np.degrees(np.asarray(zen, float)), np.degrees(np.asarray(azi, float))


def _write(path: str, tilts: dict, cols: dict) -> None:
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.title = "Single-axis tracker day"
        nc.Conventions = "CF-1.8"
        for k, v in tilts.items():
            nc.setncattr(k, float(v))
        nc.createDimension("time", N_SAMPLES)
        for name, (values, units) in cols.items():
            var = nc.createVariable(name, "f8", ("time",))
            var.units = units
            var[:] = np.ma.masked_invalid(values)


def main(s: dict) -> dict:
    zen, azi = _sun(s)
    slope_az, slope_tilt = float(s["slope_azimuth_deg"]), float(s["slope_tilt_deg"])
    axis_az = float(s["axis_azimuth_deg"])
    axis_tilt = float(tracking.calc_axis_tilt(slope_az, slope_tilt, axis_az))
    cross = float(tracking.calc_cross_axis_tilt(slope_az, slope_tilt, axis_az, axis_tilt))
    tr = tracking.singleaxis(zen, azi, axis_tilt=axis_tilt, axis_azimuth=axis_az,
                             max_angle=float(s["max_angle_deg"]), backtrack=bool(s["backtrack"]),
                             gcr=float(s["gcr"]), cross_axis_tilt=cross)
    theta, aoi = np.asarray(tr["tracker_theta"], float), np.asarray(tr["aoi"], float)
    cols = {
        "time": (0.125 + 0.25 * np.arange(N_SAMPLES), "h"),
        "solar_zenith": (zen, "degree"), "solar_azimuth": (azi, "degree"),
        "tracker_theta": (theta, "degree"), "aoi": (aoi, "degree"),
        "surface_tilt": (np.asarray(tr["surface_tilt"], float), "degree"),
        "surface_azimuth": (np.asarray(tr["surface_azimuth"], float), "degree"),
    }
    tilts = {"axis_tilt": axis_tilt, "axis_azimuth": axis_az, "cross_axis_tilt": cross}
    _write(os.path.join(os.environ["SWR_ARTIFACTS"], "tracker.nc"), tilts, cols)
    day = zen <= 90.0
    return {
        "series": "tracker.nc",
        "axis_tilt_deg": axis_tilt,
        "cross_axis_tilt_deg": cross,
        "n_daylight": int(day.sum()),
        "max_abs_theta_deg": float(np.nanmax(np.abs(theta[day]))) if day.any() else 0.0,
        "mean_aoi_deg": float(np.mean(aoi[day])) if day.any() else 0.0,
        "beam_factor_h": float(np.sum(np.cos(np.radians(aoi[day]))) * 0.25),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
