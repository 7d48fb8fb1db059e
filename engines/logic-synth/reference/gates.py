"""The cell library of spec.md behind a builder that folds constants and shares identical gates, and
the word-level operators (adders, comparators, reductions) built from those cells."""
from __future__ import annotations

ZERO, ONE = "0", "1"


class Builder:
    """Creates AND2/OR2/XOR2/NOT/MUX2/DFF cells; nets are strings, "0" and "1" are the constants."""

    def __init__(self) -> None:
        self.cells: list[dict[str, str]] = []
        self.cache: dict[tuple, str] = {}
        self.inverse: dict[str, str] = {}
        self.count = 0

    def _cell(self, typ: str, **pins: str) -> str:
        if typ in ("AND2", "OR2", "XOR2") and pins["A"] > pins["B"]:  # commutative: one order
            pins = {"A": pins["B"], "B": pins["A"]}
        key = (typ, *pins.items())
        if key in self.cache:
            return self.cache[key]
        self.count += 1
        out = f"_n{self.count}"
        self.cells.append({"type": typ, **pins, "Y": out})
        self.cache[key] = out
        return out

    def NOT(self, a: str) -> str:
        if a in (ZERO, ONE):
            return ONE if a == ZERO else ZERO
        if a in self.inverse:
            return self.inverse[a]
        y = self._cell("NOT", A=a)
        self.inverse[y], self.inverse[a] = a, y
        return y

    def AND(self, a: str, b: str) -> str:
        if ZERO in (a, b) or self.inverse.get(a) == b:
            return ZERO
        if a == ONE or a == b:
            return b
        return a if b == ONE else self._cell("AND2", A=a, B=b)

    def OR(self, a: str, b: str) -> str:
        if ONE in (a, b) or self.inverse.get(a) == b:
            return ONE
        if a == ZERO or a == b:
            return b
        return a if b == ZERO else self._cell("OR2", A=a, B=b)

    def XOR(self, a: str, b: str) -> str:
        if a == b:
            return ZERO
        if self.inverse.get(a) == b:
            return ONE
        if a in (ZERO, ONE):
            return b if a == ZERO else self.NOT(b)
        if b in (ZERO, ONE):
            return a if b == ZERO else self.NOT(a)
        return self._cell("XOR2", A=a, B=b)

    def MUX(self, s: str, a: str, b: str) -> str:
        """s ? b : a."""
        if s in (ZERO, ONE):
            return b if s == ONE else a
        if a == b:
            return a
        if (a, b) == (ZERO, ONE):
            return s
        if (a, b) == (ONE, ZERO):
            return self.NOT(s)
        if a == ZERO:
            return self.AND(s, b)
        if b == ZERO:
            return self.AND(self.NOT(s), a)
        if a == ONE:
            return self.OR(self.NOT(s), b)
        if b == ONE:
            return self.OR(s, a)
        return self._cell("MUX2", A=a, B=b, S=s)

    def DFF(self, clk: str, d: str, q: str) -> None:
        self.cells.append({"type": "DFF", "C": clk, "D": d, "Q": q})

    # word-level operators on LSB-first bit lists

    def reduce(self, op: str, bits: list[str]) -> str:
        """A balanced tree of AND/OR/XOR over the bits."""
        fn = {"&": self.AND, "|": self.OR, "^": self.XOR}[op]
        level = list(bits)
        while len(level) > 1:
            nxt = [fn(level[k], level[k + 1]) for k in range(0, len(level) - 1, 2)]
            level = nxt + ([level[-1]] if len(level) % 2 else [])
        return level[0]

    def add(self, a: list[str], b: list[str], cin: str = ZERO) -> tuple[list[str], str]:
        """Ripple-carry sum (same width as the operands) and carry out."""
        out, c = [], cin
        for x, y in zip(a, b):
            p = self.XOR(x, y)
            out.append(self.XOR(p, c))
            c = self.OR(self.AND(x, y), self.AND(p, c))
        return out, c

    def sub(self, a: list[str], b: list[str]) -> tuple[list[str], str]:
        """a - b as a + ~b + 1; the carry out is 1 exactly when a >= b (unsigned)."""
        return self.add(a, [self.NOT(y) for y in b], ONE)

    def less(self, a: list[str], b: list[str]) -> str:
        """a < b, unsigned: the borrow of a - b, computed MSB-first without the difference bits."""
        lt = ZERO
        for x, y in zip(a, b):  # from the LSB up: the higher bit decides unless equal
            lt = self.MUX(self.XOR(x, y), lt, y)
        return lt

    def equal(self, a: list[str], b: list[str]) -> str:
        return self.NOT(self.reduce("|", [self.XOR(x, y) for x, y in zip(a, b)]))
