"""Bucket irregular seeded sensor readings in time with DuckDB (time_bucket, generate_series grid, gap
filling) into a CSV."""

import os

import duckdb
import numpy as np

FILL = {
    "locf": "last_value(b.mean IGNORE NULLS) OVER (PARTITION BY g.sensor ORDER BY g.bucket ROWS UNBOUNDED PRECEDING)",
    "zero": "coalesce(b.mean, 0.0)",
    "none": "b.mean",
}
QUERY = """
COPY (
    WITH grid AS (
        SELECT s.sensor, t.bucket
        FROM (SELECT DISTINCT sensor FROM readings) s,
             generate_series(TIMESTAMP '2024-01-01 00:00:00',
                             TIMESTAMP '2024-01-01 00:00:00' + INTERVAL ({span_h} * 60 - {bucket_min}) MINUTE,
                             INTERVAL ({bucket_min}) MINUTE) t(bucket)
    ), b AS (
        SELECT sensor, time_bucket(INTERVAL ({bucket_min}) MINUTE, ts, TIMESTAMP '2024-01-01 00:00:00') AS bucket,
               count(*) AS n, avg(value) AS mean, max(value) - min(value) AS spread
        FROM readings GROUP BY ALL
    ), filled AS (
        SELECT g.sensor, g.bucket, coalesce(b.n, 0) AS n, b.mean, b.spread, {fill} AS filled
        FROM grid g LEFT JOIN b ON g.sensor = b.sensor AND g.bucket = b.bucket
    )
    SELECT sensor, strftime(bucket, '%Y-%m-%d %H:%M') AS bucket, n, mean, spread, filled,
           avg(filled) OVER (PARTITION BY sensor ORDER BY bucket ROWS BETWEEN {w1} PRECEDING AND CURRENT ROW) AS rolling
    FROM filled ORDER BY sensor, bucket
) TO '{path}' (FORMAT csv, HEADER)
"""


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n, k, span_h = int(scn["n_readings"]), int(scn["n_sensors"]), int(scn["span_hours"])
    sensor = rng.integers(0, k, n)
    t = rng.integers(0, span_h * 3600, n)
    value = 20.0 + float(scn["amplitude"]) * np.sin(2.0 * np.pi * t / 86400.0) + rng.normal(0.0, 0.5, n)
    names = np.array([f"S{i + 1}" for i in range(k)])
    con = duckdb.connect(config={"threads": 1})
    try:
        con.register("raw", {"sensor": names[sensor], "t": t.astype(np.int64), "value": value})
        con.execute(
            "CREATE TEMP TABLE readings AS SELECT sensor, TIMESTAMP '2024-01-01 00:00:00' + to_seconds(t) AS ts, "
            "value FROM raw"
        )
        path = os.path.join(os.environ["SWR_ARTIFACTS"], "buckets.csv")
        con.execute(
            QUERY.format(
                span_h=span_h,
                bucket_min=int(scn["bucket_minutes"]),
                fill=FILL[str(scn["fill"])],
                w1=int(scn["rolling_buckets"]) - 1,
                path=path.replace("'", "''"),
            )
        )
    finally:
        con.close()
    return {"table": "buckets.csv"}
