"""Merge seeded station readings with station metadata in pandas, pivot by region and elevation band, write CSV."""

import os

import numpy as np
import pandas as pd

REGIONS = ["alpine", "coastal", "plains"]
BANDS = ["low", "mid", "high"]


def main(scn):
    out_dir = os.environ["SWR_ARTIFACTS"]
    rng = np.random.default_rng(int(scn["seed"]))
    n_st = int(scn["n_stations"])
    stations = pd.DataFrame({
        "station": [f"ST{i:03d}" for i in range(n_st)],
        "region": [REGIONS[i % 3] for i in range(n_st)],
        "elevation_m": np.round(rng.uniform(0.0, float(scn["max_elevation_m"]), n_st), 1),
    })
    n = int(scn["n_readings"])
    readings = pd.DataFrame({
        "station": [f"ST{i:03d}" for i in rng.integers(0, n_st + 2, n)],  # two ids have no metadata
        "month": rng.integers(1, 13, n),
        "temp_c": np.round(rng.normal(float(scn["sea_level_temp_c"]), 4.0, n), 2),
    })
    df = readings.merge(stations, on="station", how="inner", validate="many_to_one")
    df["temp_adj_c"] = df["temp_c"] - float(scn["lapse_rate_c_per_km"]) * df["elevation_m"] / 1000.0
    edges = [0.0, 500.0, 1500.0, np.inf]
    df["band"] = pd.cut(df["elevation_m"], bins=edges, labels=BANDS, right=False)
    df["season"] = np.where(df["month"].isin([12, 1, 2]), "DJF",
                            np.where(df["month"].isin([6, 7, 8]), "JJA", "other"))

    pt = pd.pivot_table(df, index=["region", "season"], columns="band", values="temp_adj_c",
                        aggfunc="mean", observed=False, sort=True)
    pt = pt.reindex(columns=BANDS)  # pivot_table drops an all-empty band; the contract keeps its column, empty
    pt.columns = [f"mean_{c}" for c in pt.columns]
    stats = df.groupby(["region", "season"], sort=True).agg(
        n=("temp_adj_c", "size"), median=("temp_adj_c", "median"), std=("temp_adj_c", "std"),
        warmest_station=("temp_adj_c", lambda s: df.loc[s.idxmax(), "station"]))
    table = pt.join(stats).reset_index()
    table["rank_by_median"] = table["median"].rank(ascending=False, method="min")
    table = table.sort_values(["region", "season"], kind="mergesort")
    table.to_csv(os.path.join(out_dir, "region_season.csv"), index=False, float_format="%.12g",
                 lineterminator="\n")
    return {"table": "region_season.csv"}
