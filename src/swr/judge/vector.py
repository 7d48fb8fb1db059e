"""Vectorised (numpy) checks for long float lists and float tables.

The fast-path helpers only prove a match with the same condition as the scalar fast path,
(|c - r| <= atol + rtol*|r|) and that bound finite; anything else is "not proven" and the
exact scalar code decides.
"""

from __future__ import annotations

from itertools import chain
from operator import itemgetter
from typing import Any

import numpy as np

from .leaves import INF, float_ok

NP_MIN = 64  # float lists at least this long are checked with numpy
TABLE_MIN = 16  # tables with at least this many rows are checked column-wise
_FLOAT = frozenset({float})
_NUMBER = frozenset({float, int})
_LIST = frozenset({list})
_DICT = frozenset({dict})


def _arrays(r: list[Any], c: list[Any]) -> tuple[Any, Any] | None:
    """float64 arrays of an all-float reference and an int/float candidate, else None."""
    if set(map(type, r)) != _FLOAT or not set(map(type, c)) <= _NUMBER:
        return None
    try:
        return (np.fromiter(r, dtype=np.float64, count=len(r)), np.fromiter(c, dtype=np.float64, count=len(c)))
    except (OverflowError, TypeError, ValueError):  # ints beyond float range
        return None


def _close(a: Any, b: Any, atol: Any, rtol: Any) -> Any:
    """Elementwise fast-path condition; atol/rtol may be per-column arrays."""
    with np.errstate(all="ignore"):
        lim = atol + rtol * np.abs(a)
        return (np.abs(b - a) <= lim) & (lim < INF)


def np_float_mask(r: list[Any], c: list[Any], atol: float, rtol: float) -> Any:
    """Exact float rule over equal-length lists as a bool array; None if not all numbers."""
    ab = _arrays(r, c)
    if ab is None:
        return None
    a, b = ab
    ok = _close(a, b, atol, rtol)
    if ok.all():
        return ok
    with np.errstate(all="ignore"):
        ok |= np.isnan(a) & np.isnan(b)
        ok |= np.isinf(a) & (a == b)
        # Finite pairs whose difference or bound overflowed: decide exactly, one by one.
        amb = ~ok & np.isfinite(a) & np.isfinite(b)
        amb &= np.isinf(np.abs(b - a)) | np.isinf(atol + rtol * np.abs(a))
    for i in np.flatnonzero(amb).tolist():
        ok[i] = float_ok(r[i], c[i], atol, rtol)
    return ok


def np_floats_equal(r: list[Any], c: list[Any], atol: float, rtol: float) -> int | None:
    """Fast path for a long float list: 1 proven match, -1 not proven, None reference not
    all-float (the predicate's shape guard failed)."""
    if set(map(type, r)) != _FLOAT:
        return None
    ab = _arrays(r, c)
    return 1 if ab is not None and _close(ab[0], ab[1], atol, rtol).all() else -1


def np_float_rows(r: list[Any], c: list[Any], atol: float, rtol: float) -> int:
    """List of float lists: graded leaf count when proven equal, else -1 (loop decides)."""
    if set(map(type, r)) != _LIST or set(map(type, c)) != _LIST:
        return -1
    if list(map(len, r)) != list(map(len, c)):
        return -1
    fr, fc = list(chain.from_iterable(r)), list(chain.from_iterable(c))
    ab = _arrays(fr, fc)
    return len(fr) if ab is not None and _close(ab[0], ab[1], atol, rtol).all() else -1


def np_float_records(r: list[Any], c: list[Any], keys: tuple[str, ...], atol: Any, rtol: Any) -> int:
    """List of dicts with exactly `keys`, all floats: leaf count when proven equal, else -1.

    atol/rtol are per-key arrays (overrides like "rows.*.x" differ per column).
    """
    m = len(keys)
    if m < 2 or set(map(type, r)) != _DICT or set(map(type, c)) != _DICT:
        return -1
    if set(map(len, r)) != {m} or set(map(len, c)) != {m}:
        return -1
    get = itemgetter(*keys)
    try:
        fr = list(chain.from_iterable(map(get, r)))
        fc = list(chain.from_iterable(map(get, c)))
    except KeyError:
        return -1
    ab = _arrays(fr, fc)
    if ab is None:
        return -1
    a, b = ab[0].reshape(len(r), m), ab[1].reshape(len(c), m)
    return len(fr) if _close(a, b, atol, rtol).all() else -1
