"""GHI decomposition into DNI and DHI with pvlib (irradiance.erbs / disc / boland / erbs_driesse / orgill_hollands)
under a pvlib.solarposition.ephemeris sun and Haurwitz clear sky, the half-hourly series written as HDF5.

Entry workflow: main() builds its series from the scenario and writes one HDF5 file to $SWR_ARTIFACTS.
"""

import os

import numpy as np
import pandas as pd
import pvlib

N_SAMPLES = 48  # half-hour midpoints of one day


def _times(s: dict) -> pd.DatetimeIndex:
    """Half-hour midpoints of the local mean solar day, in UTC."""
    day = pd.Timestamp("2023-01-01", tz="UTC") + pd.Timedelta(days=int(s["day_of_year"]) - 1)
    shift = pd.Timedelta(seconds=round(float(s["longitude_deg"]) / 15.0 * 3600.0))
    return pd.DatetimeIndex([day + pd.Timedelta(minutes=30 * k + 15) - shift for k in range(N_SAMPLES)])


def _decompose(model: str, ghi: pd.Series, zenith: pd.Series, times: pd.DatetimeIndex, pressure: float) -> tuple:
    """DNI, DHI and clearness index from the chosen model; DISC gives no DHI, so close it from GHI."""
    if model == "disc":
        out = pvlib.irradiance.disc(ghi, zenith, times, pressure=pressure)
        dni = out["dni"].fillna(0.0)
        dhi = ghi - dni * np.cos(np.radians(zenith))
    else:
        out = getattr(pvlib.irradiance, model)(ghi, zenith, times)
        dni, dhi = out["dni"].fillna(0.0), out["dhi"].fillna(0.0)
    return dni.to_numpy(float), dhi.to_numpy(float), out["kt"].fillna(0.0).to_numpy(float)


def _write(path: str, s: dict, cols: dict) -> None:
    import h5py

    with h5py.File(path, "w") as h5:
        h5.attrs["model"] = str(s["model"])
        h5.attrs["latitude"], h5.attrs["longitude"] = float(s["latitude_deg"]), float(s["longitude_deg"])
        for name, (values, units) in cols.items():
            h5.create_dataset(name, data=np.asarray(values, dtype="f8")).attrs["units"] = units


def main(s: dict) -> dict:
    times = _times(s)
    lat, lon = float(s["latitude_deg"]), float(s["longitude_deg"])
    pressure = float(pvlib.atmosphere.alt2pres(float(s["altitude_m"])))
    sp = pvlib.solarposition.ephemeris(times, lat, lon, pressure=pressure, temperature=12.0)
    u = np.random.default_rng(int(s["seed"])).random(N_SAMPLES)
    ghi = pvlib.clearsky.haurwitz(sp["apparent_zenith"])["ghi"].fillna(0.0) * (1.0 - float(s["cloudiness"]) * u)
    dni, dhi, kt = _decompose(str(s["model"]), ghi, sp["zenith"], times, pressure)
    ghi_a = ghi.to_numpy(float)
    cols = {
        "time_h": (0.25 + 0.5 * np.arange(N_SAMPLES), "h"),
        "zenith": (sp["zenith"].to_numpy(float), "degree"),
        "ghi": (ghi_a, "W m-2"), "dni": (dni, "W m-2"), "dhi": (dhi, "W m-2"), "kt": (kt, "1"),
    }
    _write(os.path.join(os.environ["SWR_ARTIFACTS"], "decomposition.h5"), s, cols)
    g, d = float(ghi_a.sum() * 0.5), float(dhi.sum() * 0.5)
    return {
        "series": "decomposition.h5",
        "daily_ghi_Wh_m2": g,
        "daily_dni_Wh_m2": float(dni.sum() * 0.5),
        "daily_dhi_Wh_m2": d,
        "diffuse_fraction": d / g if g > 0 else 0.0,
        "max_kt": float(kt.max()),
        "n_daylight": int(np.count_nonzero(ghi_a > 0.0)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
