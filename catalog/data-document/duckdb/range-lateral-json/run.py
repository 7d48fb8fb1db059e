"""Interval (range) joins, SEMI and ANTI joins and a LATERAL top-k subquery with DuckDB over seeded lab samples."""

import duckdb
import numpy as np

LABS = ["north", "south", "east"]

PER_EXPERIMENT = """
SELECT e.id, e.lab, e.start_day, e.end_day, count(s.id) AS n_samples, avg(s.value) AS mean_value,
       max(s.value) AS max_value
FROM experiments e LEFT JOIN samples s
  ON s.lab = e.lab AND s.day BETWEEN e.start_day AND e.end_day
GROUP BY ALL ORDER BY e.id
"""
HOT = """
SELECT e.id FROM experiments e SEMI JOIN samples s
  ON s.lab = e.lab AND s.day BETWEEN e.start_day AND e.end_day AND s.value > {thr}
ORDER BY e.id
"""
ORPHANS = """
SELECT s.lab, count(*) AS n, avg(s.value) AS mean_value FROM samples s ANTI JOIN experiments e
  ON s.lab = e.lab AND s.day BETWEEN e.start_day AND e.end_day
GROUP BY s.lab ORDER BY s.lab
"""
TOP = """
SELECT e.id, t.sample_id, t.value FROM experiments e,
  LATERAL (SELECT s.id AS sample_id, s.value FROM samples s
           WHERE s.lab = e.lab AND s.day BETWEEN e.start_day AND e.end_day
           ORDER BY s.value DESC, s.id LIMIT {k}) t
ORDER BY e.id, t.value DESC, t.sample_id
"""


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    ne, ns, horizon = int(scn["n_experiments"]), int(scn["n_samples"]), int(scn["horizon_days"])
    e_lab = rng.integers(0, 3, ne)
    e_start = rng.integers(0, horizon, ne)
    e_end = e_start + rng.integers(1, int(scn["max_duration_days"]) + 1, ne)
    s_lab = rng.integers(0, 3, ns)
    s_day = rng.integers(0, horizon, ns)
    s_val = np.round(rng.lognormal(0.0, float(scn["value_sigma"]), ns), 3)
    labs = np.array(LABS)
    con = duckdb.connect(config={"threads": 1})
    try:
        con.register(
            "experiments",
            {
                "id": np.arange(ne, dtype=np.int64),
                "lab": labs[e_lab],
                "start_day": e_start.astype(np.int64),
                "end_day": e_end.astype(np.int64),
            },
        )
        con.register(
            "samples",
            {"id": np.arange(ns, dtype=np.int64), "lab": labs[s_lab], "day": s_day.astype(np.int64), "value": s_val},
        )
        per = con.execute(PER_EXPERIMENT).fetchall()
        hot = con.execute(HOT.format(thr=float(scn["threshold"]))).fetchall()
        orphans = con.execute(ORPHANS).fetchall()
        top = con.execute(TOP.format(k=int(scn["top_k"]))).fetchall()
    finally:
        con.close()
    return {
        "experiments": [
            {
                "id": float(r[0]),
                "lab": r[1],
                "start_day": float(r[2]),
                "end_day": float(r[3]),
                "n_samples": float(r[4]),
                "mean_value": None if r[5] is None else float(r[5]),
                "max_value": None if r[6] is None else float(r[6]),
            }
            for r in per
        ],
        "hot_experiments": [float(r[0]) for r in hot],
        "orphan_samples": [{"lab": r[0], "n": float(r[1]), "mean_value": float(r[2])} for r in orphans],
        "top_samples": [{"experiment": float(r[0]), "sample": float(r[1]), "value": float(r[2])} for r in top],
    }
