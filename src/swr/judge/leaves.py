"""Leaf rules shared by the slow walk, the compiled fast path and the numpy path."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

INF = math.inf
Where = tuple[str | int, ...]  # a concrete path into a JSON document: keys and list indices
_MAX_INT_BITS = 13_000  # ~3900 decimal digits: below Python's int->str conversion limit


_KINDS = {
    float: "number",
    int: "number",
    str: "string",
    dict: "dict",
    list: "list",
    tuple: "list",
    bool: "bool",
    type(None): "null",
}


def kind(x: Any) -> str:
    """The JSON kind of a value: dict, list, string, number, bool, null (else other)."""
    return _KINDS.get(type(x)) or _kind_slow(x)


def _kind_slow(x: Any) -> str:
    """Subclasses of the JSON types (e.g. IntEnum) keep the kind of their base."""
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, (int, float)):
        return "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, dict):
        return "dict"
    if isinstance(x, (list, tuple)):
        return "list"
    return "other"


def float_ok(r: float, c: float, atol: float, rtol: float) -> bool:
    """|c - r| <= atol + rtol*|r| with both finite; NaN == NaN; inf only equals the same inf."""
    if r != r:
        return c != c
    if r == INF or r == -INF:
        return c == r
    if isinstance(c, int):
        try:
            c = float(c)
        except OverflowError:
            return False
    if not (-INF < c < INF):
        return False
    d = abs(c - r)
    lim = atol + rtol * abs(r)
    if d <= lim < INF:
        return True
    if d < INF and lim < INF:
        return False
    # Overflow of the difference or of the limit: decide on halved magnitudes.
    return abs(c * 0.5 - r * 0.5) <= atol * 0.5 + (rtol * 0.5) * abs(r)


def periodic_ok(r: float, c: Any, atol: float, rtol: float, period: float) -> bool:
    """float_ok with the difference taken modulo `period` (an angle: 359.9 and 0.05 degrees are 0.15
    apart). Each side is reduced first, so no difference of huge values overflows; non-finite values keep
    float_ok's rule. A plain match is always a periodic one (the fast path stays sound without knowing)."""
    if float_ok(r, c, atol, rtol):
        return True
    if isinstance(c, bool) or not isinstance(c, (int, float)) or r != r or r in (INF, -INF):
        return False
    try:
        c = float(c)
    except OverflowError:
        return False
    if not (-INF < c < INF):
        return False
    d = abs(math.remainder(math.remainder(c, period) - math.remainder(r, period), period))
    return d <= atol + rtol * abs(r)


def number_ok(r: Any, c: Any, atol: float, rtol: float) -> bool:
    """Ints compare exactly (3.0 == 3, 3.5 != 3); floats by the tolerance rule."""
    if isinstance(r, float):
        return float_ok(r, c, atol, rtol)
    try:
        return bool(c == r)
    except Exception:  # exotic number subclasses
        return False


def summary(x: Any) -> Any:
    """Containers are reported as "list[n]" / "dict[n]", leaves as themselves."""
    k = kind(x)
    if k == "dict" or k == "list":
        return f"{k}[{len(x)}]"
    return x


def json_safe(x: Any) -> Any:
    """A leaf value made safe for json.dumps(allow_nan=False)."""
    t = type(x)
    if t is float or isinstance(x, float):
        if x != x:
            return "NaN"
        if x in (INF, -INF):
            return "Infinity" if x > 0 else "-Infinity"
        return float(x)
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, int):
        if x.bit_length() > _MAX_INT_BITS:
            return f"<int with {x.bit_length()} bits>"
        return int(x)
    if isinstance(x, str):
        return x if len(x) <= 1000 else x[:1000] + "…"
    if isinstance(x, (dict, list, tuple)):
        return summary(x)
    return repr(x)[:200]


def walk(doc: Any, keep: Callable[[Where], bool] | None = None) -> Iterator[tuple[Where, Any]]:
    """(path, value) of every leaf of a JSON document (anything not a dict or list), in document order; a
    node whose path `keep` rejects is skipped with everything under it (ignored fields: pass `graded(tol)`).
    The one walk over output leaves the audits and the artifact fields use; iterative, so a deep document
    cannot exhaust the stack."""
    stack: list[tuple[Where, Any]] = [((), doc)]
    while stack:
        path, node = stack.pop()
        if keep is not None and not keep(path):
            continue
        if isinstance(node, dict):
            stack.extend(((*path, k), v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend(((*path, i), v) for i, v in reversed(list(enumerate(node))))
        else:
            yield path, node


def map_leaves(
    doc: Any, fn: Callable[[Where, Any], Any], keep: Callable[[Where], bool] | None = None, path: Where = ()
) -> Any:
    """A copy of doc with fn(path, value) in place of every leaf `walk` would yield; a skipped node is kept
    as it is."""
    if keep is not None and not keep(path):
        return doc
    if isinstance(doc, dict):
        return {k: map_leaves(v, fn, keep, (*path, k)) for k, v in doc.items()}
    if isinstance(doc, list):
        return [map_leaves(v, fn, keep, (*path, i)) for i, v in enumerate(doc)]
    return fn(path, doc)


def graded(tol: Any) -> Callable[[Where], bool]:
    """`keep` for walk/map_leaves: the paths a Tolerances grades (not ignored)."""
    return lambda path: tol.for_path(path) is not None
