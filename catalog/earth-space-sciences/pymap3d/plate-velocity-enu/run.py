"""Rigid-plate station velocities from an Euler pole with pymap3d: geodetic2ecef positions, omega x r, and the local
frames by ecef.uvw2enu and ned.ecef2nedv, horizontal speed and azimuth by utils.cart2pol.

Entry workflow: main() draws its stations from the scenario's seed.
"""

import math
import sys

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy if present (2-3 s); none of it is used here

import numpy as np  # noqa: E402
import pymap3d as pm  # noqa: E402
from pymap3d import ecef, ned, utils  # noqa: E402

MM = 1000.0


def main(s: dict) -> dict:
    ell = pm.Ellipsoid.from_name(str(s["ellipsoid"]))
    rng = np.random.default_rng(int(s["seed"]))
    n = int(s["n_stations"])
    lat = float(s["lat_c_deg"]) + rng.uniform(-5.0, 5.0, n)
    lon = float(s["lon_c_deg"]) + rng.uniform(-5.0, 5.0, n)
    plat, plon = math.radians(float(s["pole_lat_deg"])), math.radians(float(s["pole_lon_deg"]))
    rate = math.radians(float(s["rate_deg_Myr"])) / 1e6
    omega = rate * np.array([math.cos(plat) * math.cos(plon), math.cos(plat) * math.sin(plon), math.sin(plat)])
    stations = []
    for k in range(n):
        r = np.array(pm.geodetic2ecef(float(lat[k]), float(lon[k]), 0.0, ell=ell), float)
        vx, vy, vz = np.cross(omega, r)
        e, nn, u = ecef.uvw2enu(vx, vy, vz, float(lat[k]), float(lon[k]))
        _, _, d = ned.ecef2nedv(vx, vy, vz, float(lat[k]), float(lon[k]))
        theta, rho = utils.cart2pol(nn, e)
        stations.append({"lat_deg": float(lat[k]), "lon_deg": float(lon[k]), "east_mm_yr": float(e) * MM,
                         "north_mm_yr": float(nn) * MM, "up_mm_yr": float(u) * MM, "down_mm_yr": float(d) * MM,
                         "speed_mm_yr": float(rho) * MM, "azimuth_deg": math.degrees(float(theta)) % 360.0})
    speeds = [st["speed_mm_yr"] for st in stations]
    return {"stations": stations, "fastest_station": int(np.argmax(speeds)), "mean_speed_mm_yr": float(np.mean(speeds))}


if __name__ == "__main__":
    import json

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
