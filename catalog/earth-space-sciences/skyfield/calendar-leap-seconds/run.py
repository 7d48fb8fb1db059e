"""Civil-time bookkeeping with skyfield's timescale (skyfield.timelib): an instant around one of the leap seconds of
skyfield's builtin table, shown as UTC (including 23:59:60) by utc, utc_strftime and utc_jpl; and a historical date
read on the proleptic Gregorian or the Julian-before-1582 calendar (julian_calendar_cutoff) with its TT, TDB, Delta T
and Julian epoch, as a historian of astronomy dates an old observation.

Entry workflow: main(dict) -> dict; two timescales are built at import (never mutated afterwards). Offline.
"""

from skyfield.api import GREGORIAN_START, load

TS = {"gregorian": load.timescale(builtin=True), "julian-before-1582": load.timescale(builtin=True)}
TS["julian-before-1582"].julian_calendar_cutoff = GREGORIAN_START
DAY_S = 86400.0


def main(s: dict) -> dict:
    ts = TS[str(s["calendar"])]
    fmt = str(s["strftime_format"])
    k = int(s["leap_index"])
    tai_jd = float(ts.leap_dates[k]) + float(ts.leap_offsets[k]) / DAY_S + float(s["offset_s"]) / DAY_S
    t = ts.tai_jd(tai_jd)
    y, mo, d, h, mi, sec = t.utc
    leap = {
        "tai_jd": float(t.tai),
        "utc": {"year": int(y), "month": int(mo), "day": int(d), "hour": int(h), "minute": int(mi),
                "second": float(sec)},
        "in_leap_second": bool(sec >= 60.0),
        "utc_strftime": t.utc_strftime(fmt),
        "utc_jpl": t.utc_jpl(),
        "tai_minus_utc_after_s": float(ts.leap_offsets[k]),
    }
    h = ts.utc(int(s["historical_year"]), 1, float(s["historical_day_of_year"]))
    hist = {
        "tt_jd": float(h.tt),
        "tdb_minus_tt_s": float((h.tdb - h.tt) * DAY_S),
        "delta_t_s": float(h.delta_t),
        "julian_epoch_year": float(h.J),
        "utc_strftime": h.utc_strftime(fmt),
        "tt_strftime": h.tt_strftime(fmt),
        "utc_jpl": h.utc_jpl(),
    }
    return {"leap": leap, "historical": hist}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
