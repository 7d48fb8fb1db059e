"""Readings of one instant on astropy.time's relativistic time scales, intervals from a timing reference
epoch, and two clock-rate experiments.

Entry workflow: served by warm workers that import this module once; main() builds new Time objects per
call. No network: TT, TAI, TDB, TCG and TCB are related by fixed offsets, IAU rate constants and ERFA's
analytic (geocentric) TDB-TT series. astropy computes an approximate UT for that series from ERFA's leap-second
table, but at the geocentre the series' UT-dependent (topocentric) terms vanish, so no result depends on it.
"""

import warnings

from astropy.time import Time, TimeDelta
from astropy.utils import iers
from astropy.utils.data import conf as data_conf
from erfa import ErfaWarning

iers.conf.auto_download = False
data_conf.allow_internet = False

SECONDS_PER_DAY = 86400.0


def reading_difference_s(a: Time, b: Time) -> float:
    """Difference of two scales' readings of one instant, from the two-part Julian dates (full precision)."""
    return float(((a.jd1 - b.jd1) + (a.jd2 - b.jd2)) * SECONDS_PER_DAY)


def compute(scenario: dict) -> dict:
    t = Time(float(scenario["mjd_tt"]), format="mjd", scale="tt")
    pepoch = Time(float(scenario["pepoch_mjd_tdb"]), format="mjd", scale="tdb")
    elapsed = float(scenario["elapsed_tdb_days"])
    end = t.tdb + TimeDelta(elapsed, format="jd", scale="tdb")
    tcg_interval = float(scenario["tcg_interval_s"])
    end_tcg = t.tcg + TimeDelta(tcg_interval, format="sec", scale="tcg")
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
        "since_pepoch_tdb_d": float((t.tdb - pepoch).jd),
        "since_pepoch_tcb_d": float((t.tcb - pepoch.tcb).jd),
        "end_mjd_tt": float(end.tt.mjd),
        "end_mjd_tcb": float(end.tcb.mjd),
        "tt_gain_over_tdb_s": reading_difference_s(end.tt, t.tt) - elapsed * SECONDS_PER_DAY,
        "tt_gain_over_tcg_s": reading_difference_s(end_tcg.tt, t.tt) - tcg_interval,
    }


def main(scenario: dict) -> dict:
    with warnings.catch_warnings():  # "dubious year" of ERFA's leap-second lookup, irrelevant here (see above)
        warnings.simplefilter("ignore", ErfaWarning)
        return compute(scenario)


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
