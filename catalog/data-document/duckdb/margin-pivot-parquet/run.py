"""Join, aggregate and PIVOT seeded order data in DuckDB and COPY the result to a Parquet file."""

import os

import duckdb
import numpy as np

REGIONS = ["north", "south", "east", "west"]
CATEGORIES = ["tools", "garden", "toys", "books"]

QUERY = """
COPY (
    WITH joined AS (
        SELECT o.region, p.category, o.month,
               o.qty * o.unit_price                       AS revenue,
               o.qty * (o.unit_price - p.unit_cost)       AS margin
        FROM orders o JOIN products p USING (product_id)
        WHERE o.qty >= {min_qty}
    ), monthly AS (
        SELECT category, region, month, sum(margin) AS margin, sum(revenue) AS revenue
        FROM joined GROUP BY ALL
    ), ranked AS (
        SELECT category, region, sum(margin) AS margin, sum(revenue) AS revenue,
               avg(margin) AS mean_monthly_margin
        FROM monthly GROUP BY ALL
    ), piv AS (
        PIVOT ranked ON region IN ('north', 'south', 'east', 'west') USING sum(margin)
        GROUP BY category
    ), tot AS (
        SELECT category, sum(revenue) AS total_revenue, sum(margin) AS total_margin,
               sum(margin) / sum(revenue) AS margin_ratio, max(mean_monthly_margin) AS best_mean_monthly_margin
        FROM ranked GROUP BY category
    )
    SELECT piv.category, piv.north, piv.south, piv.east, piv.west,
           tot.total_revenue, tot.total_margin, tot.margin_ratio, tot.best_mean_monthly_margin,
           rank() OVER (ORDER BY tot.total_margin DESC) AS margin_rank
    FROM piv JOIN tot USING (category)
    ORDER BY category
) TO '{path}' (FORMAT parquet)
"""


def main(scn):
    out_dir = os.environ["SWR_ARTIFACTS"]
    rng = np.random.default_rng(int(scn["seed"]))
    n_products = 12
    n = int(scn["n_orders"])
    product_cat = np.arange(n_products) % len(CATEGORIES)
    unit_cost = np.round(rng.uniform(2.0, 40.0, n_products), 2)
    product_id = rng.integers(0, n_products, n)
    region = rng.integers(0, len(REGIONS), n)
    month = rng.integers(1, 13, n)
    qty = rng.integers(1, 21, n)
    markup = rng.normal(float(scn["mean_markup"]), float(scn["markup_sd"]), n)
    unit_price = np.round(unit_cost[product_id] * (1.0 + markup), 2)

    con = duckdb.connect(config={"threads": 1})
    try:
        con.register("products", {"product_id": np.arange(n_products, dtype=np.int64),
                                  "category": np.array([CATEGORIES[c] for c in product_cat]),
                                  "unit_cost": unit_cost})
        con.register("orders", {"product_id": product_id.astype(np.int64),
                                "region": np.array([REGIONS[r] for r in region]),
                                "month": month.astype(np.int64), "qty": qty.astype(np.int64),
                                "unit_price": unit_price})
        path = os.path.join(out_dir, "margin_pivot.parquet")
        con.execute(QUERY.format(min_qty=int(scn["min_qty"]), path=path.replace("'", "''")))
    finally:
        con.close()
    return {"pivot": "margin_pivot.parquet"}
