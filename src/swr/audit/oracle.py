"""The audit's own, independent notion of "within tolerance": it decides whether a mutant is valid
(should be accepted) without asking the judge whose decisions are being audited."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, Protocol

from swr.judge.leaves import Where, graded, walk
from swr.judge.leaves import map_leaves as _map_leaves


class Tolerances(Protocol):
    """What the audit's oracle asks of a task's tolerances: swr.judge's Tolerances, or the mutation audit's
    ScaledTolerances (the same bands with each absolute floor capped at the field's own scale)."""

    def for_path(self, path: Where) -> tuple[float, float] | None: ...

    def period_for(self, path: Where) -> float | None: ...


def leaves(doc: Any, tol: Tolerances) -> Iterator[tuple[Where, Any]]:
    """Graded leaves in document order (ignored subtrees skipped)."""
    return walk(doc, graded(tol))


def limit(ref: float, tol: Tolerances, path: Where) -> float:
    """The tolerance band half-width at a float leaf: atol + rtol·|ref|."""
    atol, rtol = tol.for_path(path) or (0.0, 0.0)
    return atol + rtol * abs(ref)


def leaf_within(ref: Any, got: Any, tol: Tolerances, path: Where) -> bool:
    """The DESIGN.md leaf rule, written out again on purpose."""
    if isinstance(ref, bool) or ref is None or isinstance(ref, str):
        return type(got) is type(ref) and got == ref
    if isinstance(ref, int):
        return not isinstance(got, bool) and isinstance(got, (int, float)) and got == ref
    if isinstance(ref, float):
        if isinstance(got, bool) or not isinstance(got, (int, float)):
            return False
        if math.isnan(ref) or math.isinf(ref):
            return (math.isnan(ref) and math.isnan(got)) or got == ref
        if not math.isfinite(got):
            return False
        diff = abs(float(got) - ref)
        period = tol.period_for(path)
        if period:  # an angle: the shorter way round
            diff = abs(math.remainder(math.remainder(float(got), period) - math.remainder(ref, period), period))
        return diff <= limit(ref, tol, path)
    return False


def within(ref: Any, got: Any, tol: Tolerances, path: Where = ()) -> bool:
    """Whole-document tolerance equality: every graded reference leaf present and within its band."""
    if tol.for_path(path) is None:
        return True
    if isinstance(ref, dict):
        return isinstance(got, dict) and all(k in got and within(v, got[k], tol, (*path, k)) for k, v in ref.items())
    if isinstance(ref, list):
        return (
            isinstance(got, list)
            and len(got) == len(ref)
            and all(within(r, g, tol, (*path, i)) for i, (r, g) in enumerate(zip(ref, got)))
        )
    return leaf_within(ref, got, tol, path)


def map_leaves(doc: Any, fn: Any, tol: Tolerances) -> Any:
    """A copy of doc with fn(path, value) applied to every graded leaf."""
    return _map_leaves(doc, fn, graded(tol))
