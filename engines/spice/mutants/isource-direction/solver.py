"""Modified nodal analysis for the subset: DC operating point and sweep (Newton with junction limiting),
transient (trapezoidal rule, backward Euler after breakpoints), AC small-signal."""
from __future__ import annotations

import math

import numpy as np

from netlist import Circuit, NetlistError

GMIN = 1e-12
VT = 1.380649e-23 * 300.15 / 1.602176634e-19  # thermal voltage at 27 degC


class System:
    """Unknown numbering: node voltages (ground excluded), then one current per V source and inductor."""

    def __init__(self, c: Circuit) -> None:
        self.c = c
        names: dict[str, int] = {}
        for e in [*c.elements, *c.sources]:
            for n in (e.np, e.nm):
                if n != "0" and n not in names:
                    names[n] = len(names)
        self.node = names
        self.branch: dict[str, int] = {}
        for e in [*c.sources, *c.elements]:
            if e.kind in ("v", "l"):
                self.branch[e.name] = len(names) + len(self.branch)
        self.size = len(names) + len(self.branch)
        self.diodes = [e for e in c.elements if e.kind == "d"]

    def idx(self, n: str) -> int:
        return -1 if n == "0" else self.node[n]

    def stamp_g(self, a: np.ndarray, np_: str, nm: str, g: complex) -> None:
        i, j = self.idx(np_), self.idx(nm)
        for p, q, s in ((i, i, 1), (j, j, 1), (i, j, -1), (j, i, -1)):
            if p >= 0 and q >= 0:
                a[p, q] += s * g

    def stamp_i(self, b: np.ndarray, np_: str, nm: str, cur: complex) -> None:
        """A current `cur` flowing from np_ through the element to nm."""
        i, j = self.idx(np_), self.idx(nm)
        if i >= 0:
            b[i] -= cur
        if j >= 0:
            b[j] += cur

    def stamp_branch(self, a: np.ndarray, name: str, np_: str, nm: str) -> int:
        k, i, j = self.branch[name], self.idx(np_), self.idx(nm)
        if i >= 0:
            a[i, k] += 1
            a[k, i] += 1
        if j >= 0:
            a[j, k] -= 1
            a[k, j] -= 1
        return k

    def volt(self, x: np.ndarray, n: str) -> float:
        return 0.0 if n == "0" else x[self.node[n]]

    def linear(self, src: dict[str, float], mode: str, h: float = 0.0, prev: np.ndarray | None = None,
               prev_ic: dict[str, float] | None = None, dtype: type = float) -> tuple[np.ndarray, np.ndarray]:
        """Matrix and right-hand side of everything but the diodes. mode: dc | be | trap."""
        a, b = np.zeros((self.size, self.size), dtype), np.zeros(self.size, dtype)
        for e in self.c.elements:
            if e.kind == "r":
                self.stamp_g(a, e.np, e.nm, 1.0 / e.value)
            elif e.kind == "l":
                k = self.stamp_branch(a, e.name, e.np, e.nm)
                if mode != "dc":
                    f = (2 if mode == "trap" else 1) * e.value / h
                    a[k, k] -= f
                    b[k] = -f * prev[k] - (self.volt(prev, e.np) - self.volt(prev, e.nm) if mode == "trap" else 0.0)
            elif e.kind == "c" and mode != "dc":
                g = (2 if mode == "trap" else 1) * e.value / h
                v0 = self.volt(prev, e.np) - self.volt(prev, e.nm)
                self.stamp_g(a, e.np, e.nm, g)
                self.stamp_i(b, e.np, e.nm, -g * v0 - (prev_ic[e.name] if mode == "trap" else 0.0))
        for s in self.c.sources:
            if s.kind == "v":
                b[self.stamp_branch(a, s.name, s.np, s.nm)] = src[s.name]
            else:
                self.stamp_i(b, s.nm, s.np, src[s.name])
        return a, b

    def solve(self, a: np.ndarray, b: np.ndarray, guess: np.ndarray) -> np.ndarray:
        """Newton on the diodes (junction voltage limited as in SPICE's pnjlim); linear circuits take one solve."""
        x = guess.copy()
        vd = {d.name: self.volt(x, d.np) - self.volt(x, d.nm) for d in self.diodes}
        for _ in range(300):
            aa, bb = a.copy(), b.copy()
            for d in self.diodes:
                m = self.c.models[d.model]
                g, i = junction(vd[d.name], m["is"], m["n"])
                self.stamp_g(aa, d.np, d.nm, g)
                self.stamp_i(bb, d.np, d.nm, i - g * vd[d.name])
            try:
                new = np.linalg.solve(aa, bb)
            except np.linalg.LinAlgError:
                raise NetlistError("singular circuit matrix (floating node or voltage-source loop)") from None
            if not self.diodes:
                return new
            done = np.all(np.abs(new - x) <= 1e-9 + 1e-9 * np.abs(new))
            x = new
            for d in self.diodes:
                m = self.c.models[d.model]
                vd[d.name] = limit(self.volt(x, d.np) - self.volt(x, d.nm), vd[d.name], m["n"] * VT,
                                   m["is"])
            if done:
                return x
        raise NetlistError("Newton iteration did not converge")


def junction(v: float, isat: float, n: float) -> tuple[float, float]:
    """(conductance, current) of the Shockley junction plus GMIN in parallel."""
    e = math.exp(min(v / (n * VT), 700.0))
    return isat * e / (n * VT) + GMIN, isat * (e - 1.0) + GMIN * v


def limit(vnew: float, vold: float, vt: float, isat: float) -> float:
    """SPICE's junction-voltage limiting: large forward steps are taken logarithmically."""
    vcrit = vt * math.log(vt / (math.sqrt(2) * isat))
    if vnew > vcrit and abs(vnew - vold) > 2 * vt:
        if vold > 0:
            arg = 1 + (vnew - vold) / vt
            return vold + vt * math.log(arg) if arg > 0 else vcrit
        return vt * math.log(vnew / vt)
    return vnew
