"""Algebraic simplification with lark tree templates (lark.tree_templates.TemplateConf): rewrite rules written
as expressions with $-variables are matched against each subtree bottom-up and replaced until no rule applies."""

import random

from lark import Lark, Tree
from lark.tree_templates import TemplateConf

GRAMMAR = r"""
?start: sum
?sum: product | sum "+" product -> add | sum "-" product -> sub
?product: atom | product "*" atom -> mul
?atom: NUMBER -> num | VAR -> var | "(" sum ")"
VAR: /\$?[a-z]\w*/
%import common.NUMBER
%import common.WS
%ignore WS
"""
PARSER = Lark(GRAMMAR, parser="lalr")  # fixed grammar: built once, at import
CONF = TemplateConf(PARSER.parse)
RULES = {  # group: [(pattern, replacement)], tried in this order
    "identity": [("$a * 1", "$a"), ("1 * $a", "$a"), ("$a + 0", "$a"), ("0 + $a", "$a"), ("$a - 0", "$a")],
    "annihilate": [("$a * 0", "0"), ("0 * $a", "0")],
    "cancel": [("$a - $d", "0")],
    "factor": [("$a * $b + $d * $c", "$a * ($b + $c)")],
}  # a pattern with $d applies only when $a and $d matched equal subtrees (a template variable binds once per name)
TEMPLATES = {g: [(CONF(p), CONF(r)) for p, r in rules] for g, rules in RULES.items()}
VARS = ["x", "y", "z"]


def expression(rng, depth, p_const):
    """Random expression text, drawn depth first: a leaf is a constant 0, 1 or 2 (rng.random() < p_const, then
    rng.choice) or a variable; an inner node draws its operator, then its left and right operands."""
    if depth == 0:
        if rng.random() < p_const:
            return str(rng.choice([0, 1, 2]))
        return rng.choice(VARS)
    op = rng.choice(["+", "-", "*"])
    return f"({expression(rng, depth - 1, p_const)} {op} {expression(rng, depth - 1, p_const)})"


def render(t):
    if t.data == "num" or t.data == "var":
        return str(t.children[0])
    sym = {"add": "+", "sub": "-", "mul": "*"}[t.data]
    return f"({render(t.children[0])} {sym} {render(t.children[1])})"


def evaluate(t, env):
    if t.data == "num":
        return float(t.children[0])
    if t.data == "var":
        return env[str(t.children[0])]
    a, b = evaluate(t.children[0], env), evaluate(t.children[1], env)
    return {"add": a + b, "sub": a - b, "mul": a * b}[t.data]


def simplify(t, groups, counts):
    if t.data in ("num", "var"):
        return t
    t = Tree(t.data, [simplify(c, groups, counts) for c in t.children])
    for g in groups:
        for pattern, replacement in TEMPLATES[g]:
            m = pattern.match(t)
            if m is None or ("d" in m and m["a"] != m["d"]):
                continue
            counts[g] += 1
            return simplify(replacement.apply_vars(m), groups, counts)
    return t


def size(t):
    return 1 + sum(size(c) for c in t.children if isinstance(c, Tree))


def main(scn):
    rng = random.Random(int(scn["seed"]))
    text = expression(rng, int(scn["depth"]), float(scn["p_const"]))
    groups = [g for g in RULES if scn[g]]
    tree = PARSER.parse(text)
    counts = {g: 0 for g in RULES}
    out = simplify(tree, groups, counts)
    env = dict(zip(VARS, (float(v) for v in scn["point"])))
    return {
        "expression": text,
        "simplified": render(out),
        "rewrites": [counts[g] for g in RULES],
        "size_before": size(tree),
        "size_after": size(out),
        "value_before": evaluate(tree, env),
        "value_after": evaluate(out, env),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
