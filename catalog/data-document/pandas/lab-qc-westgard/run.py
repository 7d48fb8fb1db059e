"""Clinical-laboratory quality control with pandas: Westgard multirule checks on control-sample runs, computed
per analyte with groupby cumcount/transform (baseline statistics), groupby shift and rolling windows (the
consecutive-run rules), flags joined per row, written as CSV.

Entry workflow: warm workers import this module once; main() builds new frames per call from numpy's PCG64
generator seeded by the scenario.
"""

import os

import numpy as np
import pandas as pd

ANALYTES = [("glucose", 5.5, 0.15), ("sodium", 140.0, 1.2), ("potassium", 4.2, 0.08), ("creatinine", 90.0, 3.0)]


def runs(scenario: dict) -> pd.DataFrame:
    rng = np.random.default_rng(int(scenario["seed"]))
    n, at, shift = int(scenario["n_runs"]), int(scenario["shift_at_run"]), float(scenario["shift_sd"])
    parts = []
    for name, mean, sd in ANALYTES[: int(scenario["n_analytes"])]:
        run = np.arange(1, n + 1)
        value = mean + sd * (rng.normal(0.0, 1.0, n) + np.where(run >= at, shift, 0.0))
        parts.append(pd.DataFrame({"analyte": name, "run": run, "value": value}))
    return pd.concat(parts, ignore_index=True)


def main(scenario: dict) -> dict:
    df = runs(scenario)
    g = df.groupby("analyte", sort=False)
    base = df["value"].where(g.cumcount() < int(scenario["baseline_runs"]))
    df["z"] = (df["value"] - base.groupby(df["analyte"]).transform("mean")) / base.groupby(df["analyte"]).transform(
        "std"
    )
    prev = g["z"].shift(1)
    side = np.sign(df["z"])
    rules = {
        "1_3s": df["z"].abs() > 3.0,
        "2_2s": ((df["z"] > 2) & (prev > 2)) | ((df["z"] < -2) & (prev < -2)),
        "R_4s": ((df["z"] - prev).abs() > 4.0) & (df["z"] * prev < 0),
    }
    if scenario["rules"] == "full":
        roll4 = (
            side.where(df["z"].abs() > 1.0, 0.0).groupby(df["analyte"]).rolling(4).sum().reset_index(level=0, drop=True)
        )
        roll10 = side.groupby(df["analyte"]).rolling(10).sum().reset_index(level=0, drop=True)
        rules["4_1s"] = roll4.abs() == 4
        rules["10_x"] = roll10.abs() == 10
    flags = pd.DataFrame(rules).fillna(False).astype(bool)
    df["flags"] = flags.apply(lambda r: ";".join(k for k, v in r.items() if v), axis=1)
    df.to_csv(os.path.join(os.environ["SWR_ARTIFACTS"], "qc_runs.csv"), index=False)
    rejected = flags.any(axis=1)
    first = df[rejected].groupby("analyte", sort=False)["run"].min()
    return {
        "table": "qc_runs.csv",
        "rule_counts": {k: int(flags[k].sum()) if k in flags else 0 for k in ("1_3s", "2_2s", "R_4s", "4_1s", "10_x")},
        "rejected_runs": int(rejected.sum()),
        "rejected_fraction": float(rejected.mean()),
        "first_rejected_run": [int(first.get(a, -1)) for a in df["analyte"].unique()],
        "baseline_sd": [float(v) for v in base.groupby(df["analyte"], sort=False).std()],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
