"""A grammar-driven translator built with lark: a small formula language (let bindings, if/then/else, calls) is
parsed with the Earley parser and translated top-down by a lark Interpreter into the source of a Python function
f(x, y), shipped as a module an agent's code must match by behaviour on hidden points."""

import math
import os

from lark import Lark
from lark.visitors import Interpreter

GRAMMAR = r"""
start: stmt* expr
stmt: "let" NAME "=" expr ";"
?expr: "if" cond "then" expr "else" expr "end" -> ifexpr
     | sum
cond: sum CMP sum
?sum: product | sum "+" product -> add | sum "-" product -> sub
?product: unary | product "*" unary -> mul | product "/" unary -> div
?unary: power | "-" unary -> neg
?power: atom | atom "^" unary -> pow
?atom: NUMBER -> number
     | NAME "(" expr ("," expr)* ")" -> call
     | NAME -> var
     | "(" expr ")"
CMP: "<=" | ">=" | "<" | ">"
%import common.NUMBER
%import common.CNAME -> NAME
%import common.WS
%ignore WS
"""
FUNCS = {"sqrt", "atan2", "cos", "sin", "exp", "tanh", "log1p", "hypot"}
POINTS = [(1.0, 0.5), (-0.3, 2.0), (0.05, -0.04), (2.5, -1.5)]


class ToPython(Interpreter):
    """Top-down translation: each rule returns Python expression text; statements collect assignment lines."""

    def __init__(self):
        self.lines = []

    def start(self, tree):
        for child in tree.children[:-1]:
            self.visit(child)
        return self.lines + [f"return {self.visit(tree.children[-1])}"]

    def stmt(self, tree):
        name, value = tree.children
        self.lines.append(f"{name} = {self.visit(value)}")

    def ifexpr(self, tree):
        cond, a, b = (self.visit(c) for c in tree.children)
        return f"({a} if {cond} else {b})"

    def cond(self, tree):
        left, op, right = tree.children
        return f"{self.visit(left)} {op} {self.visit(right)}"

    def _bin(op):
        def rule(self, tree):
            return f"({self.visit(tree.children[0])} {op} {self.visit(tree.children[1])})"

        return rule

    add, sub, mul, div = _bin("+"), _bin("-"), _bin("*"), _bin("/")

    def neg(self, tree):
        return f"(-{self.visit(tree.children[0])})"

    def pow(self, tree):
        return f"math.pow({self.visit(tree.children[0])}, {self.visit(tree.children[1])})"

    def number(self, tree):
        return repr(float(tree.children[0]))

    def var(self, tree):
        return str(tree.children[0])

    def call(self, tree):
        name = str(tree.children[0])
        if name not in FUNCS:
            raise NameError(name)
        return f"math.{name}({', '.join(self.visit(c) for c in tree.children[1:])})"


def program(scn):
    """The formula program of the scenario (the summary states the same template)."""
    lines = [
        "let r = hypot(x, y);",
        "let t = atan2(y, x);",
        f"let g = {float(scn['a'])!r} * cos({int(scn['k'])} * t) + {float(scn['b'])!r} * r^{int(scn['p'])};",
    ]
    if scn["damped"]:
        lines.append("let g = g / (1 + r * r);")
    inner = scn["inner"]
    lines.append(f"if r {scn['compare']} {float(scn['r0'])!r} then g * {inner}(-r) else g - {inner}(r) end")
    return "\n".join(lines)


def main(scn):
    text = program(scn)
    parser = Lark(GRAMMAR, parser="earley", lexer="dynamic")
    tree = parser.parse(text)
    body = ToPython().visit(tree)
    source = "import math\n\n\ndef f(x, y):\n" + "".join(f"    {ln}\n" for ln in body)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "formula.py"), "w", encoding="utf-8") as fh:
        fh.write(source)
    ns = {"math": math}
    exec(compile(source, "formula.py", "exec"), ns)
    return {
        "function_module": "formula.py",
        "program": text,
        "values": [float(ns["f"](x, y)) for x, y in POINTS],
        "n_statements": len(list(tree.find_data("stmt"))),
        "n_calls": len(list(tree.find_data("call"))),
        "n_tokens": sum(1 for _ in tree.scan_values(lambda v: True)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
