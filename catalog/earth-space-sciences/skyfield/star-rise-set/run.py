"""Risings, settings and meridian transits of a fixed star for an observer, found with skyfield's generic search
routines (skyfield.searchlib.find_discrete on an above-horizon predicate and find_maxima / find_minima on the
altitude), as an observing planner computes a star's visibility windows.

Entry workflow: main(dict) -> dict; pure functions of the scenario. Builtin timescale (offline).
"""

from skyfield import searchlib
from skyfield.api import load, position_of_radec, wgs84

TS = load.timescale(builtin=True)
STEP_DAYS = 0.04  # search sampling: shorter than any altitude half-cycle (12 sidereal hours)


def functions(s: dict):
    obs = wgs84.latlon(float(s["observer_lat_deg"]), float(s["observer_lon_deg"]))
    ra, dec, horizon = float(s["ra_hours"]), float(s["dec_deg"]), float(s["horizon_deg"])

    def altitude(t):
        alt, _, _ = position_of_radec(ra, dec, t=t, center=399).frame_latlon(obs)
        return alt.degrees

    def above(t):
        return altitude(t) > horizon

    def azimuth(t):
        _, az, _ = position_of_radec(ra, dec, t=t, center=399).frame_latlon(obs)
        return az.degrees

    altitude.step_days = above.step_days = STEP_DAYS
    return altitude, above, azimuth


def main(s: dict) -> dict:
    altitude, above, azimuth = functions(s)
    t0 = TS.utc(int(s["year"]), int(s["month"]), int(s["day"]))
    t1 = TS.tt_jd(t0.tt + int(s["n_days"]))
    hours = lambda t: float((t.tt - t0.tt) * 24.0)  # noqa: E731
    times, ups = searchlib.find_discrete(t0, t1, above)
    events = [{"event": "rise" if u else "set", "t_hours": hours(t), "az_deg": float(azimuth(t))}
              for t, u in zip(times, ups)]
    tmax, amax = searchlib.find_maxima(t0, t1, altitude)
    tmin, amin = searchlib.find_minima(t0, t1, altitude)
    return {
        "up_at_start": bool(above(t0)),
        "events": events,
        "upper_transits": [{"t_hours": hours(t), "alt_deg": float(a)} for t, a in zip(tmax, amax)],
        "lower_transits": [{"t_hours": hours(t), "alt_deg": float(a)} for t, a in zip(tmin, amin)],
        "n_rises": sum(1 for e in events if e["event"] == "rise"),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
