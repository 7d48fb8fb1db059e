"""The model-expression language of spec.md section 4: a tokenizer, a recursive-descent parser and an
evaluator that carries exact derivatives with respect to the parameters (forward mode), so that the
Levenberg-Marquardt Jacobian is analytic."""
from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

NUMBER = r"\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?"
TOKEN = re.compile(rf"\s*(?:({NUMBER})|([A-Za-z_][A-Za-z_0-9]*)|(\*\*|[-+*/^(),]))")
FUNCS = ("exp", "log", "sqrt", "sin", "cos", "tan", "atan")
Node = tuple[Any, ...]


class ExprError(ValueError):
    """A model expression that does not follow the grammar."""


def tokenize(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ExprError(f"unexpected character at position {pos}: {text[pos:pos + 10]!r}")
        kind = "num" if m.group(1) else "name" if m.group(2) else "op"
        out.append((kind, m.group(1) or m.group(2) or ("^" if m.group(3) == "**" else m.group(3))))
        pos = m.end()
    return out


class Parser:
    """expr := term (+|- term)*; term := unary (*|/ unary)*; unary := (+|-) unary | power;
    power := primary [^ unary]; primary := number | name | func(expr) | (expr)."""

    def __init__(self, text: str, params: list[str]):
        self.toks, self.i, self.params = tokenize(text), 0, params

    def peek(self) -> str | None:
        return self.toks[self.i][1] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> tuple[str, str]:
        if self.i >= len(self.toks):
            raise ExprError("unexpected end of expression")
        tok = self.toks[self.i]
        if want is not None and tok[1] != want:
            raise ExprError(f"expected {want!r}, found {tok[1]!r}")
        self.i += 1
        return tok

    def parse(self) -> Node:
        node = self.expr()
        if self.i != len(self.toks):
            raise ExprError(f"unexpected {self.peek()!r}")
        return node

    def expr(self) -> Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            node = (self.take()[1], node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.peek() in ("*", "/"):
            node = (self.take()[1], node, self.unary())
        return node

    def unary(self) -> Node:
        if self.peek() in ("+", "-"):
            op = self.take()[1]
            inner = self.unary()
            return ("neg", inner) if op == "-" else inner
        return self.power()

    def power(self) -> Node:
        base = self.primary()
        if self.peek() == "^":
            self.take()
            return ("^", base, self.unary())
        return base

    def primary(self) -> Node:
        kind, val = self.take()
        if kind == "num":
            return ("const", float(val))
        if kind == "name":
            if val in FUNCS:
                self.take("(")
                arg = self.expr()
                self.take(")")
                return ("call", val, arg)
            if val == "x":
                return ("x",)
            if val == "pi":
                return ("const", math.pi)
            if val in self.params:
                return ("param", self.params.index(val))
            raise ExprError(f"unknown name {val!r}")
        if val == "(":
            node = self.expr()
            self.take(")")
            return node
        raise ExprError(f"unexpected {val!r}")


Dual = tuple[np.ndarray, np.ndarray | None]  # value (n,), derivative (n, p) or None when constant


def evaluate(node: Node, x: np.ndarray, b: np.ndarray) -> Dual:
    """The model value at every observation and its derivatives with respect to the parameters."""
    tag = node[0]
    if tag == "const":
        return np.full_like(x, node[1]), None
    if tag == "x":
        return x, None
    if tag == "param":
        g = np.zeros((x.size, b.size))
        g[:, node[1]] = 1.0
        return np.full_like(x, b[node[1]]), g
    if tag == "neg":
        v, g = evaluate(node[1], x, b)
        return -v, None if g is None else -g
    if tag == "call":
        return _call(node[1], evaluate(node[2], x, b))
    return _binary(tag, evaluate(node[1], x, b), evaluate(node[2], x, b))


def _scale(g: np.ndarray | None, f: np.ndarray) -> np.ndarray | None:
    return None if g is None else g * f[:, None]


def _add(g1: np.ndarray | None, g2: np.ndarray | None) -> np.ndarray | None:
    return g2 if g1 is None else g1 if g2 is None else g1 + g2


def _binary(op: str, a: Dual, c: Dual) -> Dual:
    (u, du), (v, dv) = a, c
    if op == "+":
        return u + v, _add(du, dv)
    if op == "-":
        return u - v, _add(du, None if dv is None else -dv)
    if op == "*":
        return u * v, _add(_scale(du, v), _scale(dv, u))
    if op == "/":
        q = u / v
        return q, _add(_scale(du, 1.0 / v), _scale(dv, -q / v))
    with np.errstate(all="ignore"):
        w = u ** v
        dw = _scale(du, v * u ** (v - 1.0))
        if dv is not None:
            dw = _add(dw, _scale(dv, w * np.log(u)))
    return w, dw


def _call(name: str, a: Dual) -> Dual:
    u, du = a
    with np.errstate(all="ignore"):
        if name == "exp":
            v = np.exp(u)
            return v, _scale(du, v)
        if name == "log":
            return np.log(u), _scale(du, 1.0 / u)
        if name == "sqrt":
            v = np.sqrt(u)
            return v, _scale(du, 0.5 / v)
        if name == "sin":
            return np.sin(u), _scale(du, np.cos(u))
        if name == "cos":
            return np.cos(u), _scale(du, -np.sin(u))
        if name == "tan":
            v = np.tan(u)
            return v, _scale(du, 1.0 + v * v)
        return np.arctan(u), _scale(du, 1.0 / (1.0 + u * u))


def model(text: str, params: list[str]) -> Node:
    return Parser(text, params).parse()
