"""Satellite passes over a ground station with skyfield's EarthSatellite (SGP4) and find_events.

Entry workflow: warm workers import this module once. Offline: the timescale uses skyfield's builtin
leap-second and Delta T tables (load.timescale(builtin=True)); no ephemeris is needed for satellites.
"""

import math

from sgp4.api import WGS72, Satrec, jday
from skyfield.api import EarthSatellite, load, wgs84

TS = load.timescale(builtin=True)
SGP4_EPOCH0_JD = 2433281.5  # origin of sgp4init's epoch argument
DEG = math.pi / 180.0
EVENT_NAMES = ("rise", "culminate", "set")
# What is well-conditioned at each event: the altitude at rise and set is the threshold by definition; at
# culmination the range rate is ~0 by definition and the azimuth swings through 180 deg near the zenith.
EVENT_FIELDS = {"rise": ("az_deg", "range_km", "range_rate_km_s"), "culminate": ("alt_deg", "range_km"),
                "set": ("az_deg", "range_km", "range_rate_km_s")}


def _topo(sat, obs, t):
    diff = (sat - obs).at(t)
    alt, az, dist, _, _, range_rate = diff.frame_latlon_and_rates(obs)
    return {
        "alt_deg": float(alt.degrees),
        "az_deg": float(az.degrees),
        "range_km": float(dist.km),
        "range_rate_km_s": float(range_rate.km_per_s),
    }


def main(scenario: dict) -> dict:
    jd0, fr0 = jday(int(scenario["epoch_year"]), 1, 1, 0, 0, 0.0)
    epoch_jd = jd0 + fr0 + float(scenario["epoch_day_of_year"]) - 1.0
    satrec = Satrec()
    satrec.sgp4init(
        WGS72, "i", 1, epoch_jd - SGP4_EPOCH0_JD,
        float(scenario["bstar"]), 0.0, 0.0,
        float(scenario["eccentricity"]),
        float(scenario["argp_deg"]) * DEG,
        float(scenario["inclination_deg"]) * DEG,
        float(scenario["mean_anomaly_deg"]) * DEG,
        float(scenario["mean_motion_rev_day"]) * 2.0 * math.pi / 1440.0,
        float(scenario["raan_deg"]) * DEG,
    )
    sat = EarthSatellite.from_satrec(satrec, TS)
    obs = wgs84.latlon(float(scenario["observer_lat_deg"]), float(scenario["observer_lon_deg"]),
                       elevation_m=float(scenario["observer_elevation_m"]))
    t0 = sat.epoch
    t1 = TS.tt_jd(t0.tt + float(scenario["window_days"]))
    times, kinds = sat.find_events(obs, t0, t1, altitude_degrees=float(scenario["min_altitude_deg"]))

    events = []
    for t, k in zip(times, kinds):
        row = {"event": EVENT_NAMES[int(k)], "t_min": float((t.tt - t0.tt) * 1440.0)}
        topo = _topo(sat, obs, t)
        row.update({q: topo[q] for q in EVENT_FIELDS[row["event"]]})
        events.append(row)

    geo = sat.at(t0)
    sub = wgs84.geographic_position_of(geo)
    ra, dec, _ = geo.radec(epoch="date")
    return {
        "epoch_state": {
            "gcrs_km": [float(c) for c in geo.position.km],
            "gcrs_km_s": [float(c) for c in geo.velocity.km_per_s],
            "ra_of_date_hours": float(ra.hours),
            "dec_of_date_deg": float(dec.degrees),
            "subpoint_lat_deg": float(sub.latitude.degrees),
            "subpoint_lon_deg": float(sub.longitude.degrees),
            "subpoint_height_km": float(sub.elevation.km),
        },
        "epoch_topocentric": _topo(sat, obs, t0),
        "n_culminations": float(sum(1 for k in kinds if int(k) == 1)),
        "events": events,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
