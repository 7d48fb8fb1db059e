"""Query fingerprinting with sqlglot (as pg_stat_statements groups statements): each query of a generated workload
is parsed, its identifiers normalised (normalize_identifiers), its literals replaced by placeholders and its IN
lists collapsed with Expression.transform, and the workload is grouped by the hash of the normalised SQL."""

import hashlib
import random

import sqlglot
from sqlglot import exp
from sqlglot.optimizer.normalize_identifiers import normalize_identifiers

TEMPLATES = [
    "SELECT id, mass FROM Particles WHERE energy > {f} AND charge = {i}",
    "SELECT COUNT(*) FROM Events WHERE run_id IN ({ilist}) AND trigger = '{s}'",
    "UPDATE Detectors SET gain = {f} WHERE channel = {i}",
    "SELECT d.channel, AVG(e.energy) FROM Events AS e JOIN Detectors AS d ON e.channel = d.channel "
    "WHERE e.energy BETWEEN {f} AND {f2} GROUP BY d.channel",
    "INSERT INTO Runs (run_id, label, duration) VALUES ({i}, '{s}', {f})",
]
WORDS = ["muon", "jet", "tau", "photon", "minbias"]


def recase(sql, rng):
    """Identifiers' letter case randomised word by word (keywords, literals and quoted text left alone)."""
    out = []
    for word in sql.split(" "):
        if word[:1].isalpha() and not word.isupper() and "'" not in word:
            word = "".join(ch.upper() if rng.random() < 0.5 else ch.lower() for ch in word)
        out.append(word)
    return " ".join(out)


def workload(scn):
    rng = random.Random(int(scn["seed"]))
    queries = []
    for _ in range(int(scn["n_queries"])):  # per query: template, then its literals, then the recasing
        t = TEMPLATES[rng.randrange(int(scn["n_templates"]))]
        sql = t.format(
            f=round(rng.uniform(0, 100), 2),
            f2=round(rng.uniform(100, 200), 2),
            i=rng.randint(0, 999),
            s=rng.choice(WORDS),
            ilist=", ".join(str(rng.randint(1, 99)) for _ in range(rng.randint(1, 5))),
        )
        queries.append(recase(sql, rng) if scn["randomize_case"] else sql)
    return queries


def normalise(sql, dialect, collapse):
    tree = normalize_identifiers(sqlglot.parse_one(sql, read=dialect), dialect=dialect)

    def mask(node):
        if isinstance(node, exp.In) and collapse:
            return exp.In(this=node.this, expressions=[exp.Placeholder()])
        if isinstance(node, exp.Literal):
            return exp.Placeholder()
        return node

    return tree.transform(mask).sql(dialect=dialect)


def main(scn):
    dialect = str(scn["dialect"])
    shapes = {}
    for q in workload(scn):
        text = normalise(q, dialect, bool(scn["collapse_in_lists"]))
        shapes[text] = shapes.get(text, 0) + 1
    ordered = sorted(shapes.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "n_shapes": len(shapes),
        "shape_counts": [n for _, n in ordered],
        "shapes": [text for text, _ in ordered],
        "fingerprints": [hashlib.sha256(text.encode()).hexdigest()[:12] for text, _ in ordered],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
