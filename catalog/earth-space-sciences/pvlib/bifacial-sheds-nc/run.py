"""Front and rear irradiance of a bifacial PV array in long rows with pvlib's infinite-sheds model
(pvlib.bifacial.infinite_sheds.get_irradiance: sky and ground view factors, row-to-row shading), as a designer sizes
the bifacial gain of a row spacing; the half-hourly series of one clear day are written as NetCDF.

Entry workflow: main(dict) -> dict; the NetCDF file goes to $SWR_ARTIFACTS.
"""

import os

import numpy as np
import pandas as pd
from pvlib import irradiance, solarposition
from pvlib.bifacial import infinite_sheds


def _sky(s: dict):
    """Sun position (SPA, nrel_numpy) and a clear-sky Meinel beam with a fixed diffuse fraction, half-hourly."""
    times = pd.date_range("2024-01-01", periods=48, freq="30min", tz="UTC") + pd.Timedelta(
        days=int(s["day_of_year"]) - 1, minutes=15)
    sp = solarposition.get_solarposition(times, float(s["latitude_deg"]), 0.0, method="nrel_numpy")
    zen = sp["apparent_zenith"].to_numpy(float)
    cosz = np.cos(np.radians(zen))
    up = cosz > 0.0
    am = np.where(up, 1.0 / np.where(up, cosz, 1.0), np.inf)
    dni = np.where(up, 1353.0 * 0.7 ** (am**0.678), 0.0)
    dhi = np.where(up, float(s["diffuse_ratio"]) * dni * cosz, 0.0)
    ghi = dni * cosz + dhi
    return times, zen, sp["azimuth"].to_numpy(float), ghi, dhi, dni


def main(s: dict) -> dict:
    import netCDF4

    times, zen, azi, ghi, dhi, dni = _sky(s)
    pitch = float(s["pitch_m"])
    gcr = float(s["collector_width_m"]) / pitch
    res = infinite_sheds.get_irradiance(
        float(s["surface_tilt_deg"]), 180.0, zen, azi, gcr, float(s["height_m"]), pitch, ghi, dhi, dni,
        float(s["albedo"]), model=str(s["sky_model"]), dni_extra=irradiance.get_extra_radiation(times).to_numpy(float),
        bifaciality=float(s["bifaciality"]))
    front = np.asarray(res["poa_front"], dtype=float)
    back = np.asarray(res["poa_back"], dtype=float)
    total = np.asarray(res["poa_global"], dtype=float)
    hours = np.arange(48) * 0.5 + 0.25
    with netCDF4.Dataset(os.path.join(os.environ["SWR_ARTIFACTS"], "bifacial.nc"), "w",
                         format="NETCDF4_CLASSIC") as nc:
        nc.createDimension("time", 48)
        for name, val, units in (("hour_utc", hours, "h"), ("ghi", ghi, "W m-2"), ("poa_front", front, "W m-2"),
                                 ("poa_back", back, "W m-2"), ("poa_global", total, "W m-2"),
                                 ("shaded_fraction_front", np.asarray(res["shaded_fraction_front"], float), "1")):
            var = nc.createVariable(name, "f8", ("time",))
            var.units = units
            var[:] = val
    front_wh, back_wh = float(front.sum() * 0.5), float(back.sum() * 0.5)
    return {
        "series": "bifacial.nc",
        "ground_coverage_ratio": gcr,
        "front_insolation_wh_m2": front_wh,
        "back_insolation_wh_m2": back_wh,
        "total_insolation_wh_m2": float(total.sum() * 0.5),
        "bifacial_gain": float(s["bifaciality"]) * back_wh / front_wh,
        "max_shaded_fraction_front": float(np.max(res["shaded_fraction_front"])),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
