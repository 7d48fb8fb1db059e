"""Decorrelating subqueries with sqlglot's optimizer rules one at a time (qualify, unnest_subqueries,
eliminate_subqueries, merge_subqueries, optionally pushdown_predicates), and checking on generated data with
Python's sqlite3 that the rewritten query returns the same rows as the original."""

import random
import sqlite3

import sqlglot
from sqlglot import exp
from sqlglot.optimizer.eliminate_subqueries import eliminate_subqueries
from sqlglot.optimizer.merge_subqueries import merge_subqueries
from sqlglot.optimizer.pushdown_predicates import pushdown_predicates
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.unnest_subqueries import unnest_subqueries

SCHEMA = {
    "obs": {"id": "INT", "station": "INT", "val": "DOUBLE", "day": "INT"},
    "stations": {"sid": "INT", "region": "VARCHAR", "elev": "DOUBLE"},
}


def build_sql(scn):
    preds = []
    if scn["scalar_subquery"] or not (scn["in_subquery"] or scn["exists_subquery"]):
        preds.append("o.val > (SELECT AVG(o2.val) FROM obs AS o2 WHERE o2.station = o.station)")
    if scn["in_subquery"]:
        preds.append(f"o.station IN (SELECT s.sid FROM stations AS s WHERE s.elev > {float(scn['min_elev'])!r})")
    if scn["exists_subquery"]:
        preds.append(
            f"EXISTS (SELECT 1 FROM stations AS s2 WHERE s2.sid = o.station AND s2.region = '{scn['region']}')"
        )
    return f"SELECT o.id, o.station, o.val FROM obs AS o WHERE {' AND '.join(preds)}"


def data(scn):
    rng = random.Random(int(scn["seed"]))
    stations = [(sid, rng.choice(["north", "south", "east"]), round(rng.uniform(0, 500), 1)) for sid in range(8)]
    obs = [(i, rng.randrange(8), round(rng.uniform(-10, 30), 2), rng.randint(1, 30)) for i in range(int(scn["n_obs"]))]
    return stations, obs


def run_sqlite(sql, stations, obs):
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE stations (sid INTEGER, region TEXT, elev REAL)")
    con.execute("CREATE TABLE obs (id INTEGER, station INTEGER, val REAL, day INTEGER)")
    con.executemany("INSERT INTO stations VALUES (?, ?, ?)", stations)
    con.executemany("INSERT INTO obs VALUES (?, ?, ?, ?)", obs)
    rows = sorted(con.execute(sql).fetchall())
    con.close()
    return rows


def main(scn):
    sql = build_sql(scn)
    tree = qualify(sqlglot.parse_one(sql), schema=SCHEMA)
    before = sum(1 for _ in tree.find_all(exp.Subquery, exp.Exists))
    steps = [unnest_subqueries, eliminate_subqueries, merge_subqueries]
    steps += [pushdown_predicates] if scn["pushdown"] else []
    for step in steps:
        tree = step(tree)
    stations, obs = data(scn)
    original = run_sqlite(sqlglot.transpile(sql, write="sqlite")[0], stations, obs)
    rewritten = run_sqlite(tree.sql(dialect="sqlite"), stations, obs)
    return {
        "original_sql": sql,
        "rewritten_sql": tree.sql(),
        "subqueries_before": before,
        "subqueries_after": sum(1 for _ in tree.find_all(exp.Subquery, exp.Exists)),
        "ctes_after": len(tree.args.get("with").expressions) if tree.args.get("with") else 0,
        "left_joins_after": sum(1 for j in tree.find_all(exp.Join) if j.side == "LEFT"),
        "rows_original": len(original),
        "rows_rewritten": len(rewritten),
        "same_rows": original == rewritten,
        "id_checksum": sum(r[0] for r in original),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
