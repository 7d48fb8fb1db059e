"""Match seeded trades to the prevailing (or next) quote with a DuckDB ASOF JOIN and summarise
execution quality per symbol."""

import os

import duckdb
import numpy as np

QUERY = """
COPY (
    WITH j AS (
        SELECT t.sym, t.ts, t.qty, t.price, q.ts AS qts, q.bid, q.ask
        FROM trades t ASOF LEFT JOIN quotes q ON t.sym = q.sym AND t.ts {op} q.ts
    )
    SELECT sym,
           count(*)                                                   AS n_trades,
           count(qts)                                                 AS n_matched,
           sum(qty)                                                   AS volume,
           sum(price * qty) / sum(qty)                                AS vwap,
           avg(abs(ts - qts))                                         AS mean_quote_age_ms,
           max(abs(ts - qts))                                         AS max_quote_age_ms,
           sum(CASE WHEN abs(ts - qts) > {stale_ms} THEN 1 ELSE 0 END) AS n_stale,
           avg(2 * abs(price - (bid + ask) / 2) / ((bid + ask) / 2) * 10000) AS mean_eff_spread_bps,
           avg((ask - bid) / ((bid + ask) / 2) * 10000)                AS mean_quoted_spread_bps
    FROM j GROUP BY sym ORDER BY sym
) TO '{path}' (FORMAT csv, HEADER)
"""


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n_sym, nq, nt = int(scn["n_symbols"]), int(scn["n_quotes"]), int(scn["n_trades"])
    base = 20.0 + 20.0 * np.arange(n_sym)
    q_sym = rng.integers(0, n_sym, nq)
    q_ts = np.cumsum(rng.integers(1, int(scn["max_gap_ms"]) + 1, nq))
    q_mid = np.round(base[q_sym] * (1.0 + 0.01 * rng.normal(size=nq)), 2)
    half = np.round(rng.uniform(0.01, float(scn["max_half_spread"]), nq), 2)
    t_sym = rng.integers(0, n_sym, nt)
    t_ts = rng.integers(0, int(q_ts[-1]) + 1000, nt)
    t_qty = rng.integers(1, 101, nt)
    t_price = np.round(base[t_sym] * (1.0 + 0.01 * rng.normal(size=nt)), 2)
    names = np.array([f"SYM{i}" for i in range(n_sym)])

    con = duckdb.connect(config={"threads": 1})
    try:
        con.register(
            "quotes", {"sym": names[q_sym], "ts": q_ts.astype(np.int64), "bid": q_mid - half, "ask": q_mid + half}
        )
        con.register(
            "trades",
            {"sym": names[t_sym], "ts": t_ts.astype(np.int64), "qty": t_qty.astype(np.int64), "price": t_price},
        )
        path = os.path.join(os.environ["SWR_ARTIFACTS"], "execution.csv")
        op = ">=" if scn["match"] == "previous" else "<="
        con.execute(QUERY.format(op=op, stale_ms=int(scn["stale_ms"]), path=path.replace("'", "''")))
    finally:
        con.close()
    return {"table": "execution.csv"}
