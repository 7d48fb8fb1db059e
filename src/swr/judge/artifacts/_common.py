"""Shared pieces of the artifact comparators: the result type, checks, option validation."""

from __future__ import annotations

import math
import os
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


@dataclass(frozen=True)
class Bound:
    """How much of one unit a candidate may decode: factor x the reference's count plus slack, at
    most ceiling, and never less than the reference itself (an identical candidate must still pass)."""

    factor: int
    slack: int
    ceiling: int

    def limit(self, ref: int) -> int:
        """The most a candidate may declare, given what the reference declared."""
        return max(ref, min(self.ceiling, self.factor * ref + self.slack))


# The one place the judge's decoding budget is set. Each unit is counted from headers, metadata or a
# streamed byte scan before anything is decoded; the ceilings keep one side near a few hundred MB.
BOUNDS: dict[str, dict[str, Bound]] = {
    "image": {"pixels": Bound(4, 1 << 20, 1 << 23)},  # width x height of the first frame
    "audio": {"samples": Bound(4, 1 << 20, 1 << 24)},  # frames x channels
    "sequence": {  # FASTA/FASTQ/SAM/BAM/VCF: file, inflated gzip/BGZF bytes, records (text lines or BAM reads)
        "bytes": Bound(4, 8 << 20, 256 << 20),
        "decompressed": Bound(4, 32 << 20, 256 << 20),
        "records": Bound(4, 1 << 16, 1 << 22),
    },
    "pcap": {"bytes": Bound(4, 1 << 20, 64 << 20), "packets": Bound(4, 1 << 10, 1 << 16)},  # file; packet records
    "table": {
        "cells": Bound(4, 1 << 16, 1 << 22),  # rows x columns (CSV: separators)
        "bytes": Bound(4, 16 << 20, 256 << 20),
    },  # CSV file / Parquet decoded bytes
    # formats differ up to ~5x in values per facet (indexed GLB vs ASCII STL), hence factor 8
    "mesh": {
        "bytes": Bound(8, 8 << 20, 256 << 20),  # file size
        "values": Bound(8, 1 << 18, 1 << 23),
    },  # declared scalars, or text tokens
    "text": {"bytes": Bound(4, 1 << 20, 32 << 20), "lines": Bound(4, 1 << 16, 1 << 22)},
    "html": {"bytes": Bound(4, 1 << 20, 32 << 20)},  # parsed events <= bytes
    # HDF5/NetCDF/FITS: nodes are groups, variables, HDUs and attributes; decoded is declared shape x 8 bytes
    "scidata": {
        "bytes": Bound(4, 16 << 20, 256 << 20),
        "nodes": Bound(4, 1 << 10, 1 << 17),
        "decoded": Bound(4, 16 << 20, 256 << 20),
        "depth": Bound(2, 16, 64),
    },
    # YAML/TOML/INI/XML: nodes as expanded (YAML aliases counted each time they are used), nesting depth
    "config": {"bytes": Bound(4, 1 << 20, 32 << 20), "nodes": Bound(4, 1 << 14, 1 << 22), "depth": Bound(2, 32, 512)},
    "code": {"bytes": Bound(16, 1 << 20, 64 << 20)},  # the source file, then the run record the probe printed
}


class TooLarge(Exception):
    """A candidate declares more than its bound: a mismatch decided without decoding it."""

    def __init__(self, kind: str, unit: str, got: int, ref: int, bound: Bound) -> None:
        self.kind, self.unit, self.got, self.ref, self.bound = kind, unit, got, ref, bound
        super().__init__(
            f"candidate {kind} declares {got} {unit}, beyond the bound of {bound.limit(ref)} "
            f"({bound.factor}x the reference's {ref} + {bound.slack}, at most {bound.ceiling}); "
            "not decoded"
        )

    def result(self) -> ArtifactResult:
        """The mismatch the verdict reports, with the bound as a check."""
        bound = check(
            False,
            self.bound.limit(self.ref),
            self.got,
            None,
            unit=self.unit,
            reference=self.ref,
            factor=self.bound.factor,
            slack=self.bound.slack,
            ceiling=self.bound.ceiling,
        )
        return ArtifactResult(False, self.kind, {"bound": bound}, str(self))


