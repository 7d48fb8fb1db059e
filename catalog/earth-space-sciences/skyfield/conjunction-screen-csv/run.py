"""Conjunction screening of two satellites with skyfield: both propagated by SGP4 (EarthSatellite from a TLE file),
their separation (ICRF vector difference, Distance.km) minimised over a window with skyfield.searchlib.find_minima,
as a space-operations analyst screens a pair for close approaches; the approaches are written as CSV.

Entry workflow: main(dict) -> dict; the CSV goes to $SWR_ARTIFACTS.
"""

import os

import numpy as np
from skyfield import searchlib
from skyfield.api import load
from skyfield.iokit import parse_tle_file

STEP_DAYS = 1.0 / 1440.0  # find_minima coarse step: one minute


def _pair(s: dict, ts):
    """The two satellites named by their indices (modulo the count; b = a + 1 when they coincide)."""
    with open(str(s["tles"]), "rb") as fh:
        sats = list(parse_tle_file(fh, ts))
    a = int(s["sat_a"]) % len(sats)
    b = int(s["sat_b"]) % len(sats)
    if b == a:
        b = (a + 1) % len(sats)
    return sats[a], sats[b]


def main(s: dict) -> dict:
    ts = load.timescale(builtin=True)
    sa, sb = _pair(s, ts)
    t0 = ts.tt_jd(sa.epoch.tt + float(s["start_hours"]) / 24.0)
    t1 = ts.tt_jd(t0.tt + float(s["window_hours"]) / 24.0)

    def separation(t):
        return (sb.at(t) - sa.at(t)).distance().km

    separation.step_days = STEP_DAYS
    times, dist = searchlib.find_minima(t0, t1, separation)
    rel = (sb.at(times) - sa.at(times)).velocity.km_per_s if len(dist) else np.zeros((3, 0))
    speed = np.sqrt((np.asarray(rel) ** 2).sum(axis=0))
    hours = (times.tt - t0.tt) * 24.0 if len(dist) else np.zeros(0)
    rows = np.column_stack([hours, dist, speed]) if len(dist) else np.zeros((0, 3))
    np.savetxt(os.path.join(os.environ["SWR_ARTIFACTS"], "approaches.csv"), rows, delimiter=",",
               header="hours_from_start,miss_distance_km,relative_speed_km_s", comments="", fmt="%.9f")
    limit = float(s["screen_km"])
    return {
        "approaches": "approaches.csv",
        "pair": [sa.name, sb.name],
        "n_minima": int(len(dist)),
        "n_within_screen": int(np.count_nonzero(dist < limit)),
        "closest_km": float(dist.min()) if len(dist) else None,
        "mean_relative_speed_km_s": float(speed.mean()) if len(dist) else None,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
