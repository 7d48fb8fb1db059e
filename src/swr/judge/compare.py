"""Reference-vs-candidate comparison of JSON values, with labelled diagnostics."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from . import fastpath
from .leaves import json_safe, kind, number_ok, periodic_ok, summary
from .shape import count_leaves
from .tolerance import Path, Tolerances
from .vector import NP_MIN, np_float_mask

# The primary label is the first check that failed: schema, then the semantic mismatches numeric before
# categorical before structural (the SWR paper's order: its primary counts are numeric-heavy while many runs
# carry several semantic labels at once; every label is kept in `labels`).
LABEL_ORDER = ("schema_failure", "numeric_mismatch", "categorical_mismatch", "structural_mismatch")
MAX_MISMATCHES = 20
MAX_EXTRA_KEYS = 20  # extra keys named in a comparison; the rest are only counted
MAX_NAME = 200  # characters of one reported extra-key path
MISSING = "<missing>"
_ABSENT = object()  # stack marker: the candidate lacks this reference key
_EXTRA = object()  # stack marker: count this dict pair's extra keys (after the dict's children)


def dotted(path: Path) -> str:
    """("samples", 3, "x") -> "samples.3.x"; the root is ""."""
    return ".".join(p if type(p) is str else str(p) for p in path)


# Walk paths are cons cells (parent, segment), root None: deep nesting stays linear.
Cons = Any


def _cons_dotted(path: Cons) -> str:
    """Dotted form of a cons path (only built for reported locations)."""
    segs = []
    while path is not None:
        path, seg = path
        segs.append(seg)
    return dotted(tuple(reversed(segs)))


@dataclass
class Mismatch:
    """One failing graded location; containers are summarised as "list[n]" / "dict[n]"."""

    path: str
    label: str
    expected: Any
    got: Any

    def to_json(self) -> dict[str, Any]:
        """JSON-safe form (NaN/inf as strings, huge ints and long strings shortened)."""
        return {
            "path": self.path,
            "label": self.label,
            "expected": json_safe(self.expected),
            "got": json_safe(self.got),
        }


@dataclass
class Comparison:
    """Outcome of compare(): primary label, exact counts, first mismatches, the first extra keys and
    how many there are in all (a candidate controls that number: only a few are ever named)."""

    label: str | None
    labels: list[str]
    matched: int
    total: int
    mismatches: list[Mismatch] = field(default_factory=list)
    extra_keys: list[str] = field(default_factory=list)
    extra_count: int = 0

    @property
    def ok(self) -> bool:
        """True when every graded field matches (extra keys do not fail)."""
        return self.label is None

    @property
    def field_agreement(self) -> float:
        """Diagnostic share of matching graded leaves; 1.0 when nothing is graded."""
        return self.matched / self.total if self.total else 1.0


class _Acc:
    """Accumulates counts and diagnostics during the slow walk."""

    __slots__ = ("matched", "total", "labels", "mismatches", "extra", "n_extra", "first_only", "stop")

    def __init__(self, first_only: bool) -> None:
        self.matched = 0
        self.total = 0
        self.labels: set[str] = set()
        self.mismatches: list[Mismatch] = []
        self.extra: list[str] = []
        self.n_extra = 0
        self.first_only = first_only
        self.stop = False

    def fail(self, label: str, path: Cons, expected: Any, got: Any) -> None:
        """Record a failing location (only the first MAX_MISMATCHES are kept)."""
        self.labels.add(label)
        if len(self.mismatches) < MAX_MISMATCHES:
            self.mismatches.append(Mismatch(_cons_dotted(path), label, expected, got))
        self.stop = self.first_only

    def result(self) -> Comparison:
        """Freeze into a Comparison with labels in LABEL_ORDER."""
        labels = [lab for lab in LABEL_ORDER if lab in self.labels]
        return Comparison(
            labels[0] if labels else None, labels, self.matched, self.total, self.mismatches, self.extra, self.n_extra
        )


def compare(reference: Any, candidate: Any, tol: Tolerances) -> Comparison:
    """Grade `candidate` against `reference`; never raises on JSON values."""
    n = fastpath.fast_count(reference, candidate, tol)
    if n is not None:
        return Comparison(None, [], n, n, [], [])
    return _walk(reference, candidate, tol, first_only=False).result()


def equal(reference: Any, candidate: Any, tol: Tolerances) -> bool:
    """Fast predicate: True iff compare(reference, candidate, tol).ok."""
    if fastpath.fast_count(reference, candidate, tol) is not None:
        return True
    return not _walk(reference, candidate, tol, first_only=True).labels


def compare_slow(reference: Any, candidate: Any, tol: Tolerances) -> Comparison:
    """compare() without the compiled fast path (the reference semantics, for tests)."""
    return _walk(reference, candidate, tol, first_only=False).result()


def _walk(ref: Any, cand: Any, tol: Tolerances, first_only: bool) -> _Acc:
    """Iterative depth-first walk in document order (deep nesting cannot overflow the stack)."""
    acc = _Acc(first_only)
    stack: list[tuple[Any, Any, Cons, Path]] = [(ref, cand, None, ())]
    while stack and not acc.stop:
        r, c, path, ap = stack.pop()
        if c is _ABSENT:
            _unmatched(acc, "schema_failure", r, path, ap, tol, MISSING)
            continue
        if c is _EXTRA:
            _extras(acc, r[0], r[1], path, ap, tol)
            continue
        kr, kc = kind(r), kind(c)
        if kr == "dict" or kr == "list":
            if kc == kr:
                if kr == "dict":
                    _dict(r, c, path, ap, tol, acc, stack)
                else:
                    _list(r, c, path, ap, tol, acc, stack)
            else:
                label = "categorical_mismatch" if kc == "null" else "schema_failure"
                _unmatched(acc, label, r, path, ap, tol, summary(c))
        else:
            acc.total += 1
            _leaf(r, c, kr, kc, path, ap, tol, acc)
    return acc


def _unmatched(acc: _Acc, label: str, r: Any, path: Cons, ap: Path, tol: Tolerances, got: Any) -> None:
    """A whole reference subtree fails: its graded leaves all count as unmatched."""
    acc.total += count_leaves(r, ap, tol)
    acc.fail(label, path, summary(r), got)


def _dict(
    r: dict[Any, Any],
    c: dict[Any, Any],
    path: Cons,
    ap: Path,
    tol: Tolerances,
    acc: _Acc,
    stack: list[tuple[Any, Any, Cons, Path]],
) -> None:
    """Every graded reference key must be present; candidate-only keys are reported (not by equal())."""
    resolve, sub = tol.resolve, tol.child
    children = []
    for k, v in r.items():
        cap = sub(ap, k)
        if resolve(cap) is None:
            continue
        children.append((v, c[k] if k in c else _ABSENT, (path, k), cap))
    if not acc.first_only and len(c) > len(children):
        stack.append(((r, c), _EXTRA, path, ap))
    stack.extend(reversed(children))


def _extras(acc: _Acc, r: dict[Any, Any], c: dict[Any, Any], path: Cons, ap: Path, tol: Tolerances) -> None:
    """Count the candidate's graded keys the reference lacks; name only the first MAX_EXTRA_KEYS. With
    no ignore pattern every key is graded: counted from the reference's side, named until the cap."""
    resolve, sub = tol.resolve, tol.child
    if not tol.ignore:
        acc.n_extra += len(c) - sum(1 for k in r if k in c)
        names: Iterator[Any] = (k for k in c if k not in r)
    else:
        graded = [k for k in c if k not in r and resolve(sub(ap, k)) is not None]
        acc.n_extra += len(graded)
        names = iter(graded)
    for k in names:
        if len(acc.extra) >= MAX_EXTRA_KEYS:
            break
        acc.extra.append(_cons_dotted((path, k))[:MAX_NAME])


