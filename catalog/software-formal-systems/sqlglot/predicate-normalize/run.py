"""Boolean predicate rewriting with sqlglot's optimizer: simplify (constant folding, De Morgan, range merging,
flattening), the normalization distance to CNF or DNF, and normalize under a distance budget; the rewritten
predicate is checked against the original on every point of a small integer grid."""

import itertools
import random

import sqlglot
from sqlglot import exp
from sqlglot.optimizer.normalize import normalization_distance, normalize, normalized
from sqlglot.optimizer.simplify import simplify

OPS = ["=", "<", ">", "<=", ">=", "<>"]
COMPARE = {
    exp.EQ: lambda a, b: a == b,
    exp.NEQ: lambda a, b: a != b,
    exp.LT: lambda a, b: a < b,
    exp.LTE: lambda a, b: a <= b,
    exp.GT: lambda a, b: a > b,
    exp.GTE: lambda a, b: a >= b,
}


def predicate(rng, depth, n_cols, p_not, max_lit):
    """Random predicate, drawn depth-first: a leaf draws column, operator, constant; an inner node draws its
    left subtree, right subtree, connective, then whether it is negated."""
    if depth == 0:
        return f"c{rng.randrange(n_cols)} {rng.choice(OPS)} {rng.randint(0, max_lit)}"
    a = predicate(rng, depth - 1, n_cols, p_not, max_lit)
    b = predicate(rng, depth - 1, n_cols, p_not, max_lit)
    text = f"({a} {rng.choice(['AND', 'OR'])} {b})"
    return f"NOT {text}" if rng.random() < p_not else text


def evaluate(node, env):
    if isinstance(node, exp.Paren):
        return evaluate(node.this, env)
    if isinstance(node, exp.And):
        return evaluate(node.left, env) and evaluate(node.right, env)
    if isinstance(node, exp.Or):
        return evaluate(node.left, env) or evaluate(node.right, env)
    if isinstance(node, exp.Not):
        return not evaluate(node.this, env)
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if type(node) in COMPARE:
        value = env[node.left.name] if isinstance(node.left, exp.Column) else int(node.left.this)
        other = env[node.right.name] if isinstance(node.right, exp.Column) else int(node.right.this)
        return COMPARE[type(node)](value, other)
    raise TypeError(f"unexpected node {type(node).__name__}")


def satisfying(node, n_cols, max_lit):
    grid = range(-1, max_lit + 2)
    return sum(
        1 for vals in itertools.product(grid, repeat=n_cols) if evaluate(node, {f"c{i}": v for i, v in enumerate(vals)})
    )


def clauses(node, top):
    """Operands of the top-level connective (Or for DNF, And for CNF), looking through parentheses."""
    if isinstance(node, exp.Paren):
        return clauses(node.this, top)
    if isinstance(node, top):
        return clauses(node.left, top) + clauses(node.right, top)
    return 1


def main(scn):
    n_cols, max_lit = int(scn["n_columns"]), int(scn["max_literal"])
    rng = random.Random(int(scn["seed"]))
    text = predicate(rng, int(scn["depth"]), n_cols, float(scn["p_not"]), max_lit)
    dnf = scn["form"] == "dnf"
    original = sqlglot.parse_one(text)
    simple = simplify(original.copy())
    distance = normalization_distance(simple, dnf=dnf)
    result = normalize(simple.copy(), dnf=dnf, max_distance=int(scn["max_distance"]))
    top = exp.Or if dnf else exp.And
    return {
        "predicate": text,
        "simplified": simple.sql(),
        "distance": int(distance),
        "normalized_sql": result.sql(),
        "is_normal_form": bool(normalized(result, dnf=dnf)),
        "n_clauses": clauses(result, top),
        "n_comparisons": sum(1 for n in result.walk() if type(n) in COMPARE),
        "satisfying_original": satisfying(original, n_cols, max_lit),
        "satisfying_normalized": satisfying(result, n_cols, max_lit),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