class Budget:
    """Sizes a loader declares before decoding: recorded for the reference, and for the
    candidate checked against the reference's, raising TooLarge beyond the bound."""

    def __init__(self, kind: str, reference: Budget | None = None) -> None:
        self.kind, self.reference = kind, reference
        self.seen: dict[str, int] = {}

    def admit(self, unit: str, count: int) -> None:
        """Call with a count before decoding what it counts; counts of a unit may grow."""
        count = int(count)
        self.seen[unit] = max(count, self.seen.get(unit, 0))
        if self.reference is None:
            return
        bound = BOUNDS[self.kind][unit]
        ref = self.reference.seen.get(unit, 0)
        if count > bound.limit(ref):
            raise TooLarge(self.kind, unit, count, ref, bound)


def file_size(path: Any, budget: Budget) -> int:
    """The file's size in bytes, admitted to the budget before it is read."""
    size = os.stat(path).st_size
    budget.admit("bytes", size)
    return size


def count_tokens(path: Any, chunk: int = 1 << 20) -> int:
    """Whitespace-separated tokens of the file, streamed in blocks: what a text parser splits into."""
    space = np.zeros(256, dtype=bool)
    space[list(b" \t\n\r\v\f")] = True
    total, after_space = 0, True
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            s = space[np.frombuffer(block, dtype=np.uint8)]
            before = np.concatenate(([after_space], s[:-1]))
            total += int(np.count_nonzero(~s & before))
            after_space = bool(s[-1])
    return total


def count_bytes(path: Any, needles: bytes, chunk: int = 1 << 20) -> int:
    """How many bytes of the file are any of `needles`, streamed in blocks (bounded memory)."""
    table = np.zeros(256, dtype=bool)
    table[list(needles)] = True
    total = 0
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            total += int(np.count_nonzero(table[np.frombuffer(block, dtype=np.uint8)]))
    return total


def load_failure(kind: str, what: str, exc: BaseException) -> ArtifactResult:
    """A candidate that cannot be read fails with the reason, never an exception."""
    msg = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
    return ArtifactResult(
        ok=False,
        kind=kind,
        checks={},
        detail=f"cannot read candidate {what}: {type(exc).__name__}: {msg}".rstrip(": "),
    )


def load_pair(
    kind: str, reference: Any, load_ref: Callable[[Budget], T], load_cand: Callable[[Budget], T]
) -> tuple[T, T] | ArtifactResult:
    """Load both sides: an unreadable reference is the task's fault (raise), a candidate's a failure.
    The reference's declared sizes bound the candidate's, so a bomb is refused before it is decoded."""
    ref_budget = Budget(kind)
    try:
        ref = load_ref(ref_budget)
    except Exception as exc:
        raise ArtifactConfigError(f"cannot read reference {kind} {reference}: {exc}") from exc
    try:
        return ref, load_cand(Budget(kind, ref_budget))
    except TooLarge as exc:
        return exc.result()
    except Exception as exc:  # noqa: BLE001 - candidate bytes must never crash the judge
        return load_failure(kind, kind, exc)


def tol_value(name: str, value: Any) -> float:
    """The judge's tolerance check, failing as the task's configuration error."""
    try:
        return check_tol(name, value)
    except (TypeError, ValueError) as e:
        raise ArtifactConfigError(str(e)) from None


def options_for(kind: str, options: Mapping[str, Any] | None, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with `options`; an unknown key is a typo in the task, so it raises."""
    merged = dict(defaults)
    for key, value in (options or {}).items():
        if key not in defaults:
            raise ArtifactConfigError(f"unknown {kind} option {key!r}; known: {sorted(defaults)}")
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
