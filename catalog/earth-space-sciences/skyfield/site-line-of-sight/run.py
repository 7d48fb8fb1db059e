"""Line of sight between two ground sites with skyfield's geodesy (skyfield.toposlib): sites on a chosen reference
ellipsoid (wgs84, iers2010 or a custom Geoid), their Earth-fixed ITRS coordinates, the target's elevation, azimuth and
range from the first site ((target - site).at(t).altaz()), refraction of that elevation (earthlib.refraction), the
target's latitude and height re-read on the other ellipsoids (Geoid.latlon_of / height_of), as a radio engineer
plans a microwave link.

Entry workflow: main(dict) -> dict; pure function of the scenario. Builtin timescale (Earth-fixed geometry: the
instant only enters through the frame rotation, which cancels).
"""

from skyfield import earthlib
from skyfield.api import iers2010, load, wgs84
from skyfield.toposlib import Geoid

TS = load.timescale(builtin=True)
T = TS.utc(2025, 1, 1)


def main(s: dict) -> dict:
    custom = Geoid("custom", float(s["custom_radius_km"]) * 1e3, float(s["custom_inverse_flattening"]))
    geoids = {"wgs84": wgs84, "iers2010": iers2010, "custom": custom}
    g = geoids[str(s["ellipsoid"])]
    site = g.latlon(float(s["site_lat_deg"]), float(s["site_lon_deg"]), elevation_m=float(s["site_height_m"]))
    target = g.latlon(float(s["site_lat_deg"]) + float(s["target_dlat_deg"]),
                      float(s["site_lon_deg"]) + float(s["target_dlon_deg"]), elevation_m=float(s["target_height_m"]))
    alt, az, dist = (target - site).at(T).altaz()
    pos = target.at(T)
    reread = {}
    for name, other in geoids.items():
        lat, lon = other.latlon_of(pos)
        reread[name] = {"lat_deg": float(lat.degrees), "height_m": float(other.height_of(pos).m)}
    return {
        "site_itrs_km": [float(x) for x in site.itrs_xyz.km],
        "target_itrs_km": [float(x) for x in target.itrs_xyz.km],
        "elevation_deg": float(alt.degrees),
        "azimuth_deg": float(az.degrees),
        "range_km": float(dist.km),
        "refraction_deg": float(earthlib.refraction(float(alt.degrees), float(s["temperature_C"]),
                                                     float(s["pressure_mbar"]))),
        "target_on_ellipsoids": reread,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
