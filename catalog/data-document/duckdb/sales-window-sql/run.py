"""SQL aggregates and window functions with DuckDB over a seeded synthetic sales table."""

import duckdb
import numpy as np

QUERY_STORES = """
SELECT store,
       count(*)::DOUBLE                        AS n,
       sum(amount)                             AS total,
       avg(amount)                             AS mean,
       stddev_samp(amount)                     AS std,
       quantile_cont(amount, 0.5)              AS median,
       quantile_cont(amount, 0.9)              AS p90,
       min(amount)                             AS min,
       max(amount)                             AS max,
       regr_slope(amount, day::DOUBLE)         AS slope_per_day,
       corr(amount, day::DOUBLE)               AS corr_day
FROM sales GROUP BY store ORDER BY store
"""

QUERY_DAILY = """
WITH daily AS (
    SELECT store, day, sum(amount) AS revenue FROM sales GROUP BY store, day
), win AS (
    SELECT store, day, revenue,
           avg(revenue) OVER (PARTITION BY store ORDER BY day
                              ROWS BETWEEN {w1} PRECEDING AND CURRENT ROW)         AS moving_avg,
           sum(revenue) OVER (PARTITION BY store ORDER BY day)                      AS cumulative,
           revenue - lag(revenue) OVER (PARTITION BY store ORDER BY day)            AS change,
           rank() OVER (PARTITION BY day ORDER BY revenue DESC, store)              AS day_rank
    FROM daily
)
SELECT store,
       count(*)::DOUBLE                           AS active_days,
       max(moving_avg)                            AS max_moving_avg,
       arg_max(day, moving_avg)::DOUBLE           AS day_of_max_moving_avg,
       max(cumulative)                            AS final_cumulative,
       max(change)                                AS max_increase,
       min(change)                                AS max_decrease,
       sum(CASE WHEN day_rank = 1 THEN 1 ELSE 0 END)::DOUBLE AS days_ranked_first
FROM win GROUP BY store ORDER BY store
"""

QUERY_TOP = """
SELECT store, day, amount,
       row_number() OVER (ORDER BY amount DESC, store, day) AS pos
FROM sales QUALIFY pos <= 5 ORDER BY pos
"""


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n_rows"])
    stores = int(scn["n_stores"])
    days = int(scn["n_days"])
    store = rng.integers(0, stores, size=n)
    day = rng.integers(0, days, size=n)
    noise = rng.normal(0.0, 1.0, size=n)
    amount = np.exp(float(scn["log_mean"]) + float(scn["log_sigma"]) * noise
                    + float(scn["trend_per_day"]) * day + 0.1 * store)
    table = {"store": np.array([f"S{int(s):02d}" for s in store]), "day": day.astype(np.int64),
             "amount": amount.astype(np.float64)}

    con = duckdb.connect(config={"threads": 1})
    try:
        con.register("sales", table)
        per_store = con.execute(QUERY_STORES).fetchall()
        cols = [d[0] for d in con.description]
        daily = con.execute(QUERY_DAILY.format(w1=int(scn["window_days"]) - 1)).fetchall()
        dcols = [d[0] for d in con.description]
        top = con.execute(QUERY_TOP).fetchall()
        overall = con.execute(
            "SELECT sum(amount), avg(amount), stddev_samp(amount), "
            "quantile_cont(amount, [0.25, 0.5, 0.75]) FROM sales").fetchone()
    finally:
        con.close()

    def rowdict(names, row):
        return {k: (v if isinstance(v, str) else float(v)) for k, v in zip(names, row)}

    return {
        "stores": [rowdict(cols, r) for r in per_store],
        "daily_windows": [rowdict(dcols, r) for r in daily],
        "top_sales": [{"store": r[0], "day": float(r[1]), "amount": float(r[2])} for r in top],
        "overall": {"total": float(overall[0]), "mean": float(overall[1]), "std": float(overall[2]),
                    "quartiles": [float(q) for q in overall[3]]},
    }
