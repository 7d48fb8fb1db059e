"""Elaboration of a parsed module into library cells: Verilog-2005 expression widths (IEEE 1364-2005
section 5.4, all operands unsigned), continuous assignments, and symbolic execution of the clocked
always blocks into one DFF per register bit with its next-state logic."""
from __future__ import annotations

from gates import ONE, ZERO, Builder
from verilog import Module, VerilogError

REL = {"==", "!=", "<", "<=", ">", ">=", "&&", "||"}
BITWISE = {"&", "|", "^", "~^", "+", "-"}


def fit(bits: list[str], w: int) -> list[str]:
    """Zero-extend or truncate an LSB-first bit list to w bits."""
    return bits[:w] if len(bits) >= w else bits + [ZERO] * (w - len(bits))


class Synth:
    def __init__(self, m: Module) -> None:
        self.m, self.b = m, Builder()
        self.drivers: dict[tuple[str, int], tuple[int, int]] = {}
        self.memo: dict[int, list[str]] = {}
        self.busy: set[int] = set()
        for k, (lhs, _) in enumerate(m.assigns):
            for pos, (name, bit) in enumerate(self.lvalue_bits(lhs)):
                if self.sig(name).kind != "wire":
                    raise VerilogError(f"assign to {name}, which is not a wire")
                if (name, bit) in self.drivers:
                    raise VerilogError(f"{name}[{bit}] has two drivers")
                self.drivers[(name, bit)] = (k, pos)

    def sig(self, name: str):
        if name not in self.m.signals:
            raise VerilogError(f"{name} is not declared")
        return self.m.signals[name]

    def lvalue_bits(self, pieces: list) -> list[tuple[str, int]]:
        """(name, bit) LSB first for lvalue pieces given MSB first."""
        out = []
        for _, name, msb, lsb in reversed(pieces):
            w = self.sig(name).width
            msb, lsb = (w - 1, 0) if msb is None else (msb, lsb)
            if not 0 <= lsb <= msb < w:
                raise VerilogError(f"{name}[{msb}:{lsb}] is outside [{w - 1}:0]")
            out += [(name, i) for i in range(lsb, msb + 1)]
        return out

    def bits(self, name: str) -> list[str]:
        s = self.sig(name)
        if s.kind in ("input", "reg"):
            return [f"{name}[{i}]" for i in range(s.width)]
        out = []
        for i in range(s.width):
            if (name, i) not in self.drivers:
                raise VerilogError(f"{name}[{i}] is never driven")
            k, pos = self.drivers[(name, i)]
            out.append(self.assignment(k)[pos])
        return out

    def assignment(self, k: int) -> list[str]:
        if k in self.memo:
            return self.memo[k]
        if k in self.busy:
            raise VerilogError("combinational loop through continuous assignments")
        self.busy.add(k)
        lhs, rhs = self.m.assigns[k]
        width = len(self.lvalue_bits(lhs))
        self.memo[k] = self.ev(rhs, max(width, self.sw(rhs)))[:width]
        self.busy.discard(k)
        return self.memo[k]

    def sw(self, e: tuple) -> int:
        """Self-determined width (IEEE 1364-2005 table 5-22)."""
        tag = e[0]
        if tag == "const":
            return e[1] or 32
        if tag == "id":
            return self.sig(e[1]).width
        if tag == "part":
            return e[2] - e[3] + 1
        if tag == "concat":
            return sum(self.sw(p) for p in e[1])
        if tag == "repl":
            return e[1] * sum(self.sw(p) for p in e[2])
        if tag == "un":
            return self.sw(e[2]) if e[1] == "~" else 1
        if tag == "bin":
            if e[1] in REL:
                return 1
            return self.sw(e[2]) if e[1] in ("<<", ">>") else max(self.sw(e[2]), self.sw(e[3]))
        return max(self.sw(e[2]), self.sw(e[3]))  # tern

    def self_bits(self, e: tuple) -> list[str]:
        return self.ev(e, self.sw(e))

    def truth(self, e: tuple) -> str:
        """A self-determined operand as one bit: nonzero. ("__bit", net) is an already computed bit."""
        if e[0] == "__bit":
            return e[1]
        return self.b.reduce("|", self.self_bits(e))

    def ev(self, e: tuple, w: int) -> list[str]:
        """The value of e in a context of width w (>= its self-determined width), LSB first."""
        tag, b = e[0], self.b
        if tag == "const":
            width = e[1] or 32
            if e[2] >= 1 << width:
                raise VerilogError(f"constant {e[2]} does not fit in {width} bits")
            return fit([ONE if e[2] >> i & 1 else ZERO for i in range(width)], w)
        if tag == "id":
            return fit(self.bits(e[1]), w)
        if tag == "part":
            s = self.sig(e[1])
            if not 0 <= e[3] <= e[2] < s.width:
                raise VerilogError(f"{e[1]}[{e[2]}:{e[3]}] is outside [{s.width - 1}:0]")
            return fit(self.bits(e[1])[e[3]:e[2] + 1], w)
        if tag in ("concat", "repl"):
            parts = e[1] if tag == "concat" else e[2]
            one = [x for p in reversed(parts) for x in self.self_bits(p)]
            return fit(one * (1 if tag == "concat" else e[1]), w)
        if tag == "tern":
            c, t, f = self.truth(e[1]), self.ev(e[2], w), self.ev(e[3], w)
            return [b.MUX(c, x, y) for x, y in zip(f, t)]
        if tag == "un":
            return self.unary(e[1], e[2], w)
        return self.binary(e[1], e[2], e[3], w)

    def unary(self, op: str, a: tuple, w: int) -> list[str]:
        b = self.b
        if op == "~":
            return [b.NOT(x) for x in self.ev(a, w)]
        if op == "!":
            return fit([b.NOT(self.truth(a))], w)
        r = b.reduce(op[-1], self.self_bits(a))
        return fit([b.NOT(r) if op.startswith("~") else r], w)

    def binary(self, op: str, x: tuple, y: tuple, w: int) -> list[str]:
        b = self.b
        if op in BITWISE:
            p, q = self.ev(x, w), self.ev(y, w)
            if op == "+":
                return b.add(p, q)[0]
            if op == "-":
                return b.sub(p, q)[0]
            fn = {"&": b.AND, "|": b.OR, "^": b.XOR, "~^": lambda s, t: b.NOT(b.XOR(s, t))}[op]
            return [fn(s, t) for s, t in zip(p, q)]
        if op in ("<<", ">>"):
            if y[0] != "const":
                raise VerilogError("shift amounts are integer literals")
            bits, n = self.ev(x, w), y[2]
            return fit([ZERO] * n + bits, w) if op == "<<" else fit(bits[n:], w)
        if op in ("&&", "||"):
            return fit([(b.AND if op == "&&" else b.OR)(self.truth(x), self.truth(y))], w)
        m = max(self.sw(x), self.sw(y))
        p, q = self.ev(x, m), self.ev(y, m)
        r = {"==": lambda: b.equal(p, q), "!=": lambda: b.NOT(b.equal(p, q)), "<": lambda: b.less(p, q),
             ">": lambda: b.less(q, p), "<=": lambda: b.NOT(b.less(q, p)), ">=": lambda: b.NOT(b.less(p, q))}[op]()
        return fit([r], w)

    def execute(self, stmt: tuple, env: dict[str, str], regs: set[str]) -> None:
        """Symbolic execution of nonblocking assignments: env maps a register bit (its Q net name)
        to its next value; a bit absent from env holds."""
        tag = stmt[0]
        if tag == "block":
            for s in stmt[1]:
                self.execute(s, env, regs)
        elif tag == "nb":
            targets = self.lvalue_bits(stmt[1])
            for name, _ in targets:
                if self.sig(name).kind != "reg":
                    raise VerilogError(f"{name} is assigned in an always block but is not a reg")
                regs.add(name)
            value = self.ev(stmt[2], max(len(targets), self.sw(stmt[2])))
            for (name, i), net in zip(targets, value):
                env[f"{name}[{i}]"] = net
        elif tag == "if":
            self.branch(self.truth(stmt[1]), stmt[2], stmt[3], env, regs)
        else:
            self.execute(self.case_chain(stmt), env, regs)

    def branch(self, cond: str, then: tuple, other: tuple | None, env: dict[str, str], regs: set[str]) -> None:
        t_env, f_env = dict(env), dict(env)
        self.execute(then, t_env, regs)
        if other is not None:
            self.execute(other, f_env, regs)
        for k in sorted(set(t_env) | set(f_env)):
            env[k] = self.b.MUX(cond, f_env.get(k, k), t_env.get(k, k))

    def case_chain(self, stmt: tuple) -> tuple:
        """case -> if/else chain; subject and labels compared at the width of the widest of them."""
        _, subject, items, default = stmt
        m = max([self.sw(subject)] + [self.sw(lb) for labels, _ in items for lb in labels])
        out = default or ("block", [])
        for labels, body in items:
            cond = ("__bit", self.b.reduce("|", [self.b.equal(self.ev(subject, m), self.ev(lb, m)) for lb in labels]))
            out = ("if", cond, body, out)
        return out

    def run(self) -> dict:
        clocks = {clk for clk, _ in self.m.always}
        if len(clocks) > 1:
            raise VerilogError("one clock per module")
        owner: dict[str, int] = {}
        for k, (clk, stmt) in enumerate(self.m.always):
            s = self.sig(clk)
            if s.kind != "input" or s.width != 1:
                raise VerilogError(f"clock {clk} must be a 1-bit input")
            env: dict[str, str] = {}
            regs: set[str] = set()
            self.execute(stmt, env, regs)
            for r in sorted(regs, key=list(self.m.signals).index):
                if owner.setdefault(r, k) != k:
                    raise VerilogError(f"{r} is assigned in two always blocks")
                for i in range(self.sig(r).width):
                    bit = f"{r}[{i}]"
                    self.b.DFF(f"{clk}[0]", env.get(bit, bit), bit)
        for s in self.m.signals.values():
            if s.kind == "reg" and s.name not in owner:
                raise VerilogError(f"reg {s.name} is never assigned")
        outputs = {p: self.bits(p) for p in self.m.ports if self.sig(p).output}
        return {"cells": live(self.b.cells, outputs), "outputs": outputs}


def live(cells: list[dict[str, str]], outputs: dict[str, list[str]]) -> list[dict[str, str]]:
    """Cells that reach an output or a DFF input, in creation order (DFFs always kept)."""
    by_out = {c.get("Y"): c for c in cells if "Y" in c}
    seen: set[str] = set()
    todo = [n for bits in outputs.values() for n in bits] + [c["D"] for c in cells if c["type"] == "DFF"]
    while todo:
        n = todo.pop()
        if n in seen or n not in by_out:
            continue
        seen.add(n)
        todo += [v for k, v in by_out[n].items() if k in ("A", "B", "S")]
    return [c for c in cells if c["type"] == "DFF" or c["Y"] in seen]
