"""Reshape a seeded wide plate-reader table with pandas: wide_to_long, groupby transform, unstack/stack, crosstab;
write the treatment x time table as CSV."""

import os

import numpy as np
import pandas as pd

TREATMENTS = ["ctrl", "drugA", "drugB"]


def wide_table(scn):
    """One row per sample: sample, treatment, od_t0..od_t<k-1>, gfp_t0..gfp_t<k-1> (drawn as the summary states)."""
    rng = np.random.default_rng(int(scn["seed"]))
    n, k = int(scn["n_samples"]), int(scn["n_timepoints"])
    sd, r0, inh = float(scn["noise_sd"]), float(scn["growth_rate_per_h"]), float(scn["inhibition"])
    treat = [TREATMENTS[i % 3] for i in range(n)]
    rate = np.array([{"ctrl": r0, "drugA": r0 * (1.0 - inh), "drugB": r0 * (1.0 - inh / 2.0)}[t] for t in treat])
    od0 = rng.uniform(0.02, 0.08, n)
    hours = np.arange(k) * float(scn["interval_h"])
    od = od0[:, None] * np.exp(rate[:, None] * hours[None, :] + rng.normal(0.0, sd, (n, k)))
    gfp = float(scn["expression"]) * od * np.exp(rng.normal(0.0, sd, (n, k)))
    wide = pd.DataFrame({"sample": [f"S{i:03d}" for i in range(n)], "treatment": treat})
    for j in range(k):
        wide[f"od_t{j}"] = od[:, j]
    for j in range(k):
        wide[f"gfp_t{j}"] = gfp[:, j]
    return wide


def main(scn):
    wide = wide_table(scn)
    long = pd.wide_to_long(wide, stubnames=["od", "gfp"], i=["sample", "treatment"], j="t", sep="_t").reset_index()
    long["hours"] = long["t"] * float(scn["interval_h"])
    long["log_od"] = np.log(long["od"])
    long["ratio"] = long["gfp"] / long["od"]
    g = long.groupby("sample")
    dx = long["hours"] - g["hours"].transform("mean")
    dy = long["log_od"] - g["log_od"].transform("mean")
    slope = (dx * dy).groupby(long["sample"]).sum() / (dx * dx).groupby(long["sample"]).sum()

    final = long[long["t"] == long["t"].max()].set_index("sample")
    summary = final[["treatment", "od"]].assign(slope=slope)
    cut = float(scn["inhibited_fraction"]) * summary.loc[summary["treatment"] == "ctrl", "od"].mean()
    summary["status"] = np.where(summary["od"] < cut, "inhibited", "normal")
    tab = pd.crosstab(summary["treatment"], summary["status"]).reindex(
        index=TREATMENTS, columns=["inhibited", "normal"], fill_value=0
    )

    ratio = long.groupby(["treatment", "t"])["ratio"].mean().unstack("t")
    ratio.columns = [f"t{c}" for c in ratio.columns]
    cell = ratio.stack().idxmax()
    ratio.reset_index().to_csv(
        os.path.join(os.environ["SWR_ARTIFACTS"], "ratio_by_time.csv"),
        index=False,
        float_format="%.12g",
        lineterminator="\n",
    )
    by_t = summary.groupby("treatment")["slope"]
    return {
        "n_long_rows": int(len(long)),
        "growth_rate_mean": {t: float(v) for t, v in by_t.mean().items()},
        "growth_rate_sd": {t: float(v) for t, v in by_t.std().items()},
        "fastest_sample": str(summary["slope"].idxmax()),
        "status_counts": {t: {c: int(tab.loc[t, c]) for c in tab.columns} for t in tab.index},
        "max_ratio_cell": {"treatment": str(cell[0]), "timepoint": str(cell[1])},
        "ratio_table": "ratio_by_time.csv",
    }
