"""Generate a PostgreSQL query from scenario parameters, transpile it to other dialects and optimise it with sqlglot."""

import sqlglot
from sqlglot.optimizer import optimize

TARGETS = ["bigquery", "duckdb", "mysql", "oracle", "snowflake", "spark", "sqlite", "tsql"]
SCHEMA = {
    "orders": {"o_id": "INT", "customer_id": "INT", "amount": "DOUBLE", "created_at": "TIMESTAMP",
               "status": "VARCHAR"},
    "customers": {"c_id": "INT", "name": "VARCHAR", "region": "VARCHAR", "email": "VARCHAR"},
    "items": {"i_id": "INT", "order_id": "INT", "sku": "VARCHAR", "qty": "INT", "price": "DOUBLE"},
}
STATUSES = ["shipped", "pending", "returned", "cancelled"]
AGGREGATES = {
    "sum": "SUM(o.amount)",
    "avg": "AVG(o.amount)",
    "count_distinct": "COUNT(DISTINCT o.customer_id)",
    "string_agg": "STRING_AGG(c.name, ',')",
}


for _d in TARGETS:  # load every dialect module at import time, not inside the first call
    sqlglot.transpile("SELECT 1", read="postgres", write=_d)


def build_sql(scn):
    min_amount = repr(float(scn["min_amount"]))
    statuses = ", ".join(f"'{s}'" for s in STATUSES[: int(scn["n_statuses"])])
    grain = str(scn["date_grain"])
    agg = AGGREGATES[str(scn["aggregate"])]
    lines = [
        "SELECT",
        f"  DATE_TRUNC('{grain}', o.created_at) AS period,",
        "  UPPER(c.region) || '-' || c.name AS label,",
        f"  {agg} AS metric,",
        "  COALESCE(MAX(o.amount), 0)::INT AS top_amount",
    ]
    if scn["join_items"]:
        lines[-1] += ","
        lines.append("  SUM(i.qty * i.price) AS item_value")
    lines += ["FROM orders AS o", "JOIN customers AS c ON o.customer_id = c.c_id"]
    if scn["join_items"]:
        lines.append("LEFT JOIN items AS i ON i.order_id = o.o_id")
    lines += [
        f"WHERE o.amount >= {min_amount}",
        f"  AND o.status IN ({statuses})",
        f"  AND c.email ILIKE '%@{scn['region']}.example.com'",
        "GROUP BY 1, 2",
        f"HAVING COUNT(*) > {int(scn['min_count'])}",
        "ORDER BY metric DESC",
        f"LIMIT {int(scn['limit'])}",
    ]
    return "\n".join(lines)


def main(scn):
    sql = build_sql(scn)
    tree = sqlglot.parse_one(sql, read="postgres")
    out = {"source": tree.sql(dialect="postgres")}
    out["transpiled"] = {d: sqlglot.transpile(sql, read="postgres", write=d)[0] for d in TARGETS}
    opt = optimize(tree.copy(), schema=SCHEMA, dialect="postgres")
    out["optimized"] = opt.sql(dialect="postgres")
    out["optimized_pretty_lines"] = len(opt.sql(dialect="postgres", pretty=True).splitlines())
    return out


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
