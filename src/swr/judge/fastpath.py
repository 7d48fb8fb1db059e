"""Compiled match predicates specialised to a reference's shape (the judge's fast path).

A predicate `f(ref, cand)` guards the reference's whole shape itself, so any compiled
predicate is sound for any reference: it returns the graded leaf count on a full match,
None when the reference does not have its shape, and -1 when the candidate may differ.
Anything but a count sends the caller to the slow walk, which builds the diagnostics.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .leaves import INF
from .tolerance import Path, Tolerances
from .vector import NP_MIN, TABLE_MIN, np_float_records, np_float_rows, np_floats_equal

Pred = Callable[[Any, Any], "int | None"]
_MAX_DEPTH = 40  # deeper references take the slow walk
_MAX_LOOPS = 12  # Python allows 20 statically nested blocks
_MAX_LINES = 6000  # bigger shapes take the slow walk rather than a huge compile
_MAX_COMPILED = 512
_EAGER_WEIGHT = 500  # references this big compile on first sight; smaller on the second
_UNSUPPORTED = "unsupported"
_SEEN_ONCE = "seen-once"
_LEAF_SHAPES = {float: "f", int: "i", str: "s", bool: "b", type(None): "n"}


def fast_count(ref: Any, cand: Any, tol: Tolerances) -> int | None:
    """Graded leaf count when a compiled predicate proves a full match, else None."""
    cache = tol.memo
    fn = cache.last
    if fn is not None:
        try:
            n = fn(ref, cand)
        except Exception:
            n = None
        if n is not None:
            return n if n >= 0 else None
    if cache.literal_index:
        return None
    fn2 = _predicate_for(ref, tol)
    if fn2 is None or fn2 is fn:
        return None
    cache.last = fn2
    try:
        n = fn2(ref, cand)
    except Exception:
        return None
    return n if n is not None and n >= 0 else None


def _predicate_for(ref: Any, tol: Tolerances) -> Pred | None:
    """Look up (or compile) the predicate for the reference's shape."""
    shape = shape_of(ref, tol)
    if shape is None:
        return None
    compiled = tol.memo.compiled
    fn = compiled.get(shape)
    if fn is None or fn is _SEEN_ONCE:
        if len(compiled) >= _MAX_COMPILED:
            compiled.clear()
        if fn is None and _weight(ref, shape) < _EAGER_WEIGHT:
            compiled[shape] = _SEEN_ONCE  # data-dependent keys must not compile every time
            return None
        try:
            fn = _Gen(tol).build(shape)
        except _Refuse:
            fn = _UNSUPPORTED
        compiled[shape] = fn
    return fn if callable(fn) else None  # not _UNSUPPORTED


def _weight(x: Any, shape: Any) -> int:
    """Estimated graded leaves (list length times first-element weight)."""
    if type(shape) is str:
        return 1
    if shape[0] == "d":
        return sum(_weight(x[k], s) for k, s in shape[1])
    if not x or shape[1] is None or shape[1] == "empty":
        return 1
    return len(x) * _weight(x[0], shape[1])


def shape_of(x: Any, tol: Tolerances, ap: Path = (), depth: int = 0) -> Any:
    """Graded shape of a reference; lists are described by their first element only.

    That is sound because the compiled predicate re-checks every element's shape.
    """
    leaf = _LEAF_SHAPES.get(type(x))
    if leaf is not None:
        return leaf
    if depth > _MAX_DEPTH:
        return None
    t = type(x)
    if t is dict:
        items = []
        for k, v in x.items():
            if type(k) is not str:
                return None
            cap = tol.child(ap, k)
            if tol.resolve(cap) is None:
                continue
            s = shape_of(v, tol, cap, depth + 1)
            if s is None:
                return None
            items.append((k, s))
        return ("d", tuple(items))
    if t is list:
        eap = tol.child(ap, tol.index_segment(0))
        if tol.resolve(eap) is None:
            return ("l", None)
        if not x:
            return ("l", "empty")
        s = shape_of(x[0], tol, eap, depth + 1)
        return None if s is None else ("l", s)
    return None


class _Refuse(Exception):
    """The shape is too big or too deep to compile sensibly."""


