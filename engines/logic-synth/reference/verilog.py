"""Lexer and parser for the Verilog-2005 subset of spec.md: one module with ANSI ports, wire/reg
declarations, continuous assignments and `always @(posedge clk)` blocks of nonblocking assignments,
if/else and case. Expressions become tuples (see `Parser.primary` and `Parser.expr`)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field


class VerilogError(ValueError):
    """Input outside the subset: reported as {"error": ...}."""


_TOKEN = re.compile(r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<num>\d[\d_]*\s*'\s*[bBdDhHoO]\s*[0-9a-fA-F_]+|'\s*[bBdDhHoO]\s*[0-9a-fA-F_]+|\d[\d_]*)
  | (?P<id>[A-Za-z_][A-Za-z0-9_$]*)
  | (?P<op>~&|~\||~\^|\^~|<=|>=|==|!=|&&|\|\||<<|>>|[-+~!&|^?:;,.()\[\]{}=<>@#*])
""", re.S | re.X)
KEYWORDS = {"module", "endmodule", "input", "output", "wire", "reg", "assign", "always", "posedge", "begin",
            "end", "if", "else", "case", "endcase", "default"}
BASES = {"b": 2, "o": 8, "d": 10, "h": 16}
BINARY = [("||",), ("&&",), ("|",), ("^", "~^", "^~"), ("&",), ("==", "!="), ("<", "<=", ">", ">="),
          ("<<", ">>"), ("+", "-")]  # lowest precedence first (IEEE 1364-2005 table 5-4)


