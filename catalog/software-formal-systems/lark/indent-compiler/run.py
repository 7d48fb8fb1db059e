"""An indentation-structured loop language compiled to Python with lark: the lexer's newlines go through a
lark.indenter.Indenter post-lexer (INDENT/DEDENT tokens), a LALR parser builds the tree and a v_args-inline
Transformer emits an indented Python function f(n, x), shipped as a module graded on hidden inputs."""

import os

from lark import Lark, Transformer, Visitor, v_args
from lark.indenter import Indenter

GRAMMAR = r"""
start: "func" NAME "(" NAME ("," NAME)* ")" _NL _INDENT stmt+ _DEDENT
?stmt: assign | repeat | when | yield_
assign: NAME ":=" expr _NL
repeat: "repeat" expr "times" "with" NAME _NL _INDENT stmt+ _DEDENT
when: "when" cond _NL _INDENT stmt+ _DEDENT otherwise?
otherwise: "otherwise" _NL _INDENT stmt+ _DEDENT
yield_: "yield" expr _NL
cond: expr CMP expr
?expr: term | expr "+" term -> add | expr "-" term -> sub
?term: factor | term "*" factor -> mul | term "mod" factor -> mod
?factor: NUMBER -> number | NAME -> var | "(" expr ")" | "-" factor -> neg
CMP: "=" | "<" | ">"
_NL: /(\r?\n[\t ]*)+/
%import common.CNAME -> NAME
%import common.NUMBER
%import common.WS_INLINE
%ignore WS_INLINE
%declare _INDENT _DEDENT
"""
POINTS = [(0, 0.5), (5, -0.75), (12, 1.1), (20, -1.3)]


class BlockIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = []
    CLOSE_PAREN_types = []
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


def indent(lines):
    return ["    " + ln for ln in lines]


@v_args(inline=True)
class ToPython(Transformer):
    """Expressions become Python text; statements become lists of lines."""

    def start(self, name, *rest):
        params = [str(p) for p in rest if not isinstance(p, list)]
        body = [ln for block in rest if isinstance(block, list) for ln in block]
        return [f"def {name}({', '.join(params)}):"] + indent(body)

    def assign(self, name, value):
        return [f"{name} = {value}"]

    def repeat(self, count, var, *body):
        return [f"for {var} in range(int({count})):"] + indent([ln for b in body for ln in b])

    def when(self, cond, *blocks):
        other = blocks[-1] if blocks and isinstance(blocks[-1], tuple) else None
        then = [ln for b in blocks if not isinstance(b, tuple) for ln in b]
        lines = [f"if {cond}:"] + indent(then)
        return lines + (["else:"] + indent(list(other[1])) if other else [])

    def otherwise(self, *body):
        return ("else", [ln for b in body for ln in b])

    def yield_(self, value):
        return [f"return {value}"]

    def cond(self, a, op, b):
        return f"{a} {'==' if op == '=' else op} {b}"

    def add(self, a, b):
        return f"({a} + {b})"

    def sub(self, a, b):
        return f"({a} - {b})"

    def mul(self, a, b):
        return f"({a} * {b})"

    def mod(self, a, b):
        return f"({a} % {b})"

    def neg(self, a):
        return f"(-{a})"

    def number(self, tok):
        return repr(float(tok)) if "." in tok or "e" in tok.lower() else str(int(tok))

    def var(self, tok):
        return str(tok)


PARSER = Lark(GRAMMAR, parser="lalr", postlex=BlockIndenter(), propagate_positions=True)  # built once, at import


class StatementLines(Visitor):
    """Source line of every statement (Tree.meta, filled by propagate_positions), bottom-up visiting order."""

    def __init__(self):
        self.lines = []

    def __default__(self, tree):
        if tree.data in ("assign", "repeat", "when", "yield_"):
            self.lines.append(tree.meta.line)


def program(scn):
    """The scenario's program (the summary states the same template)."""
    k = int(scn["modulus"])
    lines = [
        "func f(n, x)",
        f"  acc := {float(scn['start'])!r}",
        "  repeat n times with i",
        f"    when i mod {k} = {int(scn['residue']) % k}",
        "      acc := acc * x + i",
        "    otherwise",
        f"      acc := acc {scn['op']} {float(scn['step'])!r}",
    ]
    if scn["clamp"]:
        lines += [f"  when acc > {float(scn['ceiling'])!r}", f"    acc := {float(scn['ceiling'])!r}"]
    return "\n".join(lines + ["  yield acc"]) + "\n"


def depth(tree):
    inner = [depth(c) for c in tree.children if hasattr(c, "data")]
    own = 1 if tree.data in ("repeat", "when", "otherwise") else 0
    return own + max(inner, default=0)


def main(scn):
    text = program(scn)
    tree = PARSER.parse(text)
    source = "\n".join(ToPython().transform(tree)) + "\n"
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "compiled.py"), "w", encoding="utf-8") as fh:
        fh.write(source)
    ns = {}
    exec(compile(source, "compiled.py", "exec"), ns)
    tokens = list(PARSER.lex(text))
    lines = StatementLines()
    lines.visit(tree)
    return {
        "compiled_module": "compiled.py",
        "values": [float(ns["f"](n, x)) for n, x in POINTS],
        "n_indent_tokens": sum(1 for t in tokens if t.type == "_INDENT"),
        "n_tokens": len(tokens),
        "n_statements": sum(1 for t in tree.iter_subtrees() if t.data in ("assign", "repeat", "when", "yield_")),
        "statement_lines": sorted(lines.lines),
        "max_nesting": depth(tree),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
