"""Row-to-row shading of a fixed-tilt array with pvlib's shading module: masking_angle, masking_angle_passias,
sky_diffuse_passias, ground_angle, projected_solar_zenith_angle and shaded_fraction1d under an ephemeris sun.

Entry workflow: main() computes from the scenario.
"""

import numpy as np
import pandas as pd
from pvlib import shading, solarposition

N_SAMPLES = 96
SHADED_MIN = 1e-6  # a shaded fraction below this is the transition's rounding noise, not shade


def _sun(s: dict) -> tuple[np.ndarray, np.ndarray]:
    day = pd.Timestamp("2023-01-01", tz="UTC") + pd.Timedelta(days=int(s["day_of_year"]) - 1)
    shift = pd.Timedelta(seconds=round(float(s["longitude_deg"]) / 15.0 * 3600.0))
    times = pd.DatetimeIndex([day + pd.Timedelta(minutes=15 * k + 7.5) - shift for k in range(N_SAMPLES)])
    sp = solarposition.ephemeris(times, float(s["latitude_deg"]), float(s["longitude_deg"]))
    return sp["zenith"].to_numpy(float), sp["azimuth"].to_numpy(float)


def main(s: dict) -> dict:
    tilt, gcr, width = float(s["surface_tilt_deg"]), float(s["gcr"]), float(s["collector_width_m"])
    h = float(s["slant_height"])
    pitch = width / gcr
    psi = float(shading.masking_angle_passias(tilt, gcr))
    geometry = {
        "masking_angle_deg": float(shading.masking_angle(tilt, gcr, h)),
        "masking_angle_passias_deg": psi,
        "sky_diffuse_loss": float(shading.sky_diffuse_passias(psi)),
        "ground_angle_deg": float(shading.ground_angle(tilt, gcr, h)),
        "pitch_m": pitch,
    }
    zen, azi = _sun(s)
    day = zen < 90.0
    axis_az = float(s["surface_azimuth_deg"]) - 90.0
    psz = np.asarray(shading.projected_solar_zenith_angle(zen[day], azi[day], 0.0, axis_az), float)
    frac = np.asarray(shading.shaded_fraction1d(zen[day], azi[day], axis_az, tilt, collector_width=width, pitch=pitch,
                                                shading_row_rotation=tilt), float)
    hours = 0.125 + 0.25 * np.flatnonzero(day)
    return {
        "geometry": geometry,
        "samples": [{"hour": float(hours[i]), "projected_zenith_deg": float(psz[i]), "shaded_fraction": float(frac[i])}
                    for i in range(len(hours))],
        "shaded_hours": float(frac.sum() * 0.25),
        "max_shaded_fraction": float(frac.max()) if frac.size else 0.0,
        "n_shaded": int(np.count_nonzero(frac > SHADED_MIN)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