def _list(
    r: Any, c: Any, path: Cons, ap: Path, tol: Tolerances, acc: _Acc, stack: list[tuple[Any, Any, Cons, Path]]
) -> None:
    """Equal length first (else structural_mismatch), then element-wise."""
    if len(r) != len(c):
        _unmatched(acc, "structural_mismatch", r, path, ap, tol, summary(c))
        return
    if not tol.literal_index:
        eap = tol.child(ap, tol.index_segment(0))
        tl = tol.resolve(eap)
        if tl is None:
            return
        if len(r) >= NP_MIN and not (tol.periods and tol.period_at(eap)) and _float_list(r, c, path, tl, acc):
            return
        stack.extend((r[i], c[i], (path, i), eap) for i in range(len(r) - 1, -1, -1))
        return
    for i in range(len(r) - 1, -1, -1):
        eap = tol.child(ap, i)
        if tol.resolve(eap) is not None:
            stack.append((r[i], c[i], (path, i), eap))


def _float_list(r: Any, c: Any, path: Cons, tl: tuple[float, float], acc: _Acc) -> bool:
    """Vectorised long float list; False when not applicable (then walk element-wise)."""
    if type(r) is not list or type(c) is not list:
        return False
    mask = np_float_mask(r, c, tl[0], tl[1])
    if mask is None:
        return False
    n_ok = int(mask.sum())
    acc.total += len(r)
    acc.matched += n_ok
    if n_ok < len(r):
        for i in (~mask).nonzero()[0][:MAX_MISMATCHES].tolist():
            acc.fail("numeric_mismatch", (path, i), r[i], c[i])
    return True


def _leaf(r: Any, c: Any, kr: str, kc: str, path: Cons, ap: Path, tol: Tolerances, acc: _Acc) -> None:
    """Leaf rules by the reference's type; labels: null -> categorical, kind -> schema."""
    if kr == "null" or kc == "null":
        if r is None and c is None:
            acc.matched += 1
        else:
            acc.fail("categorical_mismatch", path, summary(r), summary(c))
        return
    if kr != kc:
        acc.fail("schema_failure", path, r, summary(c))
        return
    if kr == "number":
        tl = tol.resolve(ap) or (tol.atol, tol.rtol)
        period = tol.period_at(ap) if tol.periods and type(r) is float else None
        if period is not None and periodic_ok(r, c, tl[0], tl[1], period) or number_ok(r, c, tl[0], tl[1]):
            acc.matched += 1
        else:
            label = "numeric_mismatch" if isinstance(r, float) else "categorical_mismatch"
            acc.fail(label, path, r, c)
        return
    try:
        same = bool(r == c)
    except Exception:
        same = False
    if same:
        acc.matched += 1
    else:
        acc.fail("categorical_mismatch", path, r, c)


__all__ = [
    "Comparison",
    "Mismatch",
    "compare",
    "compare_slow",
    "equal",
    "dotted",
    "LABEL_ORDER",
    "MISSING",
    "MAX_EXTRA_KEYS",
]
