"""Run a generated reporting query on in-memory Python tables with sqlglot's own engine: sqlglot.planner builds the
step DAG (scan, join, aggregate, sort) and sqlglot.executor evaluates it row by row in Python."""

import random

import sqlglot
from sqlglot.executor import execute
from sqlglot.planner import Plan

REGIONS = ["north", "south", "east", "west"]
PRODUCTS = [  # product, category, unit_cost
    ("A", "tools", 12.5),
    ("B", "tools", 30.0),
    ("C", "garden", 8.25),
    ("D", "garden", 45.0),
    ("E", "kitchen", 19.75),
    ("F", "kitchen", 60.0),
]
METRICS = {
    "revenue": "SUM(s.qty * s.price)",
    "margin": "SUM(s.qty * (s.price - p.unit_cost))",
    "mean_price": "AVG(s.price)",
    "big_orders": "SUM(CASE WHEN s.qty > 10 THEN 1 ELSE 0 END)",
}
KEYS = {"region": "s.region", "product": "s.product", "day": "s.day", "category": "p.category"}


def tables(seed, n_rows):
    rng = random.Random(seed)
    sales = []
    for _ in range(n_rows):  # draw order per row: region, product, qty, price, day
        sales.append(
            {
                "region": rng.choice(REGIONS),
                "product": rng.choice("ABCDEF"),
                "qty": rng.randint(1, 20),
                "price": round(rng.uniform(1.0, 100.0), 2),
                "day": rng.randint(1, 7),
            }
        )
    products = [{"product": p, "category": c, "unit_cost": u} for p, c, u in PRODUCTS]
    return {"sales": sales, "products": products}


def build_sql(key, metric, min_price, exclude_day, min_count, limit):
    where = f"s.price >= {min_price:.3f}" + (f" AND s.day <> {exclude_day}" if exclude_day else "")
    return (
        f"SELECT {KEYS[key]} AS k, {METRICS[metric]} AS metric, COUNT(*) AS n "
        f"FROM sales AS s JOIN products AS p ON s.product = p.product WHERE {where} "
        f"GROUP BY {KEYS[key]} HAVING COUNT(*) >= {min_count} ORDER BY metric DESC, k ASC LIMIT {limit}"
    )


def steps(step):
    """Step kinds of the plan, depth first from the root, dependencies in the planner's order."""
    out = [type(step).__name__]
    for dep in step.dependencies:
        out += steps(dep)
    return out


def main(scn):
    data = tables(int(scn["seed"]), int(scn["n_rows"]))
    threshold = round(float(scn["min_price"]), 2) + 0.005  # between two cents: no price sits on it
    sql = build_sql(
        str(scn["group_by"]),
        str(scn["metric"]),
        threshold,
        int(scn["exclude_day"]),
        int(scn["min_count"]),
        int(scn["limit"]),
    )
    result = execute(sql, tables=data)
    plan = Plan(sqlglot.parse_one(sql))
    return {
        "sql": sql,
        "keys": [str(r[0]) for r in result.rows],
        "metric": [float(r[1]) for r in result.rows],
        "counts": [int(r[2]) for r in result.rows],
        "plan_steps": steps(plan.root),
        "rows_after_filter": sum(
            1 for r in data["sales"] if r["price"] >= threshold and r["day"] != int(scn["exclude_day"])
        ),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
