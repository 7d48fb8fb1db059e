"""A sun-path diagram with a horizon profile with pvlib (solarposition.get_solarposition, method nrel_numpy, with
refraction from altitude and temperature), drawn as a PNG, and the potential hours of direct sun per month.

Entry workflow: main() computes from the scenario and writes one PNG to $SWR_ARTIFACTS.
"""

import math
import os

import numpy as np
import pandas as pd
from pvlib import solarposition

STEPS = 144  # 10-minute samples per day
HORIZON_AZ = np.arange(0.0, 361.0, 45.0)


def _times(s: dict, month: int) -> pd.DatetimeIndex:
    day = pd.Timestamp(year=int(s["year"]), month=month, day=21, tz="UTC")
    shift = pd.Timedelta(seconds=round(float(s["longitude_deg"]) / 15.0 * 3600.0))
    return pd.DatetimeIndex([day - shift + pd.Timedelta(minutes=10 * k) for k in range(STEPS)])


def main(s: dict) -> dict:
    from PIL import Image

    horizon = [float(v) for v in s["horizon_deg"]]
    hz = np.array(horizon + horizon[:1])
    img = np.zeros((91, 360), dtype=np.uint8)
    for c in range(360):
        img[90 - math.floor(float(np.interp(c + 0.5, HORIZON_AZ, hz))), c] = 60
    times = pd.DatetimeIndex(np.concatenate([_times(s, m) for m in range(1, 13)]))
    sp = solarposition.get_solarposition(times, float(s["latitude_deg"]), float(s["longitude_deg"]),
                                         altitude=float(s["altitude_m"]), method="nrel_numpy",
                                         temperature=float(s["temperature_C"]))
    el_all, az_all = sp["apparent_elevation"].to_numpy(float), sp["azimuth"].to_numpy(float)
    months, total = [], 0.0
    for m in range(1, 13):
        el, az = el_all[(m - 1) * STEPS:m * STEPS], az_all[(m - 1) * STEPS:m * STEPS]
        sunny = el > np.interp(az, HORIZON_AZ, hz)
        for e, a, sun in zip(el, az, sunny):
            if e >= 0.0:
                img[90 - math.floor(e), min(math.floor(a), 359)] = 255 if sun else 128
        idx = np.flatnonzero(sunny)
        hours = len(idx) / 6.0
        total += hours
        months.append({"month": m, "sunny_hours": hours, "max_elevation_deg": float(el.max()),
                       "first_sunny_h": float(idx[0]) / 6.0 if idx.size else None,
                       "last_sunny_h": float(idx[-1]) / 6.0 if idx.size else None})
    Image.fromarray(img).save(os.path.join(os.environ["SWR_ARTIFACTS"], "sunpath.png"))
    return {"diagram": "sunpath.png", "months": months, "total_sunny_hours": total}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
