"""Look angles from a ground station with sgp4's legacy (1.x) interface, still common in older tracking code:
sgp4.io.twoline2rv with an sgp4.earth_gravity constant set returns an sgp4.model.Satellite that is propagated to UTC
calendar instants (Satellite.propagate, which goes through sgp4.ext.jday), the instants taken from Julian dates with
sgp4.ext.invjday, and the TEME state turned into azimuth, elevation and range (Greenwich sidereal time from
sgp4.propagation.gstime, WGS-84 station, no polar motion).

Entry workflow: main(dict) -> dict; reads the chosen TLE file.
"""

import math
import tomllib
from pathlib import Path

from sgp4 import earth_gravity
from sgp4.ext import invjday
from sgp4.io import twoline2rv
from sgp4.propagation import gstime

GRAVITY = {"wgs72old": earth_gravity.wgs72old, "wgs72": earth_gravity.wgs72, "wgs84": earth_gravity.wgs84}
DEG = math.pi / 180.0
# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
A_KM, F = CONSTANTS["WGS84_A_KM"], 1.0 / CONSTANTS["WGS84_INV_F"]  # WGS-84 station ellipsoid
E2 = F * (2.0 - F)


def station_ecef(lat: float, lon: float, h_km: float) -> tuple[float, float, float]:
    n = A_KM / math.sqrt(1.0 - E2 * math.sin(lat) ** 2)
    return ((n + h_km) * math.cos(lat) * math.cos(lon), (n + h_km) * math.cos(lat) * math.sin(lon),
            (n * (1.0 - E2) + h_km) * math.sin(lat))


def look(r, jd: float, lat: float, lon: float, h_km: float) -> dict:
    th = gstime(jd)
    x = math.cos(th) * r[0] + math.sin(th) * r[1]
    y = -math.sin(th) * r[0] + math.cos(th) * r[1]
    sx, sy, sz = station_ecef(lat, lon, h_km)
    dx, dy, dz = x - sx, y - sy, r[2] - sz
    south = math.sin(lat) * math.cos(lon) * dx + math.sin(lat) * math.sin(lon) * dy - math.cos(lat) * dz
    east = -math.sin(lon) * dx + math.cos(lon) * dy
    up = math.cos(lat) * math.cos(lon) * dx + math.cos(lat) * math.sin(lon) * dy + math.sin(lat) * dz
    rng = math.sqrt(dx * dx + dy * dy + dz * dz)
    return {"azimuth_deg": math.atan2(east, -south) / DEG % 360.0, "elevation_deg": math.asin(up / rng) / DEG,
            "range_km": rng}


def main(s: dict) -> dict:
    lines = [ln.rstrip() for ln in Path(str(s["tle_file"])).read_text(encoding="ascii").splitlines() if ln.strip()]
    k = 3 * (int(s["satellite_index"]) % (len(lines) // 3))
    sat = twoline2rv(lines[k + 1], lines[k + 2], GRAVITY[str(s["gravity_model"])])
    lat, lon = float(s["station_lat_deg"]) * DEG, float(s["station_lon_deg"]) * DEG
    h_km = float(s["station_alt_m"]) / 1000.0
    rows = []
    for i in range(int(s["n_times"])):
        jd = sat.jdsatepoch + (float(s["start_offset_hours"]) + i * float(s["step_minutes"]) / 60.0) / 24.0
        cal = invjday(jd)
        r, v = sat.propagate(*cal)
        if sat.error:
            raise RuntimeError(f"sgp4 error {sat.error}")
        rows.append({"utc": list(cal[:5]) + [cal[5]], "r_km": list(r), "v_km_s": list(v),
                     **look(r, jd, lat, lon, h_km)})
    return {"name": lines[k].strip(), "satnum": int(sat.satnum), "epoch_jd": float(sat.jdsatepoch), "passes": rows,
            "max_elevation_deg": max(row["elevation_deg"] for row in rows)}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
