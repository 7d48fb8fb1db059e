"""The scan cycle of spec.md: read the input image, run the body once with the scan's clock, record the
outputs; standard function blocks (IEC 61131-3 edge detectors, timers, counters) keep their own state."""
from __future__ import annotations

from typing import Any

from plc_lang import FB_TYPES, INT_MAX, INT_MIN, Program

DEFAULTS = {"BOOL": False, "INT": 0, "TIME": 0}


def wrap(v: int, typ: str) -> int:
    """Two's-complement wrap-around: INT is 16-bit, TIME 32-bit (milliseconds)."""
    bits = 16 if typ == "INT" else 32
    half = 1 << (bits - 1)
    return ((v + half) % (1 << bits)) - half


def tdiv(a: int, b: int) -> int:
    """Integer division truncating toward zero; by zero gives 0."""
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class FB:
    """One instance: its parameters (inputs and outputs) and its hidden memory."""

    def __init__(self, typ: str) -> None:
        self.type = typ
        ins, outs = FB_TYPES[typ]
        self.p: dict[str, Any] = {k: DEFAULTS[t] for k, t in {**ins, **outs}.items()}
        self.prev = False  # the edge input at the previous call
        self.running = False
        self.start = 0

    def call(self, now: int) -> None:
        getattr(self, "_" + self.type.lower())(now, self.p)

    def _r_trig(self, now: int, p: dict[str, Any]) -> None:
        p["Q"] = p["CLK"] and not self.prev
        self.prev = p["CLK"]

    def _f_trig(self, now: int, p: dict[str, Any]) -> None:
        p["Q"] = self.prev and not p["CLK"]
        self.prev = p["CLK"]

    def _ton(self, now: int, p: dict[str, Any]) -> None:
        pt = max(p["PT"], 0)
        if p["IN"] and not self.prev:
            self.start = now
        if p["IN"]:
            p["ET"], p["Q"] = min(now - self.start, pt), now - self.start >= pt
        else:
            p["ET"], p["Q"] = 0, False
        self.prev = p["IN"]

    def _tof(self, now: int, p: dict[str, Any]) -> None:
        pt = max(p["PT"], 0)
        if p["IN"]:
            p["Q"], p["ET"], self.running = True, 0, False
        else:
            if self.prev:
                self.start, self.running = now, True
            if self.running:
                p["ET"] = min(now - self.start, pt)
                if now - self.start >= pt:
                    p["Q"], self.running = False, False
        self.prev = p["IN"]

    def _tp(self, now: int, p: dict[str, Any]) -> None:
        pt = max(p["PT"], 0)
        if not self.running and p["IN"] and not self.prev:
            self.start, self.running = now, True
        if self.running:
            if now - self.start >= pt:
                p["Q"], p["ET"], self.running = False, pt, False
            else:
                p["Q"], p["ET"] = True, now - self.start
        if not self.running and not p["IN"]:
            p["ET"] = 0
        self.prev = p["IN"]

    def _ctu(self, now: int, p: dict[str, Any]) -> None:
        edge = p["CU"] and not self.prev
        self.prev = p["CU"]
        if p["R"]:
            p["CV"] = 0
        elif edge and p["CV"] < INT_MAX:
            p["CV"] += 1
        p["Q"] = p["CV"] >= p["PV"]

    def _ctd(self, now: int, p: dict[str, Any]) -> None:
        edge = p["CD"] and not self.prev
        self.prev = p["CD"]
        if p["LD"]:
            p["CV"] = p["PV"]
        elif edge and p["CV"] > INT_MIN:
            p["CV"] -= 1
        p["Q"] = p["CV"] <= 0


class Machine:
    """Variables and instances of one program, run scan by scan."""

    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.vals: dict[str, Any] = {}
        self.fbs: dict[str, FB] = {}
        for key, v in prog.vars.items():
            if v.type in FB_TYPES:
                self.fbs[key] = FB(v.type)
            else:
                self.vals[key] = DEFAULTS[v.type] if v.init is None else v.init
        self.now = 0

    def scan(self, now: int, inputs: dict[str, Any]) -> dict[str, Any]:
        self.now = now
        for key, v in self.prog.vars.items():
            if v.section == "VAR_INPUT" and v.name in inputs:
                self.vals[key] = inputs[v.name]
        self.block(self.prog.body)
        return {v.name: self.vals[k] for k, v in self.prog.vars.items() if v.section == "VAR_OUTPUT"}

    def block(self, stmts: list[Any]) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s: Any) -> None:
        kind = s[0]
        if kind == "assign":
            self.vals[s[1]] = self.eval(s[2])
        elif kind == "call":
            fb = self.fbs[s[1]]
            args = [(name, self.eval(e)) for name, e in s[2]]  # all arguments first, then the stores
            fb.p.update(args)
            fb.call(self.now)
        elif kind == "if":
            for cond, body in s[1]:
                if self.eval(cond):
                    self.block(body)
                    return
            self.block(s[2])
        elif kind == "case":
            sel = self.eval(s[1])
            for labels, body in reversed(s[2]):
                if any(lo <= sel <= hi for lo, hi in labels):
                    self.block(body)
                    return
            self.block(s[3])

    def eval(self, e: Any) -> Any:
        kind = e[0]
        if kind == "lit":
            return e[1]
        if kind == "var":
            return self.vals[e[1]]
        if kind == "member":
            return self.fbs[e[1]].p[e[2]]
        if kind == "not":
            return not self.eval(e[1])
        if kind == "neg":
            return wrap(-self.eval(e[1]), e[2])
        _, op, a, b, lt, rt = e
        return binop(op, self.eval(a), self.eval(b), lt, rt)


def binop(op: str, x: Any, y: Any, lt: str, rt: str) -> Any:
    if op == "AND":
        return x and y
    if op == "OR":
        return x or y
    if op == "XOR":
        return x != y
    if op in ("=", "<>", "<", ">", "<=", ">="):
        return {"=": x == y, "<>": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]
    typ = "TIME" if "TIME" in (lt, rt) else "INT"
    if op == "+":
        return wrap(x + y, typ)
    if op == "-":
        return wrap(x - y, typ)
    if op == "*":
        return wrap(x * y, typ)
    if op == "/":
        return wrap(tdiv(x, y), typ)
    return wrap(x - y * tdiv(x, y), typ) if y != 0 else 0  # MOD: the sign of the dividend
