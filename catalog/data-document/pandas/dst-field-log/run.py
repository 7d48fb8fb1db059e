"""Put a field-observation log recorded in local wall-clock time on a common UTC axis with pandas' time-zone
machinery: Series.dt.tz_localize with the nonexistent / ambiguous rules of a daylight-saving transition,
tz_convert, wall-clock versus elapsed durations, and per-UTC-hour counts; the converted log is written as CSV.

Entry workflow: warm workers import this module once; main() builds a new log per call from numpy's PCG64
generator seeded by the scenario.
"""

import os

import numpy as np
import pandas as pd

TRANSITIONS = {
    "us_spring": ("America/New_York", "2024-03-10"),
    "us_fall": ("America/New_York", "2024-11-03"),
    "eu_spring": ("Europe/Berlin", "2024-03-31"),
    "eu_fall": ("Europe/Berlin", "2024-10-27"),
}
AMBIGUOUS = {"NaT": "NaT", "dst": True, "std": False}


def main(scenario: dict) -> dict:
    tz, day = TRANSITIONS[scenario["transition"]]
    rng = np.random.default_rng(int(scenario["seed"]))
    n = int(scenario["n_events"])
    offs = np.rint(rng.uniform(0.0, float(scenario["window_hours"]) * 3600.0, n))
    start_naive = pd.Series(pd.Timestamp(day) + pd.to_timedelta(np.sort(offs), unit="s"))
    minutes = rng.integers(10, int(scenario["max_duration_min"]) + 1, n)
    amb = AMBIGUOUS[scenario["ambiguous"]]
    amb_arg = amb if isinstance(amb, str) else np.full(n, amb)
    start = start_naive.dt.tz_localize(tz, nonexistent=scenario["nonexistent"], ambiguous=amb_arg)
    start_utc = start.dt.tz_convert("UTC")
    end_utc = start_utc + pd.to_timedelta(minutes, unit="min")
    end_local = end_utc.dt.tz_convert(tz)
    wall = (end_local.dt.tz_localize(None) - start_naive).dt.total_seconds() / 60.0
    ok = start_utc.notna()
    iso = lambda s: s.map(lambda t: t.isoformat() if pd.notna(t) else "")  # noqa: E731
    log = pd.DataFrame(
        {
            "event": np.arange(1, n + 1),
            "local_start": start_naive.map(lambda t: t.isoformat()),
            "utc_start": iso(start_utc),
            "utc_end": iso(end_utc),
            "local_end": iso(end_local),
            "elapsed_min": minutes,
            "wall_min": wall,
        }
    )
    log.to_csv(os.path.join(os.environ["SWR_ARTIFACTS"], "field_log.csv"), index=False)
    shifted = ok & (start.dt.tz_localize(None) != start_naive)
    hours = start_utc[ok].dt.floor("h").value_counts().sort_index()
    busiest = hours[hours == hours.max()].index.min() if len(hours) else None
    return {
        "table": "field_log.csv",
        "unplaceable_events": int((~ok).sum()),
        "shifted_events": int(shifted.sum()),
        "events_crossing_transition": int(((wall - minutes) != 0)[ok].sum()),
        "busiest_utc_hour": busiest.isoformat() if busiest is not None else "",
        "busiest_count": int(hours.max()) if len(hours) else 0,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
