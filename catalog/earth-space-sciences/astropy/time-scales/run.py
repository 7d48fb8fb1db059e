"""Readings of one instant on astropy.time's relativistic time scales, and a clock-rate experiment.

Entry workflow: served by warm workers that import this module once; main() builds new Time objects per
call. No network: TT, TAI, TDB, TCG and TCB are related by fixed offsets, IAU rate constants and ERFA's
analytic TDB-TT series (the topocentric term uses the TT day fraction for UT, so no IERS table is read).
"""

import astropy.units as u
from astropy.coordinates import EarthLocation
from astropy.time import Time, TimeDelta
from astropy.utils import iers
from astropy.utils.data import conf as data_conf

iers.conf.auto_download = False
data_conf.allow_internet = False

SECONDS_PER_DAY = 86400.0


def reading_difference_s(a: Time, b: Time) -> float:
    """Difference of two scales' readings of one instant, from the two-part Julian dates (full precision)."""
    return float(((a.jd1 - b.jd1) + (a.jd2 - b.jd2)) * SECONDS_PER_DAY)


def main(scenario: dict) -> dict:
    site = EarthLocation.from_geodetic(
        lon=float(scenario["longitude_deg"]) * u.deg, lat=float(scenario["latitude_deg"]) * u.deg, height=0.0 * u.m
    )
    t = Time(float(scenario["mjd_tt"]), format="mjd", scale="tt", location=site)
    end = t.tdb + TimeDelta(float(scenario["elapsed_tdb_days"]), format="jd", scale="tdb")
    tt_elapsed = reading_difference_s(end.tt, t.tt)
    return {
        "tt_minus_tai_s": reading_difference_s(t.tt, t.tai),
        "tdb_minus_tt_s": reading_difference_s(t.tdb, t.tt),
        "tcg_minus_tt_s": reading_difference_s(t.tcg, t.tt),
        "tcb_minus_tdb_s": reading_difference_s(t.tcb, t.tdb),
        "jyear_tt": float(t.tt.jyear),
        "byear_tt": float(t.tt.byear),
        "decimalyear_tdb": float(t.tdb.decimalyear),
        "gps_s": float(t.gps),
        "cxcsec_s": float(t.cxcsec),
        "end_mjd_tt": float(end.tt.mjd),
        "end_mjd_tcb": float(end.tcb.mjd),
        "tt_gain_over_tdb_s": tt_elapsed - float(scenario["elapsed_tdb_days"]) * SECONDS_PER_DAY,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
