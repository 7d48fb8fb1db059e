"""Precession and nutation of the equator with skyfield's low-level routines: IAU 2000A (optionally truncated) or
IAU 2000B nutation (skyfield.nutationlib), IAU 2006 precession (skyfield.precessionlib.compute_precession), mean
obliquity, equation of the equinoxes' complementary terms, Earth rotation angle and sidereal time
(skyfield.earthlib), and a star's direction carried from J2000 to the mean and true equator of date.

Entry workflow: main(dict) -> dict; pure functions of the time, no module state. Builtin timescale (offline).
"""

import math

import numpy as np
from skyfield import earthlib, nutationlib, precessionlib
from skyfield.api import load

TS = load.timescale(builtin=True)
ASEC = 180.0 * 3600.0 / math.pi  # arcseconds per radian


def radec(v: np.ndarray) -> tuple[float, float]:
    ra = math.degrees(math.atan2(v[1], v[0])) % 360.0
    return ra / 15.0, math.degrees(math.asin(v[2] / np.linalg.norm(v)))


def main(s: dict) -> dict:
    t = TS.tt(int(s["year"]), int(s["month"]), float(s["day"]))
    if s["model"] == "iau2000a":
        n = int(s["lunisolar_terms"])
        dpsi, deps = nutationlib.iau2000a_radians(t, lunisolar_terms=n, planetary_terms=n)
    else:
        dpsi, deps = nutationlib.iau2000b_radians(t)
    mean_obl = nutationlib.mean_obliquity(t.tdb)  # arcseconds
    true_obl = mean_obl + deps * ASEC
    prec = precessionlib.compute_precession(t.tdb)
    nut = nutationlib.build_nutation_matrix(mean_obl / ASEC, true_obl / ASEC, dpsi)
    ra0, dec0 = math.radians(float(s["ra_hours"]) * 15.0), math.radians(float(s["dec_deg"]))
    v = np.array([math.cos(dec0) * math.cos(ra0), math.cos(dec0) * math.sin(ra0), math.sin(dec0)])
    mean_v = prec @ v
    true_v = nut @ mean_v
    ra_m, dec_m = radec(mean_v)
    ra_t, dec_t = radec(true_v)
    return {
        "tt_jd": float(t.tt),
        "tdb_jd": float(t.tdb),
        "nutation": {"dpsi_arcsec": float(dpsi * ASEC), "deps_arcsec": float(deps * ASEC)},
        "mean_obliquity_arcsec": float(mean_obl),
        "true_obliquity_arcsec": float(true_obl),
        "equation_of_equinoxes_complementary_arcsec": float(
            nutationlib.equation_of_the_equinoxes_complimentary_terms(t.tt) * ASEC),
        "earth_rotation_angle_deg": float(earthlib.earth_rotation_angle(t.whole, t.ut1_fraction) * 360.0),
        "gmst_hours": float(earthlib.sidereal_time(t)),
        "precession_matrix": [[float(x) for x in row] for row in prec],
        "star_mean_of_date": {"ra_hours": ra_m, "dec_deg": dec_m},
        "star_true_of_date": {"ra_hours": ra_t, "dec_deg": dec_t},
        "star_nutation_ra_arcsec": float(((ra_t - ra_m + 12.0) % 24.0 - 12.0) * 15.0 * 3600.0),
        "star_nutation_dec_arcsec": float((dec_t - dec_m) * 3600.0),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
