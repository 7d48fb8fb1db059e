"""Per-field tolerances: dotted path patterns resolved to (atol, rtol) or "ignored"."""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

Path = tuple[str | int, ...]
Resolved = tuple[float, float] | None

# Abstract list-index segment: only the pattern wildcard matches it (no literal can equal "*").
ANY_INDEX = "*"
_DIGITS = re.compile(r"[0-9]+")
_MAX_MEMO = 200_000


class _Cache:
    """Mutable per-instance memo (path resolutions, compiled fast predicates)."""

    __slots__ = ("paths", "compiled", "last", "literal_index", "depth")

    def __init__(self) -> None:
        self.paths: dict[Path, Resolved] = {}
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
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be finite and >= 0, got {value!r}")
    return value


@dataclass(frozen=True)
class Tolerances:
    """Default float tolerance plus ignore patterns and per-pattern (atol, rtol) overrides."""

    atol: float = 1e-6
    rtol: float = 1e-4
    ignore: tuple[str, ...] = ()
    fields: tuple[tuple[str, float | None, float | None], ...] = ()
    # per-pattern comparator options of artifact fields, as (pattern, canonical JSON)
    artifacts: tuple[tuple[str, str], ...] = ()
    _cache: _Cache = field(
        default_factory=_Cache, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "atol", check_tol("atol", self.atol))
        set_(self, "rtol", check_tol("rtol", self.rtol))
        set_(self, "ignore", tuple(str(p) for p in self.ignore))
        norm = []
        for pat, a, r in self.fields:
            norm.append((
                str(pat),
                None if a is None else check_tol("atol", a),
                None if r is None else check_tol("rtol", r),
            ))
        set_(self, "fields", tuple(norm))
        segs = [s for p in (*self.ignore, *(f[0] for f in norm)) for s in _split(p)]
        self._cache.literal_index = any(_DIGITS.fullmatch(s) for s in segs)
        pats = (*self.ignore, *(f[0] for f in norm))
        self._cache.depth = max((len(_split(p)) for p in pats), default=0)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle/copy without the memo (compiled predicates are not picklable)."""
        return (type(self), (self.atol, self.rtol, self.ignore, self.fields, self.artifacts))

    @classmethod
    def from_spec(cls, outputs: Mapping[str, Any] | None) -> "Tolerances":
        """Build from a workflow.toml `[outputs]` table (atol, rtol, ignore, fields.<pattern>)."""
        outputs = outputs or {}
        specs = (outputs.get("fields") or {}).items()
        fields = tuple((pat, spec.get("atol"), spec.get("rtol")) for pat, spec in specs)
        return cls(
            atol=outputs.get("atol", 1e-6),
            rtol=outputs.get("rtol", 1e-4),
            ignore=tuple(outputs.get("ignore") or ()),
            fields=fields,
            artifacts=artifact_options({p: s["artifact"] for p, s in specs if s.get("artifact")}),
        )

    def options_for(self, path: Path) -> dict[str, Any]:
        """Comparator options of the artifact at `path`: the most specific matching pattern's."""
        ap = self._abstract(tuple(path))
        best: tuple[int, str] | None = None
        for pat, opts in self.artifacts:
            segs = _split(pat)
            if _prefix_match(segs, ap) and (best is None or len(segs) >= best[0]):
                best = (len(segs), opts)
        return json.loads(best[1]) if best else {}

    def for_path(self, path: Path) -> Resolved:
        """(atol, rtol) for a concrete path, or None when the path is ignored."""
        return self._resolve(self._abstract(tuple(path)[: self._cache.depth]))

    # -- internals shared with compare/fastpath -------------------------------------------

    def _abstract(self, path: Path) -> Path:
        """Replace list indices by ANY_INDEX unless some pattern names an index literally."""
        if self._cache.literal_index:
            return tuple(path)
        return tuple(ANY_INDEX if type(p) is int else p for p in path)

    def _sub(self, ap: Path, seg: str | int) -> Path:
        """Child abstract path, truncated at the longest pattern (keeps memo keys short)."""
        return ap + (seg,) if len(ap) < self._cache.depth else ap

    def _index(self, i: int) -> str | int:
        """The path segment used for list element `i` in abstract paths."""
        return i if self._cache.literal_index else ANY_INDEX

    def _resolve(self, apath: Path) -> Resolved:
        """Memoised resolution of an (abstract) path; paths repeat a lot across scenarios."""
        memo = self._cache.paths
        hit = memo.get(apath, False)
        if hit is not False:
            return hit
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
