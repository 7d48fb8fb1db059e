"""Per-field tolerances: dotted path patterns resolved to (atol, rtol) or "ignored", plus two declarations
a band alone cannot express: a field's `period` (an angle: 359.9 and 0.05 degrees are 0.15 apart) and a field
that is `zero` by construction (its reference values are rounding noise; the gates check they are, and spare it
the tolerance-scale rule)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Path = tuple[str | int, ...]
Resolved = tuple[float, float] | None

# Abstract list-index segment: only the pattern wildcard matches it (no literal can equal "*").
ANY_INDEX = "*"
_DIGITS = re.compile(r"[0-9]+")
_MAX_MEMO = 200_000


class Memo:
    """Mutable per-instance memo (path resolutions, compiled fast predicates): `compiled` and `last` belong to
    swr.judge.fastpath, which keeps its predicates here so they live and die with the Tolerances they were
    compiled for."""

    __slots__ = ("paths", "periods", "compiled", "last", "literal_index", "depth")

    def __init__(self) -> None:
        self.paths: dict[Path, Resolved] = {}
        self.periods: dict[Path, float | None] = {}
        self.compiled: dict[Any, Any] = {}
        self.last: Any = None
        self.literal_index = False
        self.depth = 0  # longest pattern: deeper path segments never change a resolution


def _split(pattern: str) -> tuple[str, ...]:
    """A pattern "samples.*.x" becomes its segments; `*` is a one-segment wildcard."""
    return tuple(pattern.split("."))


def _prefix_match(pat: tuple[str, ...], path: Path) -> bool:
    """True when `pat` matches the first len(pat) segments of `path` (patterns cover subtrees)."""
    if len(pat) > len(path):
        return False
    for seg, p in zip(pat, path):
        if seg != "*" and seg != (p if type(p) is str else str(p)):
            return False
    return True


def artifact_options(by_pattern: Mapping[str, Mapping[str, Any]]) -> tuple[tuple[str, str], ...]:
    """Options as hashable (pattern, canonical JSON) pairs, sorted so equal specs compare equal."""
    return tuple(sorted((p, json.dumps(dict(o), sort_keys=True)) for p, o in by_pattern.items()))


def check_tol(name: str, value: Any) -> float:
    """Tolerances are finite and non-negative: anything else would make grading meaningless."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{name} must be finite and >= 0, got {number!r}")
    return number


def check_period(value: Any) -> float:
    """A period is a finite positive number (360 for degrees, 24 for hours, 2*pi for radians)."""
    number = check_tol("period", value)
    if number <= 0:
        raise ValueError(f"period must be > 0, got {number!r}")
    return number


def zero_rtol(rtol: float | None, zero: Any) -> float | None:
    """A field zero by construction is graded absolutely: rtol times a reference that is rounding noise would
    make the band depend on the noise, so it is 0 unless declared."""
    return 0.0 if zero and rtol is None else rtol


