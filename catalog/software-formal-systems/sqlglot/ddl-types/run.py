"""Schema migration between SQL dialects with sqlglot: a generated CREATE TABLE (column types, NOT NULL, DEFAULT,
PRIMARY KEY) is parsed in the source dialect, its column definitions and data types are read from the AST
(exp.ColumnDef, exp.DataType), and it is regenerated in the target dialect with that dialect's type mapping."""

import random

import sqlglot
from sqlglot import exp

TYPES = [
    "SMALLINT",
    "INT",
    "BIGINT",
    "DECIMAL(12, 3)",
    "REAL",
    "DOUBLE PRECISION",
    "VARCHAR(64)",
    "TEXT",
    "BOOLEAN",
    "DATE",
    "TIMESTAMP",
    "TIMESTAMP WITH TIME ZONE",
    "BYTEA",
    "JSON",
    "UUID",
]
NAMES = [
    "sample_id",
    "site",
    "depth_m",
    "ph",
    "temperature",
    "collected_at",
    "notes",
    "flagged",
    "payload",
    "batch",
    "analyst",
    "updated_at",
]


def ddl(scn):
    rng = random.Random(int(scn["seed"]))
    cols = []
    for k in range(int(scn["n_columns"])):  # per column: type, then NOT NULL and DEFAULT draws
        t = rng.choice(TYPES)
        col = f"{NAMES[k]} {t}"
        if scn["constraints"]:
            if rng.random() < 0.5:
                col += " NOT NULL"
            if rng.random() < 0.3 and t in ("INT", "BIGINT", "SMALLINT", "REAL", "DOUBLE PRECISION"):
                col += " DEFAULT 0"
        cols.append(col)
    if scn["constraints"]:
        cols.append(f"PRIMARY KEY ({NAMES[0]})")
    return f"CREATE TABLE measurements ({', '.join(cols)})"


def main(scn):
    source = ddl(scn)
    target = str(scn["target"])
    tree = sqlglot.parse_one(source, read="postgres")
    coldefs = list(tree.find_all(exp.ColumnDef))
    out = tree.sql(dialect=target, pretty=bool(scn["pretty"]))
    back = sqlglot.parse_one(out, read=target)
    return {
        "source_ddl": source,
        "target_ddl": out,
        "type_enums": [c.args["kind"].this.name for c in coldefs],
        "target_types": [c.args["kind"].sql(dialect=target) for c in back.find_all(exp.ColumnDef)],
        "n_not_null": sum(1 for c in coldefs for k in c.constraints if isinstance(k.kind, exp.NotNullColumnConstraint)),
        "n_defaults": sum(1 for c in coldefs for k in c.constraints if isinstance(k.kind, exp.DefaultColumnConstraint)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
