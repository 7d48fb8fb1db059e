"""Reshape a wide seeded precipitation table with DuckDB UNPIVOT and summarise it through scalar and table macros."""

import os

import duckdb
import numpy as np

MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

SETUP = """
CREATE MACRO to_unit(x) AS CASE WHEN '{units}' = 'in' THEN x / 25.4 ELSE x END;
CREATE MACRO complete_years(k) AS TABLE
    SELECT * FROM wide WHERE ({nonnull}) >= k;
CREATE TEMP TABLE kept AS SELECT * FROM complete_years({min_complete});
CREATE TEMP TABLE long AS SELECT * FROM kept UNPIVOT {include} (precip FOR month IN ({months}));
"""
QUERY = """
COPY (
    WITH clim AS (SELECT station, month, avg(precip) AS normal FROM long GROUP BY station, month),
    rows AS (
        SELECT l.station, l.year, l.month, l.precip, l.precip - c.normal AS anomaly,
               row_number() OVER (PARTITION BY l.station, l.year ORDER BY l.precip DESC NULLS LAST, l.month) AS r
        FROM long l JOIN clim c USING (station, month)
    )
    SELECT station, year, count(*) AS n_months, count(precip) AS n_observed,
           to_unit(sum(precip)) AS annual_total, to_unit(max(precip)) AS wettest_amount,
           any_value(month) FILTER (WHERE r = 1) AS wettest_month,
           count(*) FILTER (WHERE anomaly > 0) AS n_above_normal,
           to_unit(sqrt(avg(anomaly * anomaly))) AS rms_anomaly
    FROM rows GROUP BY station, year ORDER BY station, year
) TO '{path}' (FORMAT csv, HEADER)
"""


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    ns, ny = int(scn["n_stations"]), int(scn["n_years"])
    seasonal = 1.0 + 0.6 * np.cos(2.0 * np.pi * (np.arange(12) - 6) / 12.0)
    precip = np.round(rng.gamma(2.0, float(scn["scale_mm"]), size=(ns * ny, 12)) * seasonal, 1)
    precip[rng.random((ns * ny, 12)) < float(scn["missing_fraction"])] = np.nan
    table = {
        "station": np.repeat([f"ST{i:02d}" for i in range(ns)], ny),
        "year": np.tile(np.arange(2000, 2000 + ny), ns).astype(np.int64),
    }
    for j, m in enumerate(MONTHS):
        table[m] = precip[:, j]
    con = duckdb.connect(config={"threads": 1})
    try:
        con.register("wide_np", table)
        con.execute(
            "CREATE TEMP TABLE wide AS SELECT station, year, "
            + ", ".join(f"CASE WHEN isnan({m}) THEN NULL ELSE {m} END AS {m}" for m in MONTHS)
            + " FROM wide_np"
        )
        nonnull = " + ".join(f"({m} IS NOT NULL)::INT" for m in MONTHS)
        con.execute(
            SETUP.format(
                units=str(scn["units"]),
                nonnull=nonnull,
                min_complete=int(scn["min_complete"]),
                months=", ".join(MONTHS),
                include="INCLUDE NULLS" if scn["include_nulls"] else "",
            )
        )
        path = os.path.join(os.environ["SWR_ARTIFACTS"], "annual.csv")
        con.execute(QUERY.format(path=path.replace("'", "''")))
    finally:
        con.close()
    return {"table": "annual.csv"}
