"""Soiling losses of a PV array under generated hourly rain with pvlib's soiling models (soiling.hsu and
soiling.kimber with manual washes), the hourly series written as HDF5.

Entry workflow: main() draws its rainfall from the scenario's seed and writes one HDF5 file to $SWR_ARTIFACTS.
"""

import os

import numpy as np
import pandas as pd
from pvlib import soiling

UG = 1e-6  # g per ug


def _rain(s: dict) -> pd.Series:
    """Hourly rain: an hour is rainy with the given probability, its rain uniform below the maximum."""
    times = pd.date_range("2023-03-01", periods=int(s["n_days"]) * 24, freq="h")
    rng = np.random.default_rng(int(s["seed"]))
    u = rng.random(len(times))
    v = rng.random(len(times))
    rain = np.where(u < float(s["rain_hour_probability"]), float(s["max_rain_mm_h"]) * v, 0.0)
    return pd.Series(rain, index=times)


def _washes(s: dict, times: pd.DatetimeIndex) -> list:
    every = int(s["wash_every_days"])
    if every == 0:
        return []
    return [d.date() for d in pd.date_range(times[0], times[-1], freq=f"{every}D")[1:]]


def main(s: dict) -> dict:
    import h5py

    rain = _rain(s)
    thr = float(s["cleaning_threshold_mm"])
    pm25 = float(s["pm2_5_ug_m3"]) * UG
    pm10 = (float(s["pm2_5_ug_m3"]) + float(s["pm10_extra_ug_m3"])) * UG
    hsu = soiling.hsu(rain, thr, float(s["surface_tilt_deg"]), pm25, pm10).to_numpy(float)
    kim = soiling.kimber(rain, thr, float(s["soiling_loss_rate"]), grace_period=14, max_soiling=0.3,
                         manual_wash_dates=_washes(s, rain.index)).to_numpy(float)
    r = rain.to_numpy(float)
    with h5py.File(os.path.join(os.environ["SWR_ARTIFACTS"], "soiling.h5"), "w") as h5:
        for name, values, units in (("hour", np.arange(len(r), dtype=float), "h"), ("rainfall", r, "mm"),
                                    ("hsu_soiling_ratio", hsu, "1"), ("kimber_soiling_loss", kim, "1")):
            h5.create_dataset(name, data=values).attrs["units"] = units
    return {
        "series": "soiling.h5",
        "total_rain_mm": float(r.sum()),
        "rain_hours": int(np.count_nonzero(r > 0.0)),
        "hsu_mean_ratio": float(hsu.mean()), "hsu_min_ratio": float(hsu.min()), "hsu_final_ratio": float(hsu[-1]),
        "kimber_mean_loss": float(kim.mean()), "kimber_max_loss": float(kim.max()),
        "kimber_final_loss": float(kim[-1]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
