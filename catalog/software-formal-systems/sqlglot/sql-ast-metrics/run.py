"""Parse a generated analytic query (CTEs, nested subqueries, UNION ALL) with sqlglot; AST metrics, scopes and a tree diff."""

import sqlglot
from sqlglot import exp
from sqlglot.diff import Insert, Keep, Move, Remove, Update
from sqlglot.optimizer.scope import traverse_scope

COUNTED = ["Select", "Column", "Table", "Join", "Subquery", "CTE", "Union", "Literal", "Where", "Alias",
           "GT", "EQ", "In", "And", "Sum", "Count"]

sqlglot.parse_one("WITH a AS (SELECT 1) SELECT * FROM a", read="duckdb")  # warm the dialect at import


def fmt(v):
    return repr(round(float(v), 4))


def build_sql(n_ctes, depth, branches, threshold, step):
    ctes = []
    for k in range(n_ctes):
        ctes.append(f"cte_{k} AS (SELECT customer_id, SUM(amount) AS total_{k}, COUNT(*) AS n_{k} "
                    f"FROM orders WHERE amount > {fmt(threshold + k * step)} GROUP BY customer_id)")
    inner = "SELECT region FROM customers WHERE signup_year > 2000"
    for d in range(depth):  # nest IN-subqueries `depth` levels deep
        inner = (f"SELECT region FROM customers WHERE c_id IN (SELECT customer_id FROM orders "
                 f"WHERE amount > {fmt(threshold * (d + 2))} AND customer_id IN ({inner.replace('region', 'c_id', 1)}))")
    selects = []
    for b in range(branches):
        cols = ", ".join(f"cte_{k}.total_{k}" for k in range(n_ctes))
        joins = " ".join(f"JOIN cte_{k} ON cte_{k}.customer_id = c.c_id" for k in range(n_ctes))
        selects.append(f"SELECT c.c_id, c.region, {cols} FROM customers AS c {joins} "
                       f"WHERE cte_0.total_0 > {fmt(threshold * (b + 1) * 10)} AND c.region IN ({inner})")
    return "WITH " + ", ".join(ctes) + " " + " UNION ALL ".join(selects)


def metrics(tree):
    nodes = list(tree.walk())
    counts = {name: sum(1 for n in nodes if type(n).__name__ == name) for name in COUNTED}
    depth = max(n.depth for n in nodes)
    lits = [float(n.this) for n in nodes if isinstance(n, exp.Literal) and not n.is_string]
    return nodes, counts, depth, lits


def main(scn):
    n_ctes = int(scn["n_ctes"])
    depth = int(scn["subquery_depth"])
    branches = int(scn["union_branches"])
    threshold = float(scn["threshold"])
    step = float(scn["threshold_step"])
    sql = build_sql(n_ctes, depth, branches, threshold, step)
    tree = sqlglot.parse_one(sql, read="duckdb")
    nodes, counts, max_depth, lits = metrics(tree)

    scopes = list(traverse_scope(tree))
    scope_kinds = {"root": 0, "cte": 0, "subquery": 0, "set_operation": 0, "correlated_subquery": 0, "derived_table": 0}
    for s in scopes:
        for kind in scope_kinds:
            if getattr(s, f"is_{kind}"):
                scope_kinds[kind] += 1

    # Tree diff against the same query built with one CTE and one nesting level fewer (floors at 1 and 0).
    other = sqlglot.parse_one(build_sql(max(1, n_ctes - 1), max(0, depth - 1), branches, threshold * 1.5, step),
                              read="duckdb")
    edits = sqlglot.diff(tree, other, delta_only=False)
    kinds = {"insert": Insert, "remove": Remove, "move": Move, "update": Update, "keep": Keep}
    edit_counts = {k: sum(1 for e in edits if isinstance(e, cls)) for k, cls in kinds.items()}

    return {
        "sql_length": len(sql),
        "n_nodes": len(nodes),
        "max_depth": int(max_depth),
        "node_counts": counts,
        "tables": sorted({t.name for t in tree.find_all(exp.Table)}),
        "column_names": sorted({c.name for c in tree.find_all(exp.Column)}),
        "n_scopes": len(scopes),
        "scope_kinds": scope_kinds,
        "numeric_literal_sum": float(sum(lits)),
        "numeric_literal_max": float(max(lits)),
        "diff_edits": edit_counts,
        "pretty_lines": len(tree.sql(dialect="duckdb", pretty=True).splitlines()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
