"""Solar position, clear-sky irradiance and plane-of-array irradiance over one day with pvlib.

Entry workflow: warm workers import this module once; main() builds its own Location and series.
The Ineichen model reads the Linke turbidity climatology shipped inside pvlib (no download).
"""

import numpy as np
import pandas as pd
import pvlib

STEP_MIN = 15
N_STEPS = 24 * 60 // STEP_MIN


def _hours(ts, start):
    return float((ts - start) / pd.Timedelta(hours=1))


def main(scenario: dict) -> dict:
    lat, lon = float(scenario["latitude_deg"]), float(scenario["longitude_deg"])
    year, doy = int(scenario["year"]), int(scenario["day_of_year"])
    # Local mean midnight of the date: 00:00 UTC shifted by -lon/15 hours, rounded to whole seconds.
    midnight = (pd.Timestamp(year=year, month=1, day=1, tz="UTC") + pd.Timedelta(days=doy - 1)
                - pd.Timedelta(seconds=round(lon / 15.0 * 3600.0)))
    times = pd.date_range(midnight, periods=N_STEPS, freq=f"{STEP_MIN}min")
    loc = pvlib.location.Location(lat, lon, tz="UTC", altitude=float(scenario["altitude_m"]))
    sp = loc.get_solarposition(times, temperature=float(scenario["temp_air_C"]))

    model = str(scenario["clearsky_model"])
    if model == "ineichen":
        cs = loc.get_clearsky(times, model="ineichen", solar_position=sp)
    else:
        cs = loc.get_clearsky(times, model="simplified_solis", solar_position=sp,
                              aod700=float(scenario["aod700"]),
                              precipitable_water=float(scenario["precipitable_water_cm"]))
    dni_extra = pvlib.irradiance.get_extra_radiation(times)
    airmass = pvlib.atmosphere.get_relative_airmass(sp["apparent_zenith"])
    poa = pvlib.irradiance.get_total_irradiance(
        float(scenario["surface_tilt_deg"]), float(scenario["surface_azimuth_deg"]),
        sp["apparent_zenith"], sp["azimuth"], cs["dni"], cs["ghi"], cs["dhi"],
        dni_extra=dni_extra, airmass=airmass, albedo=float(scenario["albedo"]),
        model=str(scenario["transposition_model"]))
    poa = poa.fillna(0.0)
    aoi = pvlib.irradiance.aoi(float(scenario["surface_tilt_deg"]), float(scenario["surface_azimuth_deg"]),
                               sp["apparent_zenith"], sp["azimuth"])

    rst = pvlib.solarposition.sun_rise_set_transit_spa(pd.DatetimeIndex([midnight + pd.Timedelta(hours=12)]),
                                                       lat, lon, how="numpy", numthreads=1)
    hours = STEP_MIN / 60.0
    samples = []
    for k in range(0, N_STEPS, 60 // STEP_MIN):
        samples.append({
            "hour": float(k * hours),
            "apparent_elevation_deg": float(sp["apparent_elevation"].iloc[k]),
            "azimuth_deg": float(sp["azimuth"].iloc[k]),
            "ghi_W_m2": float(cs["ghi"].iloc[k]),
            "dni_W_m2": float(cs["dni"].iloc[k]),
            "dhi_W_m2": float(cs["dhi"].iloc[k]),
            "poa_global_W_m2": float(poa["poa_global"].iloc[k]),
        })
    up = sp["apparent_elevation"] > 0.0
    return {
        "sunrise_h": _hours(rst["sunrise"].iloc[0], midnight),
        "sunset_h": _hours(rst["sunset"].iloc[0], midnight),
        "transit_h": _hours(rst["transit"].iloc[0], midnight),
        "max_elevation_deg": float(sp["apparent_elevation"].max()),
        "equation_of_time_min": float(sp["equation_of_time"].iloc[N_STEPS // 2]),
        "daily_Wh_m2": {
            "ghi": float(cs["ghi"].sum() * hours),
            "dni": float(cs["dni"].sum() * hours),
            "dhi": float(cs["dhi"].sum() * hours),
            "poa_global": float(poa["poa_global"].sum() * hours),
            "poa_direct": float(poa["poa_direct"].sum() * hours),
            "poa_sky_diffuse": float(poa["poa_sky_diffuse"].sum() * hours),
            "poa_ground_diffuse": float(poa["poa_ground_diffuse"].sum() * hours),
        },
        "min_aoi_daylight_deg": float(np.min(aoi[up])) if bool(up.any()) else 90.0,
        "hourly": samples,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
