"""Lexer, parser and static checker for the IEC 61131-3 Structured Text subset of spec.md: source text in,
a typed program (declarations and statement tree) out, or a StError naming what is wrong."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

INT_MIN, INT_MAX = -32768, 32767
TIME_MIN, TIME_MAX = -(2**31), 2**31 - 1
ELEMENTARY = ("BOOL", "INT", "TIME")
# FB type -> (inputs {name: type}, outputs {name: type}); every parameter starts FALSE / 0 / T#0s
FB_TYPES: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "R_TRIG": ({"CLK": "BOOL"}, {"Q": "BOOL"}),
    "F_TRIG": ({"CLK": "BOOL"}, {"Q": "BOOL"}),
    "TON": ({"IN": "BOOL", "PT": "TIME"}, {"Q": "BOOL", "ET": "TIME"}),
    "TOF": ({"IN": "BOOL", "PT": "TIME"}, {"Q": "BOOL", "ET": "TIME"}),
    "TP": ({"IN": "BOOL", "PT": "TIME"}, {"Q": "BOOL", "ET": "TIME"}),
    "CTU": ({"CU": "BOOL", "R": "BOOL", "PV": "INT"}, {"Q": "BOOL", "CV": "INT"}),
    "CTD": ({"CD": "BOOL", "LD": "BOOL", "PV": "INT"}, {"Q": "BOOL", "CV": "INT"}),
}
KEYWORDS = {"PROGRAM", "END_PROGRAM", "VAR", "VAR_INPUT", "VAR_OUTPUT", "END_VAR", "IF", "THEN", "ELSIF", "ELSE",
            "END_IF", "CASE", "OF", "END_CASE", "AND", "OR", "XOR", "NOT", "MOD", "TRUE", "FALSE",
            *ELEMENTARY, *FB_TYPES}
TIME_UNITS = (("D", 86_400_000), ("H", 3_600_000), ("MS", 1), ("M", 60_000), ("S", 1000))
UNIT_ORDER = ["D", "H", "M", "S", "MS"]


class StError(Exception):
    """A lexical, syntax or type error: the program is refused before scan 0."""


@dataclass
class Tok:
    kind: str  # ID, KW, INT, TIME, OP, EOF
    value: Any
    line: int


@dataclass
class Var:
    name: str  # as declared
    type: str
    section: str  # VAR_INPUT | VAR_OUTPUT | VAR
    init: Any = None


@dataclass
class Program:
    vars: dict[str, Var] = field(default_factory=dict)  # key: upper-case name
    body: list[Any] = field(default_factory=list)


_TOKEN = re.compile(r"""
    (?P<ws>\s+) | (?P<c1>\(\*.*?\*\)) | (?P<c2>//[^\n]*) |
    (?P<time>(?:T|TIME)\#[0-9A-Za-z_]+) |
    (?P<based>(?:2|8|16)\#[0-9A-Fa-f_]+) |
    (?P<int>[0-9][0-9_]*) |
    (?P<id>[A-Za-z_][A-Za-z0-9_]*) |
    (?P<op>:=|<=|>=|<>|\.\.|[-+*/()<>=;:,.&])
""", re.VERBOSE | re.DOTALL | re.IGNORECASE)


def _digits(text: str, base: int, line: int) -> int:
    if text.startswith("_") or text.endswith("_") or "__" in text:
        raise StError(f"line {line}: bad underscore in number {text!r}")
    try:
        return int(text.replace("_", ""), base)
    except ValueError:
        raise StError(f"line {line}: bad number {text!r}") from None


def _time_value(text: str, line: int) -> int:
    """T#1m30s -> 90000 (ms): components in the order d, h, m, s, ms, each once, optional '_' between."""
    body = text.split("#", 1)[1].upper()
    total, last, pos = 0, -1, 0
    while pos < len(body):
        if body[pos] == "_" and pos > 0:
            pos += 1
        m = re.match(r"[0-9]+", body[pos:])
        if not m:
            raise StError(f"line {line}: bad TIME literal {text!r}")
        pos += m.end()
        unit = next((u for u, _ in TIME_UNITS if body.startswith(u, pos)), None)
        if unit is None or UNIT_ORDER.index(unit) <= last:
            raise StError(f"line {line}: bad TIME literal {text!r}")
        last = UNIT_ORDER.index(unit)
        total += int(m.group()) * dict(TIME_UNITS)[unit]
        pos += len(unit)
    if last < 0 or total > TIME_MAX or body.endswith("_"):
        raise StError(f"line {line}: bad TIME literal {text!r}")
    return total


def lex(src: str) -> list[Tok]:
    toks, pos, line = [], 0, 1
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if not m:
            raise StError(f"line {line}: unexpected character {src[pos]!r}")
        kind, text = m.lastgroup, m.group()
        if kind == "time":
            toks.append(Tok("TIME", _time_value(text, line), line))
        elif kind == "based":
            base, digits = text.split("#")
            toks.append(Tok("INT", _digits(digits, int(base), line), line))
        elif kind == "int":
            toks.append(Tok("INT", _digits(text, 10, line), line))
        elif kind == "id":
            up = text.upper()
            toks.append(Tok("KW", up, line) if up in KEYWORDS else Tok("ID", text, line))
        elif kind == "op":
            if src.startswith("(*", pos):
                raise StError(f"line {line}: unterminated comment")
            toks.append(Tok("OP", text, line))
        line += text.count("\n")
        pos = m.end()
    toks.append(Tok("EOF", None, line))
    return toks


class Parser:
    """Recursive descent over the token list; every expression is typed as it is parsed."""

    def __init__(self, src: str) -> None:
        self.toks, self.i = lex(src), 0
        self.prog = Program()

    # -- tokens
    def peek(self, k: int = 0) -> Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def at(self, kind: str, value: Any = None, k: int = 0) -> bool:
        t = self.peek(k)
        return t.kind == kind and (value is None or t.value == value)

    def take(self, kind: str, value: Any = None) -> Tok:
        t = self.peek()
        if not self.at(kind, value):
            want = value if value is not None else kind
            raise StError(f"line {t.line}: expected {want}, found {t.value if t.value is not None else t.kind}")
        self.i += 1
        return t

    def fail(self, msg: str) -> StError:
        return StError(f"line {self.peek().line}: {msg}")

    # -- declarations
    def program(self) -> Program:
        self.take("KW", "PROGRAM")
        self.take("ID")
        while self.peek().kind == "KW" and self.peek().value in ("VAR", "VAR_INPUT", "VAR_OUTPUT"):
            self.decl_block()
        self.prog.body = self.stmts(("END_PROGRAM",))
        self.take("KW", "END_PROGRAM")
        self.take("EOF")
        return self.prog

    def decl_block(self) -> None:
        section = self.take("KW").value
        while self.at("ID"):
            names = [self.take("ID")]
            while self.at("OP", ","):
                self.take("OP", ",")
                names.append(self.take("ID"))
            self.take("OP", ":")
            t = self.take("KW")
            if t.value not in ELEMENTARY and t.value not in FB_TYPES:
                raise StError(f"line {t.line}: {t.value} is not a type")
            if t.value in FB_TYPES and section != "VAR":
                raise StError(f"line {t.line}: function block instances are declared in VAR only")
            init = None
            if self.at("OP", ":="):
                self.take("OP", ":=")
                if t.value in FB_TYPES:
                    raise self.fail("a function block instance takes no initial value")
                init = self.init_value(t.value)
            self.take("OP", ";")
            for n in names:
                if n.value.upper() in self.prog.vars:
                    raise StError(f"line {n.line}: {n.value} declared twice")
                self.prog.vars[n.value.upper()] = Var(n.value, t.value, section, init)
        self.take("KW", "END_VAR")

    def init_value(self, typ: str) -> Any:
        if typ == "BOOL" and self.at("KW") and self.peek().value in ("TRUE", "FALSE"):
            return self.take("KW").value == "TRUE"
        if typ == "TIME" and self.at("TIME"):
            return self.take("TIME").value
        if typ == "INT":
            sign = -1 if self.at("OP", "-") else 1
            if self.at("OP", "-") or self.at("OP", "+"):
                self.take("OP")
            v = sign * self.take("INT").value
            if not INT_MIN <= v <= INT_MAX:
                raise self.fail(f"initial value {v} outside INT")
            return v
        raise self.fail(f"initial value does not match type {typ}")

    # -- statements
    def stmts(self, enders: tuple[str, ...]) -> list[Any]:
        out = []
        while not (self.at("KW") and self.peek().value in enders) and not self.case_label_ahead(enders):
            out.append(self.stmt())
        return out

    def case_label_ahead(self, enders: tuple[str, ...]) -> bool:
        return "END_CASE" in enders and (self.at("INT") or self.at("OP", "-") or self.at("OP", "+"))

    def stmt(self) -> Any:
        t = self.peek()
        if self.at("OP", ";"):
            self.take("OP", ";")
            return ("nop",)
        if self.at("KW", "IF"):
            return self.if_stmt()
        if self.at("KW", "CASE"):
            return self.case_stmt()
        if not self.at("ID"):
            raise self.fail(f"expected a statement, found {t.value if t.value is not None else t.kind}")
        var = self.lookup(self.take("ID"))
        if self.at("OP", "("):
            return self.call(var)
        self.take("OP", ":=")
        if var.type in FB_TYPES:
            raise StError(f"line {t.line}: cannot assign to function block instance {var.name}")
        e, typ = self.expr()
        if typ != var.type:
            raise StError(f"line {t.line}: cannot assign {typ} to {var.name} ({var.type})")
        self.take("OP", ";")
        return ("assign", var.name.upper(), e)

    def lookup(self, t: Tok) -> Var:
        v = self.prog.vars.get(t.value.upper())
        if v is None:
            raise StError(f"line {t.line}: undeclared identifier {t.value}")
        return v

    def call(self, var: Var) -> Any:
        line = self.take("OP", "(").line
        if var.type not in FB_TYPES:
            raise StError(f"line {line}: {var.name} is not a function block instance")
        inputs, args = FB_TYPES[var.type][0], []
        while not self.at("OP", ")"):
            if args:
                self.take("OP", ",")
            p = self.take("ID")
            name = p.value.upper()
            if name not in inputs or any(a[0] == name for a in args):
                raise StError(f"line {p.line}: {p.value} is not an input of {var.type} here")
            self.take("OP", ":=")
            e, typ = self.expr()
            if typ != inputs[name]:
                raise StError(f"line {p.line}: {var.type}.{name} expects {inputs[name]}, got {typ}")
            args.append((name, e))
        self.take("OP", ")")
        self.take("OP", ";")
        return ("call", var.name.upper(), args)

    def if_stmt(self) -> Any:
        self.take("KW", "IF")
        arms, other = [], []
        while True:
            cond = self.cond()
            self.take("KW", "THEN")
            arms.append((cond, self.stmts(("ELSIF", "ELSE", "END_IF"))))
            if self.at("KW", "ELSIF"):
                self.take("KW", "ELSIF")
                continue
            break
        if self.at("KW", "ELSE"):
            self.take("KW", "ELSE")
            other = self.stmts(("END_IF",))
        self.take("KW", "END_IF")
        self.take("OP", ";")
        return ("if", arms, other)

    def cond(self) -> Any:
        line = self.peek().line
        e, typ = self.expr()
        if typ != "BOOL":
            raise StError(f"line {line}: condition is {typ}, not BOOL")
        return e

    def case_stmt(self) -> Any:
        line = self.take("KW", "CASE").line
        sel, typ = self.expr()
        if typ != "INT":
            raise StError(f"line {line}: CASE selector is {typ}, not INT")
        self.take("KW", "OF")
        arms, other = [], []
        while self.at("INT") or self.at("OP", "-") or self.at("OP", "+"):
            labels = [self.case_label()]
            while self.at("OP", ","):
                self.take("OP", ",")
                labels.append(self.case_label())
            self.take("OP", ":")
            arms.append((labels, self.stmts(("ELSE", "END_CASE"))))
        if not arms:
            raise self.fail("CASE needs at least one labelled branch")
        if self.at("KW", "ELSE"):
            self.take("KW", "ELSE")
            other = self.stmts(("END_CASE",))
        self.take("KW", "END_CASE")
        self.take("OP", ";")
        return ("case", sel, arms, other)

    def case_label(self) -> tuple[int, int]:
        lo = self.init_value("INT")
        hi = lo
        if self.at("OP", ".."):
            self.take("OP", "..")
            hi = self.init_value("INT")
        return lo, hi

    # -- expressions: OR < XOR < AND,& < = <> < relational < + - < * / MOD < unary - NOT < primary
    LEVELS: tuple[tuple[str, ...], ...] = (("OR",), ("XOR",), ("AND", "&"), ("=", "<>"), ("<", ">", "<=", ">="),
                                           ("+", "-"), ("*", "/", "MOD"))

    def expr(self, level: int = 0) -> tuple[Any, str]:
        if level == len(self.LEVELS):
            return self.unary()
        left, lt = self.expr(level + 1)
        while self.peek().kind in ("OP", "KW") and self.peek().value in self.LEVELS[level]:
            t = self.take(self.peek().kind)
            op = "AND" if t.value == "&" else t.value
            right, rt = self.expr(level + 1)
            typ = binary_type(op, lt, rt)
            if typ is None:
                raise StError(f"line {t.line}: operator {t.value} does not apply to {lt} and {rt}")
            left, lt = ("bin", op, left, right, lt, rt), typ
        return left, lt

    def unary(self) -> tuple[Any, str]:
        t = self.peek()
        if self.at("OP", "-") or self.at("KW", "NOT"):
            self.i += 1
            e, typ = self.unary()
            ok = typ == "BOOL" if t.value == "NOT" else typ in ("INT", "TIME")
            if not ok:
                raise StError(f"line {t.line}: {t.value} does not apply to {typ}")
            return ("neg" if t.value == "-" else "not", e, typ), typ
        return self.primary()

    def primary(self) -> tuple[Any, str]:
        t = self.peek()
        if self.at("OP", "("):
            self.take("OP", "(")
            e = self.expr()
            self.take("OP", ")")
            return e
        if self.at("INT"):
            self.i += 1
            if t.value > INT_MAX:
                raise StError(f"line {t.line}: integer literal {t.value} outside INT")
            return ("lit", t.value), "INT"
        if self.at("TIME"):
            self.i += 1
            return ("lit", t.value), "TIME"
        if self.at("KW", "TRUE") or self.at("KW", "FALSE"):
            self.i += 1
            return ("lit", t.value == "TRUE"), "BOOL"
        if self.at("ID"):
            var = self.lookup(self.take("ID"))
            if var.type in FB_TYPES:
                self.take("OP", ".")
                p = self.take("ID")
                ins, outs = FB_TYPES[var.type]
                typ = {**ins, **outs}.get(p.value.upper())
                if typ is None:
                    raise StError(f"line {p.line}: {var.type} has no parameter {p.value}")
                return ("member", var.name.upper(), p.value.upper()), typ
            return ("var", var.name.upper()), var.type
        raise self.fail(f"expected an expression, found {t.value if t.value is not None else t.kind}")


def binary_type(op: str, lt: str, rt: str) -> str | None:
    """The result type of `lt op rt` (spec.md, typing rules), or None where the operator does not apply."""
    if op in ("OR", "XOR", "AND"):
        return "BOOL" if lt == rt == "BOOL" else None
    if op in ("=", "<>", "<", ">", "<=", ">="):
        return "BOOL" if lt == rt else None
    if op in ("+", "-"):
        return lt if lt == rt and lt in ("INT", "TIME") else None
    if op == "*":
        if lt == rt == "INT":
            return "INT"
        return "TIME" if {lt, rt} == {"TIME", "INT"} else None
    if op == "/":
        return lt if rt == "INT" and lt in ("INT", "TIME") else None
    if op == "MOD":
        return "INT" if lt == rt == "INT" else None
    return None


def parse(src: str) -> Program:
    return Parser(src).program()
