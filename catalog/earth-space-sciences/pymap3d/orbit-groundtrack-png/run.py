"""Ground track and station visibility of a circular orbit with pymap3d: ECI -> ECEF by the Vallado sidereal
rotation (eci.eci2ecef with force_non_astropy, sidereal.greenwichsrt/juliandate), ecef2geodetic and ecef2aer, the
track drawn as a one-pixel-per-degree PNG map.

Entry workflow: main() builds its orbit from the scenario and writes one PNG to $SWR_ARTIFACTS.
"""

import logging
import math
import os
import sys
import tomllib
from datetime import datetime, timedelta
from pathlib import Path

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy if present (2-3 s); the Vallado path needs none

import numpy as np  # noqa: E402
import pymap3d as pm  # noqa: E402

CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
A_WGS84, MU_EARTH = CONSTANTS["A_WGS84"], CONSTANTS["MU_EARTH"]


def _eci(s: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[datetime]]:
    """ECI positions of the circular orbit at every step, and the steps' UTC datetimes."""
    r = A_WGS84 + float(s["altitude_km"]) * 1000.0
    n_mot = math.sqrt(MU_EARTH / r**3)
    k = np.arange(int(s["n_steps"]))
    step = int(s["step_s"])
    u = math.radians(float(s["arg_lat0_deg"])) + n_mot * k * step
    inc, raan = math.radians(float(s["inclination_deg"])), math.radians(float(s["raan_deg"]))
    x = r * (np.cos(u) * math.cos(raan) - np.sin(u) * math.cos(inc) * math.sin(raan))
    y = r * (np.cos(u) * math.sin(raan) + np.sin(u) * math.cos(inc) * math.cos(raan))
    z = r * np.sin(u) * math.sin(inc)
    t0 = datetime(2024, 1, 1) + timedelta(days=int(s["day_of_year"]) - 1)
    return x, y, z, [t0 + timedelta(seconds=int(i) * step) for i in k]


def _pixel(lat: float, lon: float) -> tuple[int, int]:
    return min(math.floor(90.0 - lat), 179), min(math.floor(lon + 180.0), 359)


def _draw(path: str, lat: np.ndarray, lon: np.ndarray, vis: np.ndarray, station: tuple[float, float]) -> None:
    from PIL import Image

    img = np.zeros((180, 360), dtype=np.uint8)
    for la, lo, v in zip(lat, lon, vis):
        img[_pixel(float(la), float(lo))] = 160 if v else 255
    img[_pixel(*station)] = 80
    Image.fromarray(img).save(path)


def main(s: dict) -> dict:
    logging.disable(logging.WARNING)  # pymap3d warns that its numpy ECI path is less accurate than astropy's
    x, y, z, times = _eci(s)
    xe, ye, ze = pm.eci2ecef(x, y, z, times, force_non_astropy=True)
    lat, lon, h = pm.ecef2geodetic(xe, ye, ze)
    mid = len(lat) // 2
    slat = min(max(float(lat[mid]) + float(s["station_dlat_deg"]), -89.0), 89.0)
    slon = (float(lon[mid]) + float(s["station_dlon_deg"]) + 180.0) % 360.0 - 180.0
    _, el, rng = pm.ecef2aer(xe, ye, ze, slat, slon, 0.0)
    vis = el >= float(s["elevation_mask_deg"])
    _draw(os.path.join(os.environ["SWR_ARTIFACTS"], "groundtrack.png"), lat, lon, vis, (slat, slon))
    idx = np.flatnonzero(vis)
    return {
        "map": "groundtrack.png",
        "track": [{"lat_deg": float(lat[k]), "lon_deg": float(lon[k]), "height_m": float(h[k]),
                   "elevation_deg": float(el[k])} for k in range(len(lat))],
        "n_visible": int(vis.sum()),
        "max_elevation_deg": float(el.max()),
        "max_elevation_step": int(np.argmax(el)),
        "min_range_m": float(rng.min()),
        "first_visible_step": int(idx[0]) if idx.size else -1,
        "last_visible_step": int(idx[-1]) if idx.size else -1,
    }


if __name__ == "__main__":
    import json

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
