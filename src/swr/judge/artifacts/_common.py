"""Shared pieces of the artifact comparators: the result type, checks, option validation."""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from ..tolerance import check_tol

T = TypeVar("T")


class ArtifactConfigError(ValueError):
    """A bad reference or bad options: the judge's own fault, never the candidate's."""


@dataclass
class ArtifactResult:
    """Outcome of one artifact comparison; `checks` is JSON-safe (no NaN, no numpy types)."""

    ok: bool
    kind: str
    checks: dict[str, Any] = field(default_factory=dict)
    detail: str | None = None


def jsonable(value: Any) -> Any:
    """Plain JSON values: numpy scalars/arrays unwrapped, non-finite floats spelled as strings."""
    if isinstance(value, np.ndarray):
        return [jsonable(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)  # 'nan', 'inf', '-inf'
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return repr(value)


def check(ok: bool, expected: Any, got: Any, tol: Any = None, **extra: Any) -> dict[str, Any]:
    """One named check in the shape the verdict reports: ok, expected, got, tol (+ extras)."""
    out = {"ok": bool(ok), "expected": jsonable(expected), "got": jsonable(got), "tol": jsonable(tol)}
    out.update({k: jsonable(v) for k, v in extra.items()})
    return out


def close(ref: float, got: float, tol: float) -> bool:
    """|got − ref| ≤ tol with NaN only equal to NaN and ±inf only to itself."""
    if math.isnan(ref) or math.isnan(got):
        return math.isnan(ref) and math.isnan(got)
    if math.isinf(ref) or math.isinf(got):
        return ref == got
    return abs(got - ref) <= tol


def finish(kind: str, checks: dict[str, dict[str, Any]]) -> ArtifactResult:
    """ok when every check is; detail names the first failing check in words."""
    failing = [name for name, c in checks.items() if not c["ok"]]
    detail = None
    if failing:
        c = checks[failing[0]]
        detail = f"{kind} {failing[0]} mismatch"
        if c.get("where") is not None:
            detail += f" at {c['where']}"
        detail += f": expected {c['expected']!r}, got {c['got']!r}"
        if c.get("tol") is not None:
            detail += f" (tol {c['tol']!r})"
    return ArtifactResult(ok=not failing, kind=kind, checks=checks, detail=detail)


def load_failure(kind: str, what: str, exc: BaseException) -> ArtifactResult:
    """A candidate that cannot be read fails with the reason, never an exception."""
    msg = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
    return ArtifactResult(
        ok=False, kind=kind, checks={},
        detail=f"cannot read candidate {what}: {type(exc).__name__}: {msg}".rstrip(": "),
    )


def load_pair(kind: str, reference: Any, load_ref: Callable[[], T],
              load_cand: Callable[[], T]) -> tuple[T, T] | ArtifactResult:
    """Load both sides: an unreadable reference is the task's fault (raise), a candidate's a failure."""
    try:
        ref = load_ref()
    except Exception as exc:
        raise ArtifactConfigError(f"cannot read reference {kind} {reference}: {exc}") from exc
    try:
        return ref, load_cand()
    except Exception as exc:  # noqa: BLE001 - candidate bytes must never crash the judge
        return load_failure(kind, kind, exc)


def tol_value(name: str, value: Any) -> float:
    """The judge's tolerance check, failing as the task's configuration error."""
    try:
        return check_tol(name, value)
    except (TypeError, ValueError) as e:
        raise ArtifactConfigError(str(e)) from None


def options_for(kind: str, options: Mapping[str, Any] | None,
                defaults: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with `options`; an unknown key is a typo in the task, so it raises."""
    merged = dict(defaults)
    for key, value in (options or {}).items():
        if key not in defaults:
            raise ArtifactConfigError(
                f"unknown {kind} option {key!r}; known: {sorted(defaults)}")
        merged[key] = value
    return merged


def count_option(name: str, value: Any, lo: int, hi: int) -> int:
    """An integer option inside [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ArtifactConfigError(f"{name} must be an int in [{lo}, {hi}], got {value!r}")
    return value


def read_suffix(candidate: Any, reference: Any, suffixes: tuple[str, ...]) -> str:
    """Format of the candidate: its own suffix when it is one of this kind's, else the
    reference's (a candidate may legitimately re-serialise, e.g. write OBJ for an STL)."""
    own = str(candidate.suffix).lower()
    return own if own in suffixes else str(reference.suffix).lower()
