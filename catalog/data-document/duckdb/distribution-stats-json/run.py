"""Distribution statistics with DuckDB aggregates: moments, robust scale, discrete quantiles, entropy,
binned histogram, regression."""

import duckdb
import numpy as np

STATS = """
SELECT arm, count(*) AS n, avg(y) AS mean, stddev_pop(y) AS sd_pop, var_samp(y) AS var_samp,
       skewness(y) AS skewness, kurtosis(y) AS excess_kurtosis, median(y) AS median, mad(y) AS mad,
       quantile_disc(y, {q}) AS q_disc, quantile_cont(y, 0.75) - quantile_cont(y, 0.25) AS iqr,
       entropy(round(y)::BIGINT) AS entropy_rounded,
       regr_slope(y, dose) AS slope, regr_intercept(y, dose) AS intercept, regr_r2(y, dose) AS r2,
       covar_samp(y, dose) AS cov_dose
FROM obs GROUP BY arm ORDER BY arm
"""
BINS = "SELECT equi_width_bins(min(y), max(y), {nbins}, {nice}) FROM obs"
HIST = "SELECT arm, histogram(y, {bins}::DOUBLE[]) AS h FROM obs GROUP BY arm ORDER BY arm"


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n"])
    arm = rng.integers(0, 2, n)
    dose = rng.uniform(0.0, 10.0, n)
    base = rng.normal(0.0, 1.0, n) * np.where(arm == 1, float(scn["sd_ratio"]), 1.0)
    outlier = rng.random(n) < float(scn["outlier_fraction"])
    y = 50.0 + float(scn["effect"]) * arm + 0.8 * dose + 5.0 * base
    y = np.where(outlier, y + float(scn["outlier_shift"]), y)
    con = duckdb.connect(config={"threads": 1})
    try:
        con.register("obs", {"arm": np.array(["control", "treated"])[arm], "dose": dose, "y": y})
        rows = con.execute(STATS.format(q=float(scn["quantile"]))).fetchall()
        cols = [d[0] for d in con.description]
        bins = con.execute(
            BINS.format(nbins=int(scn["nbins"]), nice="true" if scn["nice_bins"] else "false")
        ).fetchone()[0]
        hist = con.execute(HIST.format(bins=[float(b) for b in bins])).fetchall()
    finally:
        con.close()
    edges = [float(b) for b in bins]
    return {
        "arms": [{k: (v if isinstance(v, str) else float(v)) for k, v in zip(cols, r)} for r in rows],
        "bin_upper_edges": edges,
        "histograms": [{"arm": a, "counts": [float(h.get(e, 0)) for e in edges]} for a, h in hist],
    }
