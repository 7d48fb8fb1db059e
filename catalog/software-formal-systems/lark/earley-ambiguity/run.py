"""Earley parsing of an operator chain with an ambiguous lark grammar: enumerate every parse and evaluate each."""

import math

from lark import Lark, Transformer
from lark.visitors import CollapseAmbiguities

AMBIGUOUS = r"""
?start: e
?e: e OP e  -> binop
  | NUMBER  -> number
OP: "+" | "-" | "*" | "/"
%import common.NUMBER
%import common.WS
%ignore WS
"""
PRECEDENCE = r"""
?start: sum
?sum: product | sum ADDOP product -> binop
?product: atom | product MULOP atom -> binop
?atom: NUMBER -> number
ADDOP: "+" | "-"
MULOP: "*" | "/"
%import common.NUMBER
%import common.WS
%ignore WS
"""
EARLEY = Lark(AMBIGUOUS, parser="earley", ambiguity="explicit", lexer="dynamic")
EARLEY_RESOLVED = Lark(AMBIGUOUS, parser="earley", ambiguity="resolve", lexer="dynamic")
LALR = Lark(PRECEDENCE, parser="lalr")
OPS = ["+", "-", "*", "/"]


class Eval(Transformer):
    def number(self, c):
        return float(c[0])

    def binop(self, c):
        a, op, b = c
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[str(op)]


class Shape(Transformer):
    """Bracketing of a tree as a string of nested parentheses around operand indices."""

    def __init__(self):
        super().__init__()
        self.i = 0

    def number(self, c):
        self.i += 1
        return str(self.i - 1)

    def binop(self, c):
        return f"({c[0]}{c[2]})"


def main(scn):
    nums = [float(v) for v in scn["numbers"]]
    ops = [OPS[int(o) % 4] for o in scn["ops"]][: len(nums) - 1]
    text = repr(nums[0]) + "".join(f" {op} {repr(v)}" for op, v in zip(ops, nums[1:]))

    forest = EARLEY.parse(text)
    trees = CollapseAmbiguities().transform(forest)
    values = [Eval().transform(t) for t in trees]
    shapes = sorted(Shape().transform(t) for t in trees)
    finite = sorted(v for v in values if math.isfinite(v))
    distinct = [v for i, v in enumerate(finite)  # cluster values closer than 1e-9 relative
                if i == 0 or v - finite[i - 1] > 1e-9 * max(1.0, abs(v))]
    ambig_nodes = sum(1 for st in forest.iter_subtrees() if st.data == "_ambig")
    lalr_value = Eval().transform(LALR.parse(text))
    resolved_value = Eval().transform(EARLEY_RESOLVED.parse(text))
    return {
        "expression": text,
        "n_parses": len(trees),
        "n_ambiguity_nodes": int(ambig_nodes),
        "n_distinct_values": len(distinct),
        "min_value": float(finite[0]),
        "max_value": float(finite[-1]),
        "mean_value": float(sum(finite) / len(finite)),
        "median_value": float(finite[len(finite) // 2]),
        "first_bracketing": shapes[0],
        "precedence_value": float(lalr_value),
        "precedence_rank": int(sum(1 for v in finite if v < lalr_value - 1e-9 * max(1.0, abs(lalr_value)))),
        "earley_resolved_value": float(resolved_value),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