class _Gen:
    """Emits Python source for one shape; tolerances are inlined as float literals."""

    def __init__(self, tol: Tolerances) -> None:
        self.tol = tol
        self.lines: list[str] = []
        self.g: dict[str, Any] = {
            "_INF": INF,
            "_npf": np_floats_equal,
            "_ext": self._ext,
            "_npr": np_float_rows,
            "_npd": np_float_records,
        }
        self.nvar = 0
        self.loops = 0

    def _ext(self, d: dict[Any, Any], keys: frozenset[str], ap: Path) -> bool:
        """True when every key of `d` outside `keys` is an ignored field."""
        resolve = self.tol.resolve
        return all(k in keys or resolve(self.tol.child(ap, k)) is None for k in d)

    def build(self, shape: Any) -> Pred:
        """Generate, compile and return the predicate."""
        static = self.node(shape, "r0", "c0", (), 1)
        src = "def _pred(r0, c0):\n    n = 0\n" + "\n".join(self.lines)
        src += f"\n    return n + {static}\n"
        code = compile(src, "<swr-judge-fast>", "exec")
        exec(code, self.g)
        fn: Pred = self.g["_pred"]
        fn._src = src  # type: ignore[attr-defined]
        return fn

    def emit(self, ind: int, line: str) -> None:
        """Append one source line at indent level `ind`."""
        self.lines.append("    " * ind + line)
        if len(self.lines) > _MAX_LINES:
            raise _Refuse("shape too large")

    def const(self, value: Any) -> str:
        """Bind a constant into the predicate's globals and return its name."""
        name = f"K{len(self.g)}"
        self.g[name] = value
        return name

    def fresh(self) -> tuple[str, str]:
        """A new (reference, candidate) local variable pair."""
        self.nvar += 1
        return f"r{self.nvar}", f"c{self.nvar}"

    def tol_of(self, ap: Path) -> tuple[str, str]:
        """Float literals of the (atol, rtol) resolved for an abstract path."""
        res = self.tol.resolve(ap) or (self.tol.atol, self.tol.rtol)
        return repr(float(res[0])), repr(float(res[1]))

    def node(self, s: Any, r: str, c: str, ap: Path, ind: int) -> int:
        """Emit checks for one node; returns its static graded leaf count."""
        if s == "f":
            self.float_leaf(r, c, ap, ind)
        elif s == "i":
            self.emit(ind, f"if type({r}) is not int: return None")
            self.emit(ind, f"if (type({c}) is not int and type({c}) is not float) or {c} != {r}: return -1")
        elif s == "b":
            self.emit(ind, f"if type({r}) is not bool: return None")
            self.emit(ind, f"if {c} is not {r}: return -1")
        elif s == "s":
            self.emit(ind, f"if type({r}) is not str: return None")
            self.emit(ind, f"if type({c}) is not str or {c} != {r}: return -1")
        elif s == "n":
            self.emit(ind, f"if {r} is not None: return None")
            self.emit(ind, f"if {c} is not None: return -1")
        elif s[0] == "d":
            return self.dict_node(s[1], r, c, ap, ind)
        else:
            return self.list_node(s[1], r, c, ap, ind)
        return 1

    def float_leaf(self, r: str, c: str, ap: Path, ind: int) -> None:
        """Finite reference within atol + rtol*|r|; anything unusual defers to the slow walk."""
        a, t = self.tol_of(ap)
        self.emit(ind, f"if type({r}) is not float: return None")
        self.emit(ind, f"if type({c}) is not float and type({c}) is not int: return -1")
        self.emit(ind, f"if not (abs({c} - {r}) <= {a} + {t} * abs({r}) < _INF): return -1")

    def dict_node(self, items: tuple[tuple[str, Any], ...], r: str, c: str, ap: Path, ind: int) -> int:
        """Exact graded key set on both sides (other keys allowed only if ignored)."""
        keys = self.const(frozenset(k for k, _ in items))
        path = self.const(ap)
        n = len(items)
        self.emit(ind, f"if type({r}) is not dict: return None")
        self.emit(ind, f"if len({r}) != {n} and not _ext({r}, {keys}, {path}): return None")
        self.emit(ind, f"if type({c}) is not dict: return -1")
        self.emit(ind, f"if len({c}) != {n} and not _ext({c}, {keys}, {path}): return -1")
        static = 0
        for k, sub in items:
            rv, cv = self.fresh()
            self.emit(ind, f"{rv} = {r}[{k!r}]; {cv} = {c}[{k!r}]")
            static += self.node(sub, rv, cv, self.tol.child(ap, k), ind)
        return static

    def list_node(self, elem: Any, r: str, c: str, ap: Path, ind: int) -> int:
        """Equal lengths, then a loop over elements (numpy for long float lists)."""
        self.emit(ind, f"if type({r}) is not list: return None")
        self.emit(ind, f"if type({c}) is not list or len({c}) != len({r}): return -1")
        if elem is None:
            return 0
        if elem == "empty":
            self.emit(ind, f"if {r}: return None")
            return 0
        eap = self.tol.child(ap, self.tol.index_segment(0))
        self.loops += 1
        if self.loops > _MAX_LOOPS:
            raise _Refuse("too many nested lists")
        rv, cv = self.fresh()
        body, count_ind = ind + 1, ind
        table = self.table_call(elem, r, c, eap)
        if elem == "f":
            a, t = self.tol_of(eap)
            self.emit(ind, f"if len({r}) >= {NP_MIN}:")
            self.emit(ind + 1, f"k = _npf({r}, {c}, {a}, {t})")
            self.emit(ind + 1, "if k != 1: return k")
            self.emit(ind, "else:")
            body = ind + 2
            self.emit(ind + 1, f"for {rv}, {cv} in zip({r}, {c}):")
        elif table:
            self.emit(ind, f"k = {table} if len({r}) >= {TABLE_MIN} else -1")
            self.emit(ind, "if k >= 0: n += k")
            self.emit(ind, "else:")
            body, count_ind = ind + 2, ind + 1
            self.emit(ind + 1, f"for {rv}, {cv} in zip({r}, {c}):")
        else:
            self.emit(ind, f"for {rv}, {cv} in zip({r}, {c}):")
        static = self.node(elem, rv, cv, eap, body)
        if static:
            self.emit(count_ind, f"n += {static} * len({r})")
        self.loops -= 1
        return 0

    def table_call(self, elem: Any, r: str, c: str, eap: Path) -> str | None:
        """Column-wise numpy call for float tables (rows as lists or as dicts), if any."""
        if elem == ("l", "f"):
            a, t = self.tol_of(self.tol.child(eap, self.tol.index_segment(0)))
            return f"_npr({r}, {c}, {a}, {t})"
        if isinstance(elem, tuple) and elem[0] == "d" and len(elem[1]) >= 2 and all(sub == "f" for _, sub in elem[1]):
            keys = tuple(k for k, _ in elem[1])
            tols = [self.tol.resolve(self.tol.child(eap, k)) for k in keys]
            atol = self.const(np.array([tl[0] for tl in tols]))  # type: ignore[index]
            rtol = self.const(np.array([tl[1] for tl in tols]))  # type: ignore[index]
            return f"_npd({r}, {c}, {self.const(keys)}, {atol}, {rtol})"
        return None
