"""Per-run detector traces stored as DuckDB LIST columns and processed with list lambdas (list_transform,
list_filter with an index, list_reduce, list_reverse_sort and slicing), as in summarising variable-length
spectra without unnesting them."""

import duckdb
import numpy as np

QUERY = """
WITH cal AS (
    SELECT run_id, len(vals) AS n_values,
           list_transform(vals, lambda x: round(x * {gain}::DOUBLE - {offset}::DOUBLE, 4)) AS c
    FROM runs
), peaks AS (
    SELECT run_id, n_values, c,
           list_filter(c, lambda x: x > {threshold}::DOUBLE) AS p,
           list_transform(
               list_filter(list_transform(c, lambda x, i: CASE WHEN x > {threshold}::DOUBLE THEN i - 1 END),
                           lambda i: i IS NOT NULL),
               lambda i: i::INTEGER) AS pos
    FROM cal
)
SELECT run_id, n_values, len(p) AS n_peaks, pos,
       list_reverse_sort(p)[1:{top_k}] AS top,
       list_reduce(p, lambda a, b: a + b, 0.0::DOUBLE) AS total,
       list_max(c) AS cmax
FROM peaks ORDER BY run_id
"""


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    lo, hi = int(scn["min_len"]), int(scn["max_len"])
    runs = []
    for r in range(int(scn["n_runs"])):
        n = int(rng.integers(lo, hi + 1))
        runs.append((r, [float(v) for v in np.round(rng.gamma(2.0, 2.0, n), 2)]))
    con = duckdb.connect(config={"threads": 1})
    try:
        con.execute("CREATE TEMP TABLE runs (run_id INTEGER, vals DOUBLE[])")
        con.executemany("INSERT INTO runs VALUES (?, ?)", runs)
        rows = con.execute(
            QUERY.format(
                gain=float(scn["gain"]),
                offset=float(scn["offset"]),
                threshold=float(scn["threshold"]),
                top_k=int(scn["top_k"]),
            )
        ).fetchall()
    finally:
        con.close()
    out = [
        {
            "run_id": int(rid),
            "n_values": int(n),
            "n_peaks": int(k),
            "peak_positions": [int(i) for i in pos],
            "top_peaks": [float(v) for v in top],
            "peak_sum": float(total),
        }
        for rid, n, k, pos, top, total, _ in rows
    ]
    return {
        "runs": out,
        "runs_without_peaks": sum(1 for r in out if r["n_peaks"] == 0),
        "overall_max": max((float(row[6]) for row in rows if row[6] is not None), default=0.0),
    }
