"""Parse a generated arithmetic expression with a LALR(1) lark grammar, evaluate it and measure its parse tree."""

from lark import Lark, Transformer, Tree

GRAMMAR = r"""
?start: sum
?sum: product
    | sum "+" product   -> add
    | sum "-" product   -> sub
?product: power
    | product "*" power -> mul
    | product "/" power -> div
?power: unary
    | unary "^" power   -> pow
?unary: atom
    | "-" unary         -> neg
?atom: NUMBER           -> number
    | "(" sum ")"
    | NAME "(" sum ")"  -> call
%import common.NUMBER
%import common.CNAME -> NAME
%import common.WS
%ignore WS
"""
PARSER = Lark(GRAMMAR, parser="lalr")
OPS = ["+", "-", "*", "/", "^"]
FUNCS = ["sqrt", "log", "abs"]


class Eval(Transformer):
    def number(self, c):
        return float(c[0])

    def add(self, c):
        return c[0] + c[1]

    def sub(self, c):
        return c[0] - c[1]

    def mul(self, c):
        return c[0] * c[1]

    def div(self, c):
        return c[0] / c[1]

    def pow(self, c):
        return abs(c[0]) ** (c[1] % 3.0)   # bounded exponent keeps values finite

    def neg(self, c):
        return -c[0]

    def call(self, c):
        import math
        x = abs(c[1])
        return {"sqrt": math.sqrt(x), "log": math.log1p(x), "abs": x}[str(c[0])]


class Paren(Transformer):
    """Fully parenthesised rendering of the tree."""

    def number(self, c):
        return str(c[0])

    def neg(self, c):
        return f"(-{c[0]})"

    def call(self, c):
        return f"{c[0]}({c[1]})"


def _binary(sym):
    def render(self, c):
        return f"({c[0]} {sym} {c[1]})"
    return render


for _op, _sym in [("add", "+"), ("sub", "-"), ("mul", "*"), ("div", "/"), ("pow", "^")]:
    setattr(Paren, _op, _binary(_sym))


def build_text(numbers, ops, negate_mask, paren_start, paren_len, func_index, func_pos):
    n = len(numbers)
    terms = []
    for i, v in enumerate(numbers):
        t = repr(float(v))
        if (negate_mask >> i) & 1:
            t = "-" + t
        if i == func_pos % n and func_index > 0:
            t = f"{FUNCS[func_index - 1]}({t})"
        terms.append(t)
    a = paren_start % n
    b = min(n - 1, a + paren_len)
    if b > a:  # parenthesise terms a..b
        terms[a] = "(" + terms[a]
        terms[b] = terms[b] + ")"
    text = terms[0]
    for i in range(1, n):
        text += f" {OPS[int(ops[i - 1]) % len(OPS)]} {terms[i]}"
    return text


def height(t):
    return 1 + max((height(c) for c in t.children if isinstance(c, Tree)), default=0)


def main(scn):
    text = build_text([float(v) for v in scn["numbers"]], [int(o) for o in scn["ops"]], int(scn["negate_mask"]),
                      int(scn["paren_start"]), int(scn["paren_length"]), int(scn["function"]),
                      int(scn["function_position"]))
    tree = PARSER.parse(text)
    rules = {r: 0 for r in ["add", "sub", "mul", "div", "pow", "neg", "call", "number"]}
    for st in tree.iter_subtrees():
        rules[st.data] = rules.get(st.data, 0) + 1
    tokens = list(PARSER.lex(text))
    return {
        "expression": text,
        "value": float(Eval().transform(tree)),
        "parenthesized": Paren().transform(tree),
        "tree_height": int(height(tree)),
        "rule_counts": rules,
        "n_tokens": len(tokens),
        "token_types": sorted({t.type for t in tokens}),
        "pretty_lines": len(tree.pretty().splitlines()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
