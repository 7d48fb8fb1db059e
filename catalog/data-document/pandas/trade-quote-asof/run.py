"""Match seeded trades to the prevailing quote with pandas.merge_asof (by symbol, tolerance, direction) and
compute trade-classification and spread statistics."""

import numpy as np
import pandas as pd

SYMBOLS = ["AAA", "BBB", "CCC", "DDD"]


def quotes_and_trades(scn):
    """The seeded market: quotes per symbol on a log random walk, trades priced off the true prevailing quote."""
    rng = np.random.default_rng(int(scn["seed"]))
    nq, nt, ns = int(scn["n_quotes"]), int(scn["n_trades"]), int(scn["n_symbols"])
    half = float(scn["spread_bps"]) / 2e4
    q = pd.DataFrame(
        {
            "time_ms": np.cumsum(rng.integers(1, 200, nq)),
            "symbol": [SYMBOLS[i] for i in rng.integers(0, ns, nq)],
            "step": rng.normal(0.0, float(scn["volatility_bps"]) / 1e4, nq),
        }
    )
    q["mid"] = float(scn["mid_price"]) * np.exp(q.groupby("symbol")["step"].cumsum())
    q["bid"], q["ask"] = q["mid"] * (1.0 - half), q["mid"] * (1.0 + half)
    t = pd.DataFrame(
        {
            "time_ms": np.sort(rng.integers(0, int(q["time_ms"].iloc[-1]) + 1000, nt)),
            "symbol": [SYMBOLS[i] for i in rng.integers(0, ns, nt)],
            "size": rng.integers(1, 10, nt) * 100,
            "side": np.where(rng.random(nt) < 0.5, 1, -1),
            "u": rng.uniform(0.0, 1.5, nt),
        }
    )
    true_q = pd.merge_asof(t, q[["time_ms", "symbol", "mid"]], on="time_ms", by="symbol", direction="backward")
    t["price"] = true_q["mid"] * (1.0 + t["side"] * half * t["u"])
    return q, t.dropna(subset=["price"]).reset_index(drop=True)


def main(scn):
    q, t = quotes_and_trades(scn)
    m = pd.merge_asof(
        t,
        q[["time_ms", "symbol", "mid"]].rename(columns={"time_ms": "quote_ms"}),
        left_on="time_ms",
        right_on="quote_ms",
        by="symbol",
        direction=str(scn["direction"]),
        tolerance=int(scn["tolerance_ms"]),
        allow_exact_matches=False,
    )
    matched = m.dropna(subset=["mid"]).copy()
    matched["sign"] = np.sign(matched["price"] - matched["mid"])
    matched["eff_bps"] = 2e4 * (matched["price"] - matched["mid"]).abs() / matched["mid"]
    matched["lag_ms"] = (matched["time_ms"] - matched["quote_ms"]).abs()
    per = []
    for sym, g in t.groupby("symbol", sort=True):
        mg = matched[matched["symbol"] == sym]
        per.append(
            {
                "symbol": sym,
                "n_trades": int(len(g)),
                "volume": int(g["size"].sum()),
                "vwap": float((g["price"] * g["size"]).sum() / g["size"].sum()),
                "n_matched": int(len(mg)),
                "mean_effective_spread_bps": float(mg["eff_bps"].mean()) if len(mg) else 0.0,
                "last_mid": float(q.loc[q["symbol"] == sym, "mid"].iloc[-1]),
            }
        )
    return {
        "n_trades": int(len(t)),
        "n_matched": int(len(matched)),
        "classification_accuracy": float((matched["sign"] == matched["side"]).mean()) if len(matched) else 0.0,
        "mean_quote_lag_ms": float(matched["lag_ms"].mean()) if len(matched) else 0.0,
        "size_weighted_effective_spread_bps": (
            float((matched["eff_bps"] * matched["size"]).sum() / matched["size"].sum()) if len(matched) else 0.0
        ),
        "per_symbol": per,
    }
