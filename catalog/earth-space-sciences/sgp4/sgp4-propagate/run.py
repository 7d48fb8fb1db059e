"""SGP4 propagation of a satellite built from mean orbital elements (sgp4init), with TEME -> geodetic sub-points."""

import json
import math
import sys

from sgp4.api import WGS72, WGS84, Satrec
from sgp4.propagation import gstime

GRAVITY = {"wgs72": WGS72, "wgs84": WGS84}
SGP4_EPOCH0_JD = 2433281.5  # 1949 December 31 00:00 UT: origin of sgp4init's epoch argument
DEG = math.pi / 180.0
# WGS-84 ellipsoid for geodetic coordinates.
ELL_A = 6378.137
ELL_F = 1.0 / 298.257223563
ELL_E2 = ELL_F * (2.0 - ELL_F)


def geodetic(x, y, z):
    """Earth-fixed Cartesian (km) -> geodetic latitude (deg), longitude (deg), height (km); fixed-point iteration."""
    lon = math.atan2(y, x)
    p = math.hypot(x, y)
    lat = math.atan2(z, p * (1.0 - ELL_E2))
    for _ in range(50):
        s = math.sin(lat)
        n = ELL_A / math.sqrt(1.0 - ELL_E2 * s * s)
        lat = math.atan2(z + n * ELL_E2 * s, p)
    s, c = math.sin(lat), math.cos(lat)
    n = ELL_A / math.sqrt(1.0 - ELL_E2 * s * s)
    h = p / c - n if abs(c) > 1e-8 else abs(z) - n * (1.0 - ELL_E2)
    return lat / DEG, lon / DEG, h


def compute(scn):
    epoch_jd = float(scn["epoch_jd"])
    n_revday = float(scn["mean_motion_rev_day"])
    sat = Satrec()
    sat.sgp4init(
        GRAVITY[str(scn["gravity_model"])], "i", 1,
        epoch_jd - SGP4_EPOCH0_JD,
        float(scn["bstar"]), 0.0, 0.0,
        float(scn["eccentricity"]),
        float(scn["argp_deg"]) * DEG,
        float(scn["inclination_deg"]) * DEG,
        float(scn["mean_anomaly_deg"]) * DEG,
        n_revday * 2.0 * math.pi / 1440.0,
        float(scn["raan_deg"]) * DEG,
    )
    re = sat.radiusearthkm
    states = []
    for t in scn["times_min"]:
        t = float(t)
        err, r, v = sat.sgp4_tsince(t)
        if err != 0:
            raise RuntimeError(f"sgp4 error code {err} at t={t} min")
        theta = gstime(epoch_jd + t / 1440.0)
        ct, st = math.cos(theta), math.sin(theta)
        xe = ct * r[0] + st * r[1]
        ye = -st * r[0] + ct * r[1]
        lat, lon, alt = geodetic(xe, ye, r[2])
        states.append({
            "t_min": t,
            "r_km": [float(c) for c in r],
            "v_km_s": [float(c) for c in v],
            "radius_km": math.sqrt(sum(c * c for c in r)),
            "speed_km_s": math.sqrt(sum(c * c for c in v)),
            "lat_deg": lat,
            "lon_deg": lon,
            "alt_km": alt,
        })
    return {
        "anomalistic_period_min": 2.0 * math.pi / sat.mdot,
        "raan_rate_deg_day": sat.nodedot * 1440.0 / DEG,
        "argp_rate_deg_day": sat.argpdot * 1440.0 / DEG,
        "semi_major_axis_km": sat.a * re,
        "perigee_alt_km": sat.altp * re,
        "apogee_alt_km": sat.alta * re,
        "gmst_epoch_deg": sat.gsto / DEG,
        "states": states,
    }


if __name__ == "__main__":
    scenario = json.load(sys.stdin)
    json.dump(compute(scenario), sys.stdout)
    sys.stdout.write("\n")
