"""JSON extraction across SQL dialects with sqlglot: JSON paths are parsed by sqlglot.jsonpath into key and
subscript parts, queries using them are transpiled between dialects' JSON functions and operators, and the parsed
paths are walked over the document to give the values each query would extract."""

import json
import random

import sqlglot
from sqlglot import exp, jsonpath


def document(rng):
    readings = [
        {"value": round(rng.uniform(-5, 5), 2), "t": i, "flags": [rng.randint(0, 3) for _ in range(2)]}
        for i in range(rng.randint(2, 4))
    ]
    return {
        "site": rng.choice(["alpha", "beta", "gamma"]),
        "depth": rng.randint(1, 300),
        "sensor": {"id": f"S{rng.randint(10, 99)}", "readings": readings, "calib": {"gain": 1.5, "bias": -0.25}},
        "tags": ["raw", "qc"],
    }


def random_path(rng, doc, depth):
    """Walk from the root: at a dict take rng.choice of its sorted keys, at a list rng.randrange of its length."""
    parts, node = [], doc
    for _ in range(depth):
        if isinstance(node, dict):
            k = rng.choice(sorted(node))
            parts.append(f".{k}")
            node = node[k]
        elif isinstance(node, list):
            i = rng.randrange(len(node))
            parts.append(f"[{i}]")
            node = node[i]
        else:
            break
    return "$" + "".join(parts)


def walk(doc, path):
    """The value at a parsed sqlglot JSONPath (None when absent)."""
    node = doc
    for part in path.expressions:
        if isinstance(part, exp.JSONPathRoot):
            continue
        if isinstance(part, exp.JSONPathKey) and isinstance(node, dict):
            node = node.get(part.this)
        elif isinstance(part, exp.JSONPathSubscript) and isinstance(node, list):
            i = int(part.this)
            node = node[i] if 0 <= i < len(node) else None
        else:
            return None
    return node


def main(scn):
    rng = random.Random(int(scn["seed"]))
    doc = document(rng)
    paths = [random_path(rng, doc, int(scn["max_depth"])) for _ in range(int(scn["n_paths"]))]
    fn = "JSON_EXTRACT_SCALAR" if scn["scalar"] else "JSON_EXTRACT"
    cols = ", ".join(f"{fn}(doc, '{p}') AS v{i}" for i, p in enumerate(paths))
    sql = f"SELECT {cols} FROM observations"
    out = sqlglot.transpile(sql, read="bigquery", write=str(scn["target"]))[0]
    parsed = [jsonpath.parse(p) for p in paths]
    return {
        "document": json.dumps(doc, sort_keys=True),
        "paths": paths,
        "transpiled": out,
        "path_parts": [len(p.expressions) - 1 for p in parsed],
        "values": [json.dumps(walk(doc, p), sort_keys=True) for p in parsed],
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
