"""Time-series resampling, rolling and grouped statistics with pandas on a seeded hourly sensor signal."""

import numpy as np
import pandas as pd


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n_days = int(scn["n_days"])
    n = 24 * n_days
    t = np.arange(n, dtype=np.float64)
    values = (float(scn["base"]) + float(scn["daily_amplitude"]) * np.sin(2 * np.pi * (t - 6.0) / 24.0)
              + float(scn["trend_per_day"]) * t / 24.0 + float(scn["noise_sd"]) * rng.normal(size=n))
    missing = rng.random(n) < float(scn["missing_fraction"])
    values[missing] = np.nan
    idx = pd.date_range("2024-03-01", periods=n, freq="h")
    s = pd.Series(values, index=idx, name="temp")

    daily = s.resample("D").agg(["mean", "min", "max", "count"])
    weekly = s.resample("W-MON", label="left", closed="left").mean()
    roll = s.rolling(window=int(scn["rolling_hours"]), min_periods=1).mean()
    roll_std = s.rolling(window=int(scn["rolling_hours"]), min_periods=2).std()
    ewm = s.ewm(halflife=float(scn["ewm_halflife_hours"]), ignore_na=True).mean()
    filled = s.interpolate(method="time")
    profile = s.groupby(s.index.hour).agg(["mean", "std"])
    exceed = (filled > float(scn["threshold"]))
    runs = (exceed != exceed.shift()).cumsum()[exceed]
    longest = float(runs.value_counts().max()) if len(runs) else 0.0

    return {
        "n_missing": float(missing.sum()),
        "daily": [{"date": d.strftime("%Y-%m-%d"), "mean": float(r["mean"]), "min": float(r["min"]),
                   "max": float(r["max"]), "count": float(r["count"])} for d, r in daily.iterrows()],
        "weekly_mean": [{"week_start": d.strftime("%Y-%m-%d"), "mean": float(v)} for d, v in weekly.items()],
        "rolling": {"final_mean": float(roll.iloc[-1]), "max_mean": float(roll.max()),
                    "argmax_mean": roll.idxmax().strftime("%Y-%m-%dT%H:%M"),
                    "mean_std": float(roll_std.mean())},
        "ewm_final": float(ewm.iloc[-1]),
        "hour_profile_mean": [float(v) for v in profile["mean"]],
        "hour_profile_std": [float(v) for v in profile["std"]],
        "interpolated_mean": float(filled.mean()),
        "lag24_autocorr": float(filled.autocorr(lag=24)),
        "hours_above_threshold": float(exceed.sum()),
        "longest_run_above_threshold": longest,
    }