def lex(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise VerilogError(f"unexpected character {text[pos]!r} at offset {pos}")
        pos = m.end()
        if m.lastgroup != "ws":
            kind = "kw" if m.lastgroup == "id" and m.group() in KEYWORDS else m.lastgroup
            out.append((kind, m.group()))
    return out + [("eof", "")]


def literal(text: str) -> tuple:
    """("const", width or None for unsized, value)."""
    t = re.sub(r"[\s_]", "", text)
    if "'" not in t:
        return ("const", None, int(t))
    size, rest = t.split("'")
    value = int(rest[1:], BASES[rest[0].lower()])
    if not size:
        return ("const", None, value)
    width = int(size)
    if width < 1 or value >= 1 << width:
        raise VerilogError(f"literal {text} does not fit its size")
    return ("const", width, value)


@dataclass
class Signal:
    name: str
    kind: str  # input | wire | reg
    width: int
    output: bool = False


@dataclass
class Module:
    name: str
    signals: dict[str, Signal] = field(default_factory=dict)
    ports: list[str] = field(default_factory=list)
    assigns: list[tuple[list, tuple]] = field(default_factory=list)  # (lvalue pieces, expr)
    always: list[tuple[str, tuple]] = field(default_factory=list)  # (clock name, statement)


class Parser:
    def __init__(self, text: str) -> None:
        self.toks, self.i = lex(text), 0

    def peek(self, k: int = 0) -> str:
        return self.toks[self.i + k][1]

    def take(self, want: str | None = None) -> str:
        kind, val = self.toks[self.i]
        if want is not None and val != want:
            raise VerilogError(f"expected {want!r}, found {val or 'end of input'!r}")
        if kind == "eof":
            raise VerilogError("unexpected end of input")
        self.i += 1
        return val

    def ident(self) -> str:
        kind, val = self.toks[self.i]
        if kind != "id":
            raise VerilogError(f"expected an identifier, found {val!r}")
        self.i += 1
        return val

    def integer(self) -> int:
        kind, val = self.toks[self.i]
        if kind != "num":
            raise VerilogError(f"expected an integer literal, found {val!r}")
        self.i += 1
        return literal(val)[2]

    def range_(self) -> int:
        if self.peek() != "[":
            return 1
        self.take("[")
        msb = self.integer()
        self.take(":")
        if self.integer() != 0:
            raise VerilogError("declared ranges are [msb:0]")
        self.take("]")
        return msb + 1

    def declare(self, m: Module, name: str, kind: str, width: int, output: bool = False) -> None:
        if name in m.signals:
            raise VerilogError(f"{name} declared twice")
        m.signals[name] = Signal(name, kind, width, output)

    def module(self) -> Module:
        self.take("module")
        m = Module(self.ident())
        self.take("(")
        while self.peek() != ")":
            direction = self.take()
            if direction not in ("input", "output"):
                raise VerilogError(f"ports are declared ANSI style (input/output), found {direction!r}")
            kind = "input" if direction == "input" else "wire"
            if self.peek() in ("wire", "reg"):
                kind = "reg" if self.take() == "reg" else kind
            if direction == "input" and kind == "reg":
                raise VerilogError("input reg is not allowed")
            width = self.range_()
            while True:
                name = self.ident()
                self.declare(m, name, kind, width, direction == "output")
                m.ports.append(name)
                if self.peek() == "," and self.toks[self.i + 1][0] == "id":
                    self.take(",")
                    continue
                break
            if self.peek() == ",":
                self.take(",")
        self.take(")")
        self.take(";")
        while self.peek() != "endmodule":
            self.item(m)
        self.take("endmodule")
        if self.toks[self.i][0] != "eof":
            raise VerilogError("one module per source")
        return m

    def item(self, m: Module) -> None:
        word = self.take()
        if word in ("wire", "reg"):
            width = self.range_()
            while True:
                name = self.ident()
                self.declare(m, name, word, width)
                if self.peek() == "=":
                    if word == "reg":
                        raise VerilogError("reg declarations take no initial value")
                    self.take("=")
                    m.assigns.append(([("lv", name, None, None)], self.expr()))
                if self.take() == ";":
                    break
        elif word == "assign":
            while True:
                lhs = self.lvalue()
                self.take("=")
                m.assigns.append((lhs, self.expr()))
                if self.take() == ";":
                    break
        elif word == "always":
            self.take("@")
            self.take("(")
            self.take("posedge")
            clk = self.ident()
            self.take(")")
            m.always.append((clk, self.statement()))
        else:
            raise VerilogError(f"unsupported module item {word!r}")

    def lvalue(self) -> list:
        """Pieces MSB first: ("lv", name, msb or None, lsb or None)."""
        if self.peek() == "{":
            self.take("{")
            pieces = self.lvalue()
            while self.peek() == ",":
                self.take(",")
                pieces += self.lvalue()
            self.take("}")
            return pieces
        name = self.ident()
        if self.peek() != "[":
            return [("lv", name, None, None)]
        self.take("[")
        msb = self.integer()
        lsb = msb
        if self.peek() == ":":
            self.take(":")
            lsb = self.integer()
        self.take("]")
        return [("lv", name, msb, lsb)]

    def statement(self) -> tuple:
        word = self.peek()
        if word == "begin":
            self.take()
            body = []
            while self.peek() != "end":
                body.append(self.statement())
            self.take("end")
            return ("block", body)
        if word == "if":
            self.take()
            self.take("(")
            cond = self.expr()
            self.take(")")
            then = self.statement()
            other = None
            if self.peek() == "else":
                self.take()
                other = self.statement()
            return ("if", cond, then, other)
        if word == "case":
            return self.case()
        lhs = self.lvalue()
        op = self.take()
        if op != "<=":
            raise VerilogError("registers take nonblocking assignments (<=) only")
        rhs = self.expr()
        self.take(";")
        return ("nb", lhs, rhs)

    def case(self) -> tuple:
        self.take("case")
        self.take("(")
        subject = self.expr()
        self.take(")")
        items, default = [], None
        while self.peek() != "endcase":
            if self.peek() == "default":
                self.take()
                if self.peek() == ":":
                    self.take(":")
                default = self.statement()
                continue
            labels = [self.expr()]
            while self.peek() == ",":
                self.take(",")
                labels.append(self.expr())
            self.take(":")
            items.append((labels, self.statement()))
        self.take("endcase")
        return ("case", subject, items, default)

    def expr(self) -> tuple:
        cond = self.binary(0)
        if self.peek() != "?":
            return cond
        self.take("?")
        then = self.expr()
        self.take(":")
        return ("tern", cond, then, self.expr())

    def binary(self, level: int) -> tuple:
        if level == len(BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in BINARY[level]:
            op = self.take()
            left = ("bin", "~^" if op == "^~" else op, left, self.binary(level + 1))
        return left

    def unary(self) -> tuple:
        if self.peek() in ("~", "!", "&", "|", "^", "~&", "~|", "~^", "^~"):
            op = self.take()
            return ("un", "~^" if op == "^~" else op, self.unary())
        return self.primary()

    def primary(self) -> tuple:
        kind, val = self.toks[self.i]
        if kind == "num":
            self.i += 1
            return literal(val)
        if val == "(":
            self.take()
            e = self.expr()
            self.take(")")
            return e
        if val == "{":
            self.take()
            if self.toks[self.i][0] == "num" and self.peek(1) == "{":
                n = self.integer()
                self.take("{")
                parts = self.expr_list()
                self.take("}")
                self.take("}")
                return ("repl", n, parts)
            parts = self.expr_list()
            self.take("}")
            return ("concat", parts)
        name = self.ident()
        if self.peek() != "[":
            return ("id", name)
        self.take("[")
        msb = self.integer()
        if self.peek() == ":":
            self.take(":")
            lsb = self.integer()
            self.take("]")
            return ("part", name, msb, lsb)
        self.take("]")
        return ("part", name, msb, msb)

    def expr_list(self) -> list:
        parts = [self.expr()]
        while self.peek() == ",":
            self.take(",")
            parts.append(self.expr())
        return parts


def parse(text: str) -> Module:
    return Parser(text).module()
