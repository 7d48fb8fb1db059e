"""Document a SQL model as a dbt schema file with sqlglot: output column types from the optimizer's type
annotation (qualify + annotate_types), column-level lineage (sqlglot.lineage) and each column's expression
rendered in a target dialect, written as schema.yml."""

import json
import os

import sqlglot
from sqlglot.lineage import lineage
from sqlglot.optimizer.annotate_types import annotate_types
from sqlglot.optimizer.qualify import qualify

SCHEMA = {
    "orders": {
        "o_id": "INT",
        "customer_id": "INT",
        "amount": "DECIMAL(12, 2)",
        "qty": "SMALLINT",
        "created_at": "TIMESTAMP",
        "status": "VARCHAR",
    },
    "customers": {"c_id": "INT", "name": "VARCHAR", "region": "VARCHAR", "signup_date": "DATE", "vip": "BOOLEAN"},
}
DIMENSIONS = {
    "region": "c.region",
    "month": "DATE_TRUNC('month', o.created_at)",
    "signup_year": "EXTRACT(YEAR FROM c.signup_date)",
    "tier": "CASE WHEN c.vip THEN 'vip' ELSE 'standard' END",
    "label": "CONCAT(UPPER(c.region), '-', c.name)",
}
MEASURES = {
    "revenue": "SUM(o.amount)",
    "mean_qty": "AVG(o.qty)",
    "n_customers": "COUNT(DISTINCT o.customer_id)",
    "scaled_max": "MAX(o.amount) * {scale}",
    "qty_per_order": "CAST(SUM(o.qty) AS DOUBLE) / COUNT(*)",
    "first_order": "MIN(o.created_at)",
}


def build_sql(dims, measures, scale, min_orders, window):
    cols = [f"{DIMENSIONS[d]} AS {d}" for d in dims]
    cols += [f"{MEASURES[m].format(scale=scale)} AS m{i}_{m}" for i, m in enumerate(measures)]
    if window:
        cols.append("RANK() OVER (ORDER BY SUM(o.amount) DESC) AS revenue_rank")
    group = ", ".join(str(i + 1) for i in range(len(dims)))
    return (
        f"SELECT {', '.join(cols)} FROM orders AS o JOIN customers AS c ON o.customer_id = c.c_id "
        f"WHERE o.status <> 'cancelled' GROUP BY {group} HAVING COUNT(*) >= {min_orders}"
    )


def yaml_doc(columns):
    """dbt's schema.yml layout, strings double-quoted (JSON strings are YAML double-quoted scalars)."""
    lines = ["version: 2", "models:", "  - name: customer_metrics", "    columns:"]
    for c in columns:
        lines += [
            f"      - name: {json.dumps(c['name'])}",
            f"        data_type: {json.dumps(c['data_type'])}",
            f"        description: {json.dumps(c['expression'])}",
            "        meta:",
            f"          sources: [{', '.join(json.dumps(s) for s in c['sources'])}]",
        ]
    return "\n".join(lines) + "\n"


def main(scn):
    dims = list(dict.fromkeys(str(d) for d in scn["dimensions"]))
    measures = [str(m) for m in scn["measures"]]
    target = str(scn["dialect"])
    sql = build_sql(dims, measures, repr(float(scn["scale"])), int(scn["min_orders"]), bool(scn["window"]))
    tree = annotate_types(
        qualify(sqlglot.parse_one(sql, read="duckdb"), schema=SCHEMA, dialect="duckdb", quote_identifiers=False),
        schema=SCHEMA,
        dialect="duckdb",
    )
    columns = []
    for sel in tree.selects:
        name = sel.alias_or_name
        node = lineage(name, sql, schema=SCHEMA, dialect="duckdb")
        sources = sorted({f"{n.source.name}.{n.name.split('.')[-1]}" for n in node.walk() if not n.downstream})
        columns.append(
            {
                "name": name,
                "data_type": sel.type.sql(target),
                "expression": sel.unalias().sql(target),
                "sources": sources,
            }
        )
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "schema.yml"), "w", encoding="utf-8") as fh:
        fh.write(yaml_doc(columns))
    return {
        "schema_file": "schema.yml",
        "model_sql": sqlglot.transpile(sql, read="duckdb", write=target)[0],
        "columns": [c["name"] for c in columns],
        "data_types": [c["data_type"] for c in columns],
        "lineage": [";".join(c["sources"]) for c in columns],
        "source_columns": sorted({s for c in columns for s in c["sources"]}),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
