"""The TEME frame of SGP4 states with skyfield's sgp4lib: Greenwich mean sidereal time of the 1982 model
(theta_GMST1982), the Vallado TEME -> ITRF conversion with polar motion (TEME_to_ITRF), and the same state placed in
skyfield's frame machinery (ICRF.from_time_and_frame_vectors with the TEME frame) to get GCRS and IAU-2000 ITRS
coordinates, as an analyst moves SGP4 output into Earth-fixed and inertial frames.

Entry workflow: main(dict) -> dict; pure function of the scenario. Builtin timescale (no polar-motion table).
"""

import math

import numpy as np
from skyfield import sgp4lib
from skyfield.api import load
from skyfield.framelib import itrs
from skyfield.positionlib import ICRF
from skyfield.units import Distance, Velocity

TS = load.timescale(builtin=True)
DAY_S = 86400.0
ASEC = math.pi / (180.0 * 3600.0)


def state(s: dict) -> tuple[np.ndarray, np.ndarray]:
    """Position from radius and TEME right ascension / declination; velocity of the given speed in the local
    horizontal plane, flight_azimuth_deg from the TEME north towards east."""
    a, d = math.radians(float(s["ra_deg"])), math.radians(float(s["dec_deg"]))
    up = np.array([math.cos(d) * math.cos(a), math.cos(d) * math.sin(a), math.sin(d)])
    east = np.array([-math.sin(a), math.cos(a), 0.0])
    north = np.cross(up, east)
    az = math.radians(float(s["flight_azimuth_deg"]))
    return float(s["radius_km"]) * up, float(s["speed_km_s"]) * (math.cos(az) * north + math.sin(az) * east)


def main(s: dict) -> dict:
    t = TS.utc(int(s["year"]), 1, float(s["day_of_year"]))
    r, v = state(s)
    xp, yp = float(s["xp_arcsec"]) * ASEC, float(s["yp_arcsec"]) * ASEC
    theta, _ = sgp4lib.theta_GMST1982(t.whole, t.ut1_fraction)
    r_itrf, v_itrf = sgp4lib.TEME_to_ITRF(t.whole, r, v * DAY_S, xp, yp, t.ut1_fraction)
    r_itrf0, _ = sgp4lib.TEME_to_ITRF(t.whole, r, v * DAY_S, 0.0, 0.0, t.ut1_fraction)
    pos = ICRF.from_time_and_frame_vectors(t, sgp4lib.TEME, Distance(km=r), Velocity(km_per_s=v))
    r_itrs = pos.frame_xyz(itrs).km
    return {
        "gmst1982_rad": float(theta),
        "itrf_r_km": [float(x) for x in r_itrf],
        "itrf_v_km_s": [float(x) / DAY_S for x in v_itrf],
        "polar_motion_shift_m": float(np.linalg.norm(r_itrf - r_itrf0) * 1e3),
        "gcrs_r_km": [float(x) for x in pos.position.km],
        "gcrs_v_km_s": [float(x) for x in pos.velocity.km_per_s],
        "skyfield_itrs_r_km": [float(x) for x in r_itrs],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
