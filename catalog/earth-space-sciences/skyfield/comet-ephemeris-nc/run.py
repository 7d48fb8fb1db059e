"""A comet's heliocentric ephemeris from its osculating perihelion elements with skyfield's two-body Kepler
propagator (skyfield.data.mpc.comet_orbit -> keplerlib), written as a NetCDF table, and the osculating elements
recovered from the propagated state (skyfield.elementslib.osculating_elements_of in the J2000 ecliptic).

Entry workflow: main(dict) -> dict; writes one NetCDF4-classic file to $SWR_ARTIFACTS. Offline: builtin timescale.
"""

import os

import numpy as np
import pandas as pd
from skyfield.api import load
from skyfield.constants import GM_SUN_Pitjeva_2005_km3_s2 as GM_SUN
from skyfield.data.mpc import comet_orbit
from skyfield.data.spice import inertial_frames
from skyfield.elementslib import osculating_elements_of
from skyfield.framelib import ecliptic_J2000_frame

TS = load.timescale(builtin=True)
ECLIPJ2000 = inertial_frames["ECLIPJ2000"]


def orbit(s: dict):
    """The comet as an MPC comets-file row: perihelion time (TT calendar date) and elements in the J2000 ecliptic."""
    row = pd.Series({
        "designation": "SWR comet",
        "perihelion_year": int(s["perihelion_year"]),
        "perihelion_month": int(s["perihelion_month"]),
        "perihelion_day": float(s["perihelion_day"]),
        "perihelion_distance_au": float(s["perihelion_distance_au"]),
        "eccentricity": float(s["eccentricity"]),
        "argument_of_perihelion_degrees": float(s["argp_deg"]),
        "longitude_of_ascending_node_degrees": float(s["node_deg"]),
        "inclination_degrees": float(s["inclination_deg"]),
    })
    return comet_orbit(row, TS, GM_SUN)


def write(path: str, cols: dict) -> None:
    """One NetCDF4-classic file: dimension time, one float64 variable per column with units and long_name."""
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.title = "Two-body heliocentric comet ephemeris"
        nc.center = "Sun"
        nc.frame = "ICRF"
        nc.createDimension("time", len(cols["tt_jd"][0]))
        for name, (values, units, long_name) in cols.items():
            var = nc.createVariable(name, "f8", ("time",))
            var.units, var.long_name = units, long_name
            var[:] = values


def main(s: dict) -> dict:
    comet = orbit(s)
    n = int(s["n_points"])
    offsets = (np.arange(n) - (n - 1) / 2.0) * float(s["step_days"])
    t = TS.tt_jd(comet.epoch.tt + offsets)
    pos = comet.at(t)
    xyz, vel = pos.position.au, pos.velocity.au_per_d
    lat, lon, dist = pos.frame_latlon(ecliptic_J2000_frame)
    el = osculating_elements_of(comet.at(t[-1]), ECLIPJ2000)
    cols = {
        "tt_jd": (t.tt, "d", "Terrestrial Time Julian date"),
        "x": (xyz[0], "au", "heliocentric ICRF x"),
        "y": (xyz[1], "au", "heliocentric ICRF y"),
        "z": (xyz[2], "au", "heliocentric ICRF z"),
        "vx": (vel[0], "au/d", "heliocentric ICRF velocity x"),
        "vy": (vel[1], "au/d", "heliocentric ICRF velocity y"),
        "vz": (vel[2], "au/d", "heliocentric ICRF velocity z"),
        "distance": (dist.au, "au", "heliocentric distance"),
        "ecliptic_lon": (lon.degrees, "degree", "heliocentric ecliptic longitude, J2000"),
        "ecliptic_lat": (lat.degrees, "degree", "heliocentric ecliptic latitude, J2000"),
    }
    write(os.path.join(os.environ["SWR_ARTIFACTS"], "ephemeris.nc"), cols)
    return {
        "ephemeris": "ephemeris.nc",
        "perihelion_tt_jd": float(comet.epoch.tt),
        "elements_at_last_time": {
            "semi_major_axis_au": float(el.semi_major_axis.au),
            "apoapsis_distance_au": float(el.apoapsis_distance.au),
            "period_days": float(el.period_in_days),
            "mean_motion_deg_day": float(el.mean_motion_per_day.degrees),
            "mean_anomaly_deg": float(el.mean_anomaly.degrees),
            "true_anomaly_deg": float(el.true_anomaly.degrees),
            "eccentric_anomaly_deg": float(el.eccentric_anomaly.degrees),
            "periapsis_time_tt_jd": float(el.periapsis_time.tt),
        },
        "max_speed_km_s": float(np.max(np.linalg.norm(pos.velocity.km_per_s, axis=0))),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
