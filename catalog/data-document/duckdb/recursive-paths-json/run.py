"""Enumerate bounded simple paths of a seeded weighted graph with a DuckDB recursive CTE: hop counts,
cheapest routes."""

import duckdb
import numpy as np

QUERY = """
WITH RECURSIVE walk(node, path, cost, hops) AS (
    SELECT {source}, [{source}], 0.0::DOUBLE, 0
    UNION ALL
    SELECT e.dst, list_append(w.path, e.dst), w.cost + e.weight, w.hops + 1
    FROM walk w JOIN edges e ON e.src = w.node
    WHERE w.hops < {max_hops} AND NOT list_contains(w.path, e.dst)
), ranked AS (
    SELECT node, path, cost, hops,
           row_number() OVER (PARTITION BY node ORDER BY round(cost, 6), hops, path) AS r
    FROM walk WHERE hops > 0
)
SELECT node, min(hops) AS min_hops, count(*) AS n_paths,
       min(cost) AS min_cost, max(cost) AS max_cost,
       any_value(path) FILTER (WHERE r = 1) AS best_path,
       any_value(hops) FILTER (WHERE r = 1) AS best_hops
FROM ranked GROUP BY node ORDER BY node
"""


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n_nodes"])
    adj = rng.random((n, n)) < float(scn["edge_prob"])
    weight = np.round(rng.uniform(1.0, float(scn["weight_max"]), (n, n)), 2)
    np.fill_diagonal(adj, False)
    if not scn["directed"]:
        adj = adj | adj.T
        weight = np.minimum(weight, weight.T)
    src, dst = np.nonzero(adj)
    con = duckdb.connect(config={"threads": 1})
    try:
        con.register("edges", {"src": src.astype(np.int64), "dst": dst.astype(np.int64), "weight": weight[src, dst]})
        rows = con.execute(QUERY.format(source=int(scn["source"]) % n, max_hops=int(scn["max_hops"]))).fetchall()
    finally:
        con.close()
    nodes = [
        {
            "node": float(r[0]),
            "min_hops": float(r[1]),
            "n_paths": float(r[2]),
            "min_cost": float(r[3]),
            "max_cost": float(r[4]),
            "best_path": [float(x) for x in r[5]],
            "best_hops": float(r[6]),
        }
        for r in rows
    ]
    return {
        "n_edges": float(len(src)),
        "n_reachable": float(len(nodes)),
        "total_paths": float(sum(x["n_paths"] for x in nodes)),
        "nodes": nodes,
    }
