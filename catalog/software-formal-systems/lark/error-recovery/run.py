"""Error-tolerant parsing with lark: a LALR parser's on_error hook receives each UnexpectedToken with its
InteractiveParser, records where it happened and what the parser expected, and recovers by inserting a missing
';' (when the parser state accepts one) or by dropping the offending token."""

import random

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedToken

GRAMMAR = r"""
start: stmt*
stmt: NAME "=" expr ";"
?expr: term | expr PLUS term | expr MINUS term
?term: atom | term STAR atom
?atom: NUMBER | NAME | "(" expr ")"
PLUS: "+"
MINUS: "-"
STAR: "*"
%import common.CNAME -> NAME
%import common.INT -> NUMBER
%import common.WS
%ignore WS
"""
PARSER = Lark(GRAMMAR, parser="lalr", lexer="basic")  # fixed grammar: built once, at import; context-free lexer
FAULTS = ["drop_semicolon", "double_operator", "drop_operand", "extra_rparen"]


def statement(rng, k, n_vars):
    """Assignment v{k % n_vars} = a op b op c with operands drawn from earlier variables or small integers."""
    ops = [rng.choice("+-*") for _ in range(2)]
    operands = [f"v{rng.randrange(n_vars)}" if rng.random() < 0.5 else str(rng.randint(1, 9)) for _ in range(3)]
    return [f"v{k % n_vars}", "=", operands[0], ops[0], operands[1], ops[1], operands[2], ";"]


def inject(tokens, fault):
    t = list(tokens)
    if fault == "drop_semicolon":
        t.pop()  # the trailing ';'
    elif fault == "double_operator":
        t.insert(4, t[3])  # the first operator twice
    elif fault == "drop_operand":
        del t[4]  # the second operand
    else:
        t.insert(5, ")")  # a stray ')' after the second operand
    return t


def program(scn):
    rng = random.Random(int(scn["seed"]))
    lines = []
    for k in range(int(scn["n_statements"])):
        toks = statement(rng, k, int(scn["n_vars"]))
        if rng.random() < float(scn["error_rate"]):
            toks = inject(toks, FAULTS[rng.randrange(len(FAULTS))] if scn["fault"] == "mixed" else scn["fault"])
        lines.append(" ".join(toks))
    return "\n".join(lines) + "\n"


class Count(Transformer):
    def stmt(self, c):
        return str(c[0])


def main(scn):
    text = program(scn)
    errors = []
    actions = {"inserted": 0, "dropped": 0}

    def recover(e: UnexpectedToken) -> bool:
        ip = e.interactive_parser
        errors.append(f"{e.line}:{e.column} {e.token.type} expected {','.join(sorted(e.expected))}")
        if len(errors) > 50:
            return False
        if "SEMICOLON" in ip.accepts():
            trial = ip.copy()
            trial.feed_token(Token("SEMICOLON", ";"))
            if e.token.type in trial.accepts():  # a missing ';': insert it and retry the token
                ip.feed_token(Token("SEMICOLON", ";"))
                if e.token.type != "$END":  # the end of input is fed again by the parser itself
                    ip.feed_token(e.token)
                actions["inserted"] += 1
                return True
        actions["dropped"] += 1
        return True  # otherwise the offending token is dropped

    tree = PARSER.parse(text, on_error=recover)
    assigned = Count().transform(tree).children
    return {
        "n_lines": text.count("\n"),
        "errors": errors if errors else ["none"],
        "n_errors": len(errors),
        "n_statements_parsed": len(assigned),
        "targets": assigned,
        "inserted_semicolons": actions["inserted"],
        "dropped_tokens": actions["dropped"],
        "n_tokens": sum(1 for _ in PARSER.lex(text)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