@dataclass(frozen=True)
class Tolerances:
    """Default float tolerance plus ignore patterns and per-pattern (atol, rtol) overrides."""

    atol: float = 1e-6
    rtol: float = 1e-4
    ignore: tuple[str, ...] = ()
    fields: tuple[tuple[str, float | None, float | None], ...] = ()
    # per-pattern comparator options of artifact fields, as (pattern, canonical JSON)
    artifacts: tuple[tuple[str, str], ...] = ()
    # per-pattern period of float fields (angles): differences are taken modulo it
    periods: tuple[tuple[str, float], ...] = ()
    # patterns of float fields that are zero by construction (graded with rtol 0; swr.kinds.workflow.gates checks them)
    zeros: tuple[str, ...] = ()
    _cache: Memo = field(default_factory=Memo, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "atol", check_tol("atol", self.atol))
        set_(self, "rtol", check_tol("rtol", self.rtol))
        set_(self, "ignore", tuple(str(p) for p in self.ignore))
        norm = []
        for pat, a, r in self.fields:
            norm.append(
                (
                    str(pat),
                    None if a is None else check_tol("atol", a),
                    None if r is None else check_tol("rtol", r),
                )
            )
        set_(self, "fields", tuple(norm))
        set_(self, "periods", tuple((str(p), check_period(v)) for p, v in self.periods))
        set_(self, "zeros", tuple(str(p) for p in self.zeros))
        pats = (*self.ignore, *(f[0] for f in norm), *(p for p, _ in self.periods))
        segs = [s for p in pats for s in _split(p)]
        self._cache.literal_index = any(_DIGITS.fullmatch(s) for s in segs)
        self._cache.depth = max((len(_split(p)) for p in pats), default=0)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle/copy without the memo (compiled predicates are not picklable)."""
        return (type(self), (self.atol, self.rtol, self.ignore, self.fields, self.artifacts, self.periods, self.zeros))

    @classmethod
    def from_spec(cls, outputs: Mapping[str, Any] | None) -> Tolerances:
        """Build from a workflow.toml `[outputs]` table (atol, rtol, ignore, fields.<pattern>)."""
        outputs = outputs or {}
        specs = (outputs.get("fields") or {}).items()
        fields = tuple((pat, spec.get("atol"), zero_rtol(spec.get("rtol"), spec.get("zero"))) for pat, spec in specs)
        return cls(
            atol=outputs.get("atol", 1e-6),
            rtol=outputs.get("rtol", 1e-4),
            ignore=tuple(outputs.get("ignore") or ()),
            fields=fields,
            artifacts=artifact_options({p: s["artifact"] for p, s in specs if s.get("artifact")}),
            periods=tuple((p, s["period"]) for p, s in specs if s.get("period") is not None),
            zeros=tuple(p for p, s in specs if s.get("zero")),
        )

    def options_for(self, path: Path) -> dict[str, Any]:
        """Comparator options of the artifact at `path`: the most specific matching pattern's."""
        ap = self.abstract(tuple(path))
        best: tuple[int, str] | None = None
        for pat, opts in self.artifacts:
            segs = _split(pat)
            if _prefix_match(segs, ap) and (best is None or len(segs) >= best[0]):
                best = (len(segs), opts)
        return json.loads(best[1]) if best else {}

    def for_path(self, path: Path) -> Resolved:
        """(atol, rtol) for a concrete path, or None when the path is ignored."""
        return self.resolve(self.abstract(tuple(path)[: self._cache.depth]))

    def period_for(self, path: Path) -> float | None:
        """The period of the float field at a concrete path (None: not periodic)."""
        return self.period_at(self.abstract(tuple(path)[: self._cache.depth])) if self.periods else None

    def is_zero(self, path: Path) -> bool:
        """True when the field at a concrete path is declared zero by construction."""
        ap = tuple(ANY_INDEX if type(p) is int else p for p in path)
        return any(_prefix_match(_split(pat), ap) or _prefix_match(_split(pat), tuple(path)) for pat in self.zeros)

    # -- the abstract-path API of the judge's walkers (compare, shape, fastpath) ---------------------
    # A walker turns a concrete path into an abstract one once (`abstract`), extends it per child (`child`,
    # `index_segment`) and resolves it (`resolve`, `period_at`): memoised, as paths repeat across scenarios.

    @property
    def literal_index(self) -> bool:
        """True when some pattern names a list index literally (then list elements resolve one by one)."""
        return self._cache.literal_index

    @property
    def memo(self) -> Memo:
        """This instance's memo (the fast path stores its compiled predicates in it)."""
        return self._cache

    def period_at(self, apath: Path) -> float | None:
        """Memoised period of an abstract path: the most specific matching pattern's (ties: last declared)."""
        memo = self._cache.periods
        if apath in memo:
            return memo[apath]
        if len(memo) > _MAX_MEMO:
            memo.clear()
        best: tuple[Any, float] | None = None
        for i, (pat, period) in enumerate(self.periods):
            segs = _split(pat)
            if _prefix_match(segs, apath):
                key = (len(segs), tuple(s != "*" for s in segs), i)
                if best is None or key > best[0]:
                    best = (key, period)
        memo[apath] = res = None if best is None else best[1]
        return res

    def abstract(self, path: Path) -> Path:
        """Replace list indices by ANY_INDEX unless some pattern names an index literally."""
        if self._cache.literal_index:
            return tuple(path)
        return tuple(ANY_INDEX if type(p) is int else p for p in path)

    def child(self, ap: Path, seg: str | int) -> Path:
        """Child abstract path, truncated at the longest pattern (keeps memo keys short)."""
        return ap + (seg,) if len(ap) < self._cache.depth else ap

    def index_segment(self, i: int) -> str | int:
        """The path segment used for list element `i` in abstract paths."""
        return i if self._cache.literal_index else ANY_INDEX

    def resolve(self, apath: Path) -> Resolved:
        """Memoised resolution of an (abstract) path; paths repeat a lot across scenarios."""
        memo = self._cache.paths
        try:
            return memo[apath]
        except KeyError:
            pass
        if len(memo) > _MAX_MEMO:
            memo.clear()
        res = memo[apath] = self._resolve_uncached(apath)
        return res

    def _resolve_uncached(self, apath: Path) -> Resolved:
        """Ignore wins; otherwise the most specific matching override (ties: last declared)."""
        for pat in self.ignore:
            if _prefix_match(_split(pat), apath):
                return None
        best: tuple[Any, ...] | None = None
        for i, (pat, a, r) in enumerate(self.fields):
            segs = _split(pat)
            if _prefix_match(segs, apath):
                key = (len(segs), tuple(s != "*" for s in segs), i)
                if best is None or key > best[0]:
                    best = (key, a, r)
        if best is None:
            return (self.atol, self.rtol)
        _, a, r = best
        return (self.atol if a is None else a, self.rtol if r is None else r)
