"""Celestial frame conversions, precession and space motion of a star with astropy.coordinates.

Entry workflow: served by warm workers that import this module once. Heavy imports happen here, at
module level; main() only builds new objects and never mutates module state. No network access:
every frame used is defined by fixed rotations, IAU precession/nutation models or the star's own
motion, none needs IERS tables, and TT time scales avoid leap-second lookups.
"""

import tomllib
from pathlib import Path

import astropy.units as u
from astropy.coordinates import (
    FK4,
    FK5,
    ICRS,
    BarycentricMeanEcliptic,
    BarycentricTrueEcliptic,
    Galactic,
    SkyCoord,
    Supergalactic,
    angular_separation,
)
from astropy.time import Time
from astropy.utils import iers
from astropy.utils.data import conf as data_conf


# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

iers.conf.auto_download = False
data_conf.allow_internet = False

J2000 = Time(2000.0, format="jyear", scale="tt")
J2000_TDB = Time(2000.0, format="jyear", scale="tdb")
B1950 = Time(1950.0, format="byear", scale="tt")
FK4_B1950 = FK4(equinox=B1950, obstime=B1950)
REFERENCES = {
    "galactic_center": SkyCoord(l=0.0 * u.deg, b=0.0 * u.deg, frame="galactic"),
    "north_ecliptic_pole": SkyCoord(lon=0.0 * u.deg, lat=90.0 * u.deg,
                                    frame=BarycentricMeanEcliptic(equinox=J2000)),
    "sirius": SkyCoord(ra=CONSTANTS["SIRIUS_RA_DEG"] * u.deg, dec=CONSTANTS["SIRIUS_DEC_DEG"] * u.deg, frame="icrs"),
    "polaris": SkyCoord(ra=CONSTANTS["POLARIS_RA_DEG"] * u.deg, dec=CONSTANTS["POLARIS_DEC_DEG"] * u.deg,
                        frame="icrs"),
}


def _deg(angle):
    return float(angle.to_value(u.deg))


def _lonlat(coord, lon="lon_deg", lat="lat_deg"):
    sph = coord.spherical
    return {lon: _deg(sph.lon.wrap_at(360 * u.deg)), lat: _deg(sph.lat)}


def main(scenario: dict) -> dict:
    ra = float(scenario["ra_deg"]) * u.deg
    dec = float(scenario["dec_deg"]) * u.deg
    dist = float(scenario["distance_pc"]) * u.pc
    pmra = float(scenario["pm_ra_cosdec_masyr"]) * u.mas / u.yr
    pmdec = float(scenario["pm_dec_masyr"]) * u.mas / u.yr
    rv = float(scenario["radial_velocity_kms"]) * u.km / u.s
    # Equinoxes are TT epochs; the space-motion epochs are TDB (apply_space_motion works in TDB and a
    # TT -> TDB conversion would need the UTC leap-second table).
    epoch = Time(float(scenario["epoch_jyear"]), format="jyear", scale="tt")
    epoch_tdb = Time(float(scenario["epoch_jyear"]), format="jyear", scale="tdb")

    pos = SkyCoord(ra=ra, dec=dec, frame=ICRS())
    star = SkyCoord(ra=ra, dec=dec, distance=dist, pm_ra_cosdec=pmra, pm_dec=pmdec,
                    radial_velocity=rv, frame=ICRS(), obstime=J2000_TDB)

    gal = pos.transform_to(Galactic())
    fk5_date = pos.transform_to(FK5(equinox=epoch))
    moved = star.apply_space_motion(new_obstime=epoch_tdb)
    moved_icrs = SkyCoord(ra=moved.ra, dec=moved.dec, frame=ICRS())
    vel = star.transform_to(Galactic()).velocity

    return {
        "galactic": _lonlat(gal, "l_deg", "b_deg"),
        "supergalactic": _lonlat(pos.transform_to(Supergalactic()), "sgl_deg", "sgb_deg"),
        "fk4_b1950": _lonlat(pos.transform_to(FK4_B1950), "ra_deg", "dec_deg"),
        "fk5_of_date": _lonlat(fk5_date, "ra_deg", "dec_deg"),
        "precession_shift_deg": _deg(angular_separation(ra, dec, fk5_date.ra, fk5_date.dec)),
        "ecliptic_mean_of_date": _lonlat(pos.transform_to(BarycentricMeanEcliptic(equinox=epoch))),
        "ecliptic_true_of_date": _lonlat(pos.transform_to(BarycentricTrueEcliptic(equinox=epoch))),
        "separations_deg": {name: _deg(pos.separation(ref)) for name, ref in REFERENCES.items()},
        "position_angle_to_galactic_center_deg": _deg(
            pos.position_angle(REFERENCES["galactic_center"]).wrap_at(360 * u.deg)),
        "galactic_velocity_kms": [float(c) for c in vel.d_xyz.to_value(u.km / u.s)],
        "propagated": {
            "ra_deg": _deg(moved.ra.wrap_at(360 * u.deg)),
            "dec_deg": _deg(moved.dec),
            "distance_pc": float(moved.distance.to_value(u.pc)),
            "shift_arcsec": float(pos.separation(moved_icrs).to_value(u.arcsec)),
        },
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
