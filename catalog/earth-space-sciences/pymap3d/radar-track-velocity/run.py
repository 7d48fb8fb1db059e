"""Radar plots to geodetic positions and local velocities with pymap3d: enu.aer2enu / enu2aer for the plots,
aer.aer2ecef and aer2geodetic for the positions, ecef.ecef2enuv for the ENU velocity at each plot.

Entry workflow: main() builds its track from the scenario.
"""

import math
import sys

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy if present (2-3 s); none of it is used here

import numpy as np  # noqa: E402
from pymap3d import aer, ecef, enu  # noqa: E402


def _plots(s: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Radar plots of a constant-velocity track in the radar's ENU frame."""
    e0, n0, u0 = enu.aer2enu(float(s["az0_deg"]), float(s["el0_deg"]), float(s["range0_km"]) * 1000.0)
    hdg, v = math.radians(float(s["heading_deg"])), float(s["speed_m_s"])
    t = np.arange(int(s["n_plots"])) * float(s["dt_s"])
    e = e0 + v * math.sin(hdg) * t
    n = n0 + v * math.cos(hdg) * t
    u = u0 + float(s["climb_m_s"]) * t
    az, el, rng = enu.enu2aer(e, n, u)
    return np.asarray(az), np.asarray(el), np.asarray(rng)


def main(s: dict) -> dict:
    site = (float(s["site_lat_deg"]), float(s["site_lon_deg"]), 0.0)
    dt = float(s["dt_s"])
    az, el, rng = _plots(s)
    x, y, z = (np.asarray(c) for c in aer.aer2ecef(az, el, rng, *site))
    lat, lon, h = (np.asarray(c) for c in aer.aer2geodetic(az, el, rng, *site))
    segs = []
    for k in range(len(az) - 1):
        ve, vn, vu = ecef.ecef2enuv((x[k + 1] - x[k]) / dt, (y[k + 1] - y[k]) / dt, (z[k + 1] - z[k]) / dt,
                                    lat[k + 1], lon[k + 1])
        segs.append({"ground_speed_m_s": float(math.hypot(ve, vn)),
                     "track_deg": float(math.degrees(math.atan2(ve, vn)) % 360.0),
                     "vertical_rate_m_s": float(vu)})
    dtrack = (segs[-1]["track_deg"] - segs[0]["track_deg"] + 180.0) % 360.0 - 180.0
    return {
        "plots": [{"az_deg": float(az[k]), "el_deg": float(el[k]), "range_m": float(rng[k]), "lat_deg": float(lat[k]),
                   "lon_deg": float(lon[k]), "height_m": float(h[k])} for k in range(len(az))],
        "segments": segs,
        "mean_ground_speed_m_s": float(np.mean([sg["ground_speed_m_s"] for sg in segs])),
        "track_change_deg": float(dtrack),
        "vertical_rate_change_m_s": segs[-1]["vertical_rate_m_s"] - segs[0]["vertical_rate_m_s"],
    }


if __name__ == "__main__":
    import json

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
