"""Portfolio analytics with pandas on seeded correlated price paths: pct_change, cumprod, expanding maximum and
drawdown, DataFrame.corr (pearson/spearman/kendall), qcut bins and quantile-based value at risk."""

import numpy as np
import pandas as pd


def prices(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n, k = int(scn["n_days"]), int(scn["n_assets"])
    rho = float(scn["rho"])
    f = rng.standard_normal(n)
    e = rng.standard_normal((n, k))
    vol = float(scn["vol_annual"]) * (1.0 + 0.25 * np.arange(k))
    r = float(scn["drift_annual"]) / 252.0 + vol / np.sqrt(252.0) * (np.sqrt(rho) * f[:, None] + np.sqrt(1.0 - rho) * e)
    idx = pd.bdate_range("2022-01-03", periods=n)
    return pd.DataFrame(100.0 * np.exp(np.cumsum(r, axis=0)), index=idx, columns=[f"A{j}" for j in range(k)])


def main(scn):
    px = prices(scn)
    rets = px.pct_change().dropna()
    port = rets.mean(axis=1)  # equal weights, rebalanced daily
    value = (1.0 + port).cumprod()
    drawdown = value / value.expanding().max() - 1.0
    under = drawdown < 0.0
    runs = (under != under.shift()).cumsum()[under]
    longest = int(runs.value_counts().max()) if len(runs) else 0

    corr = rets.corr(method=str(scn["corr_method"])).to_numpy()
    off = corr[~np.eye(len(corr), dtype=bool)]
    bins = pd.qcut(port.iloc[:-1], q=int(scn["n_bins"]), labels=False)
    nxt = pd.Series(port.iloc[1:].to_numpy(), index=port.index[:-1])
    by_bin = nxt.groupby(bins).mean()
    level = float(scn["var_level"])
    return {
        "final_value": float(value.iloc[-1]),
        "annualised_volatility": float(port.std() * np.sqrt(252.0)),
        "max_drawdown": float(drawdown.min()),
        "max_drawdown_date": drawdown.idxmin().strftime("%Y-%m-%d"),
        "longest_underwater_days": longest,
        "mean_pairwise_correlation": float(off.mean()),
        "min_pairwise_correlation": float(off.min()),
        "next_day_mean_by_bin": [float(v) for v in by_bin],
        "value_at_risk": float(-port.quantile(1.0 - level)),
        "best_asset": str((px.iloc[-1] / px.iloc[0]).idxmax()),
    }
