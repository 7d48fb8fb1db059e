"""Multi-level subtotals of seeded field measurements with DuckDB GROUPING SETS / ROLLUP / CUBE, written as Parquet."""

import os

import duckdb
import numpy as np

SITES = ["alder", "birch", "cedar", "dogwood"]
METHODS = ["probe", "lab", "sensor"]
GROUPINGS = {
    "rollup": "ROLLUP (site, method, year)",
    "cube": "CUBE (site, method, year)",
    "sets": "GROUPING SETS ((site, year), (method), ())",
}
QUERY = """
COPY (
    SELECT site, method, year,
           grouping(site, method, year)                         AS level,
           count(*)                                            AS n,
           avg(value)                                          AS mean,
           stddev_samp(value)                                  AS std,
           quantile_cont(value, {q})                           AS q_value,
           count(*) FILTER (WHERE flagged)                     AS n_flagged,
           avg(value) FILTER (WHERE NOT flagged)               AS mean_unflagged
    FROM obs
    GROUP BY {grouping}
    HAVING count(*) >= {min_count}
    ORDER BY level, site NULLS LAST, method NULLS LAST, year NULLS LAST
) TO '{path}' (FORMAT parquet)
"""


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n_obs"])
    site = rng.integers(0, len(SITES), n)
    method = rng.integers(0, len(METHODS), n)
    year = rng.integers(2015, 2015 + int(scn["n_years"]), n)
    bias = np.array([0.0, float(scn["lab_bias"]), -float(scn["lab_bias"])])
    value = 10.0 + 2.0 * site + bias[method] + float(scn["noise_sd"]) * rng.normal(size=n)
    flagged = rng.random(n) < float(scn["flag_fraction"])

    con = duckdb.connect(config={"threads": 1})
    try:
        con.register(
            "obs",
            {
                "site": np.array(SITES)[site],
                "method": np.array(METHODS)[method],
                "year": year.astype(np.int64),
                "value": value,
                "flagged": flagged,
            },
        )
        path = os.path.join(os.environ["SWR_ARTIFACTS"], "subtotals.parquet")
        con.execute(
            QUERY.format(
                q=float(scn["quantile"]),
                grouping=GROUPINGS[str(scn["grouping"])],
                min_count=int(scn["min_count"]),
                path=path.replace("'", "''"),
            )
        )
    finally:
        con.close()
    return {"table": "subtotals.parquet"}
