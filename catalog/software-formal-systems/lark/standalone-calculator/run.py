"""Generate a standalone LALR(1) calculator parser with lark's standalone generator (lark.tools.standalone) for a
grammar whose precedence, associativity and optional operators the scenario chooses, and ship it with an
evaluate(text) entry point: a Python module an agent's code must match by behaviour on hidden expressions."""

import io
import os

from lark import Lark
from lark.parsers.lalr_analysis import Shift
from lark.tools.standalone import gen_standalone

EXAMPLES = ["-2^2", "2^3^2", "2(3 + 4)", "50% * a", "7 / 2", "a - b * c", "2^-1", "-a^2 / c", "1 +"]

EVALUATOR = '''"""Calculator generated with lark: the standalone LALR(1) parser that lark.tools.standalone
wrote for the grammar is kept verbatim in _STANDALONE (executed once, at import) and the evaluator below walks
its trees."""

import math as _math

_STANDALONE = {standalone!r}
_LARK = {{"__name__": "lark_standalone"}}
exec(compile(_STANDALONE, "lark_standalone.py", "exec"), _LARK)
Transformer = _LARK["Transformer"]
Lark_StandAlone = _LARK["Lark_StandAlone"]

_CONSTANTS = {constants!r}
_FLOOR = {floor!r}


class _Eval(Transformer):
    def number(self, c):
        return float(c[0])

    def name(self, c):
        return _CONSTANTS[str(c[0])]

    def add(self, c):
        return c[0] + c[1]

    def sub(self, c):
        return c[0] - c[1]

    def mul(self, c):
        return c[0] * c[1]

    def div(self, c):
        return c[0] // c[1] if _FLOOR else c[0] / c[1]

    def pow(self, c):
        return _math.pow(c[0], c[1])

    def neg(self, c):
        return -c[0]

    def percent(self, c):
        return c[0] / 100.0


_PARSER = Lark_StandAlone()


def evaluate(text):
    """Value of the expression `text` (raises on a syntax error, an unknown name or a math error)."""
    return float(_Eval().transform(_PARSER.parse(text)))
'''


def grammar(pow_assoc, unary_rank, implicit_mul, percent):
    """The lark grammar of the scenario (the summary states the same template)."""
    f = "power" if unary_rank == "above_power" else "unary"
    rules = [
        "?start: sum",
        '?sum: product | sum "+" product -> add | sum "-" product -> sub',
        f'?product: {f} | product "*" {f} -> mul | product "/" {f} -> div'
        + (" | product postfix -> mul" if implicit_mul else ""),
    ]
    if unary_rank == "above_power":
        rules.append('?unary: postfix | "-" unary -> neg')
        rules.append(
            '?power: unary | unary "^" power -> pow'
            if pow_assoc == "right"
            else '?power: unary | power "^" unary -> pow'
        )
    else:
        rules.append('?unary: power | "-" unary -> neg')
        rules.append(
            '?power: postfix | postfix "^" unary -> pow'
            if pow_assoc == "right"
            else '?power: postfix | power "^" postfix -> pow'
        )
    rules.append("?postfix: atom" + (' | postfix "%" -> percent' if percent else ""))
    rules.append('?atom: NUMBER -> number | NAME -> name | "(" sum ")"')
    rules += ["%import common.NUMBER", "%import common.CNAME -> NAME", "%import common.WS", "%ignore WS"]
    return "\n".join(rules) + "\n"


def canonical_table(parser):
    """Renumber the LALR states breadth-first from the start state (shift targets in sorted token order) and sort
    each state's actions by token name: lark numbers states and tokens in set-iteration order, which follows
    Python's per-process string hashing, and the generated module must be byte-identical between runs."""
    table = parser.parser.parser.parser.parse_table
    order, seen = [], set()
    queue = [table.start_states[k] for k in sorted(table.start_states)]
    while queue:
        s = queue.pop(0)
        if s in seen:
            continue
        seen.add(s)
        order.append(s)
        queue += [arg for tok, (action, arg) in sorted(table.states[s].items()) if action is Shift]
    order += sorted(set(table.states) - seen)
    new = {old: i for i, old in enumerate(order)}
    table.states = {
        new[s]: {
            tok: (action, new[arg] if action is Shift else arg)
            for tok, (action, arg) in sorted(table.states[s].items())
        }
        for s in order
    }
    table.start_states = {k: new[v] for k, v in sorted(table.start_states.items())}
    table.end_states = {k: new[v] for k, v in sorted(table.end_states.items())}


def main(scn):
    g = grammar(str(scn["pow_assoc"]), str(scn["unary_rank"]), bool(scn["implicit_mul"]), bool(scn["percent"]))
    parser = Lark(g, parser="lalr")
    canonical_table(parser)
    buf = io.StringIO()
    gen_standalone(parser, out=buf)
    consts = dict(zip("abc", (float(v) for v in scn["constants"])))
    # The generated parser is embedded as a string rather than pasted as code: the module's own code is then only the
    # evaluator, and a code edit (the mutation audit's, or an agent's) lands in the evaluator, not in lark's library.
    source = EVALUATOR.format(standalone=buf.getvalue(), constants=consts, floor=scn["division"] == "floor")
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "calculator.py"), "w", encoding="utf-8") as fh:
        fh.write(source)
    namespace: dict = {}
    exec(compile(source, "calculator.py", "exec"), namespace)  # the shipped module itself gives the examples
    values = []
    for text in EXAMPLES:
        try:
            values.append(namespace["evaluate"](text))
        except Exception:
            values.append(None)
    return {
        "parser_module": "calculator.py",
        "example_values": values,
        "n_lalr_states": len(parser.parser.parser.parser.parse_table.states),
        "n_terminals": len(parser.terminals),
        "n_rules": len(parser.rules),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
