"""Mutants of a hidden reference output: wrong answers the verifier must reject and faithful
re-statements it must accept. Each mutant's validity is decided by the audit's own oracle."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from swr.judge import Tolerances
from swr.judge.artifacts.fields import Reference, artifact_leaves, get_at
from swr.judge.artifacts.fields import replaced as set_leaf
from swr.judge.decision import reference_view
from swr.kinds.workflow.scenario import SIG_DIGITS

from .oracle import Where, leaves, limit, map_leaves, within

INVALID_SCALES = (1.01, 1.1, 2.0, 10.0)
VALID_SCALES = (0.5, 0.9, 0.99)


@dataclass
class Mutant:
    klass: str
    valid: bool  # should the verifier accept it?
    stdout: bytes
    files: Path | None  # where the mutant's artifact files are
    note: str = ""


def dumps(doc: Any, *, reverse: bool = False, float_fmt: str | None = None, int_float: bool = False) -> str:
    """JSON with another key order, float spelling or integers written as integral floats."""
    if isinstance(doc, dict):
        items = list(doc.items())[::-1] if reverse else doc.items()
        return (
            "{"
            + ", ".join(
                f"{json.dumps(k)}: {dumps(v, reverse=reverse, float_fmt=float_fmt, int_float=int_float)}"
                for k, v in items
            )
            + "}"
        )
    if isinstance(doc, list):
        return "[" + ", ".join(dumps(v, reverse=reverse, float_fmt=float_fmt, int_float=int_float) for v in doc) + "]"
    if isinstance(doc, float) and float_fmt and math.isfinite(doc):
        return float_fmt % doc
    if int_float and type(doc) is int and abs(doc) < 2**53:
        return f"{float(doc)!r}"
    return json.dumps(doc)


def _encode(doc: Any) -> bytes:
    return json.dumps(doc).encode()


def float_leaves(doc: Any, tol: Tolerances) -> list[tuple[tuple, float]]:
    return [(p, v) for p, v in leaves(doc, tol) if type(v) is float and math.isfinite(v)]


def perturbations(ref: Reference, tol: Tolerances, rng: random.Random, per_class: int) -> Iterator[Mutant]:
    """One float leaf moved by k × its tolerance band; valid iff the audit's oracle says it is inside."""
    floats = [(p, v) for p, v in float_leaves(ref.output, tol) if limit(v, tol, p) > 0]  # k × 0 moves nothing
    for k in (*VALID_SCALES, *INVALID_SCALES):
        for path, r in rng.sample(floats, min(per_class, len(floats))):
            new = r + rng.choice((-1.0, 1.0)) * k * limit(r, tol, path)
            if not math.isfinite(new):
                continue
            doc = set_leaf(ref.output, path, new)
            yield Mutant(f"perturb_{k:g}x_tolerance", within(ref.output, doc, tol), _encode(doc), ref.files)


def _changed(value: Any, band: float) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + (10 * band if band > 0 else max(abs(value) * 1e-6, 1e-9))
    if isinstance(value, str):
        return value + "~"
    return 0 if value is None else value


def structural(ref: Reference, tol: Tolerances) -> Iterator[Mutant]:
    """The deepest graded leaf changed (containers kept), and every float shifted the same way."""
    arts = {p for p, _ in artifact_leaves(ref, tol)}
    graded = [(p, v) for p, v in leaves(ref.output, tol) if p not in arts]
    if graded:
        path, value = max(graded, key=lambda pv: len(pv[0]))
        band = limit(value, tol, path) if type(value) is float else 0.0
        doc = set_leaf(ref.output, path, _changed(value, band))
        yield Mutant("deepest_leaf_changed", within(ref.output, doc, tol), _encode(doc), ref.files)
    if float_leaves(ref.output, tol):

        def shift(path: tuple, v: Any) -> Any:
            return v + 10 * limit(v, tol, path) if type(v) is float and math.isfinite(v) else v

        doc = map_leaves(ref.output, shift, tol)
        yield Mutant("coherent_shift_10x_tolerance", within(ref.output, doc, tol), _encode(doc), ref.files)


def reserialised(ref: Reference, tol: Tolerances) -> Iterator[Mutant]:
    """The same values written differently: must always be accepted."""
    for klass, text in (
        ("reserialise_key_order", dumps(ref.output, reverse=True)),
        ("reserialise_float_format", dumps(ref.output, float_fmt="%.17e")),
        ("reserialise_int_as_float", dumps(ref.output, int_float=True)),
    ):
        yield Mutant(klass, within(ref.output, json.loads(text), tol), text.encode(), ref.files)


def other_scenarios(ref: Reference, others: list[Reference], tol: Tolerances) -> Iterator[Mutant]:
    """Another hidden scenario's reference output (and files) in place of this one's: the answer to
    another question, so invalid unless it is the very same answer — however loose the tolerance."""
    mine = reference_view(ref, tol)
    for o in others:
        yield Mutant("other_scenario_output", mine == reference_view(o, tol), _encode(o.output), o.files)


# ------------------------------------------------------------------ values at the field's own scale

SCALE_FLOOR = 1e-9  # a field's values below this share of its own largest value are noise, not answers
SCALE_EDITS = (
    ("scale_zero", lambda v: 0.0),
    ("scale_negated", lambda v: -v),
    ("scale_unit_slip_1e3", lambda v: v * 1e3),
)
PRECISION_MOVE = 0.45  # share of the reference's last printed unit a precision mutant moves a value
ROUNDED_SHARE = 0.6  # share of a rounded field's values spelled with its most digits (rounding leaves ~90%)


def field_of(path: tuple) -> tuple:
    """A leaf's field: its path with list indices abstracted (every redshift's `d_L` is one field)."""
    return tuple("*" if type(p) is int else p for p in path)


@dataclass
class FieldStats:
    """What every reference of a task (public and hidden) says about each float field."""

    scale: dict[tuple, float]  # largest |value|
    printed: dict[tuple, tuple[int, int]]  # (most significant digits, most decimals) of a rounded field
    echoes: set[float]  # input values, which the output may repeat exactly

    @classmethod
    def of(cls, outputs: list[Any], scenarios: list[dict[str, Any]], tol: Tolerances) -> FieldStats:
        values: dict[tuple, list[float]] = {}
        at: dict[tuple, set[float]] = {}
        for doc in outputs:
            for p, v in float_leaves(doc, tol):
                values.setdefault(field_of(p), []).append(v)
                at.setdefault(p, set()).add(v)
        fixed = set(values) - {field_of(p) for p, vs in at.items() if len(vs) > 1}  # a grid, the same everywhere
        scale = {k: max(abs(v) for v in vs) for k, vs in values.items()}
        printed = {k: d for k, vs in values.items() if k not in fixed and (d := _rounded(vs)) is not None}
        echoes = {
            float(v) for s in scenarios for v in s.values() if isinstance(v, (int, float)) and not isinstance(v, bool)
        }
        return cls(scale, printed, echoes)


def _digits(v: float) -> tuple[int, int, int]:
    """(significant digits, decimals, last digit) of the shortest spelling of v."""
    t = Decimal(repr(abs(v))).normalize().as_tuple()
    return len(t.digits), max(0, -int(t.exponent)), t.digits[-1]


def at_cap(v: float, printed: tuple[int, int]) -> bool:
    """Is v spelled with as many digits as its field ever is (a short 0.5 in a rounded field may be exact)?"""
    sig, dec, _ = _digits(v)
    return sig == printed[0] or (printed[1] >= 1 and dec == printed[1])


def _rounded(vs: list[float]) -> tuple[int, int] | None:
    """(digits, decimals) when a field's values were evidently printed at limited precision: at least three
    distinct non-integral values (integral ones may be counts), most of them spelled with the field's most
    digits, their last digits varied (a grid of halves is exact), and fewer significant digits than scenario
    inputs carry (sums and products of 6-digit inputs are short and exact)."""
    distinct = {v for v in vs if not v.is_integer()}
    if len(distinct) < 3:
        return None
    ds = [_digits(v) for v in distinct]
    printed = (max(d[0] for d in ds), max(d[1] for d in ds))
    capped = [v for v in distinct if at_cap(v, printed)]
    if (
        printed[0] >= SIG_DIGITS
        or len(capped) < ROUNDED_SHARE * len(distinct)
        or len({_digits(v)[2] for v in capped}) < 3
    ):
        return None
    return printed


class ScaledTolerances:
    """The task's tolerances with each field's absolute floor capped at SCALE_FLOOR × the field's own scale:
    the audit's notion of a wrong value, so an atol above a field's every value cannot make zero right."""

    def __init__(self, tol: Tolerances, stats: FieldStats) -> None:
        self.tol, self.stats = tol, stats

    def for_path(self, path: Where) -> tuple[float, float] | None:
        res = self.tol.for_path(path)
        scale = self.stats.scale.get(field_of(path))
        if self.tol.is_zero(path):  # zero by construction: its values are noise, not a scale
            return res
        return res if res is None or scale is None else (min(res[0], SCALE_FLOOR * scale), res[1])

    def period_for(self, path: Where) -> float | None:
        """The task's period of the field (an angle's wrap is no wrong answer)."""
        return self.tol.period_for(path)


def _exposed(ref: Reference, tol: Tolerances, stats: FieldStats, per_class: int) -> list[tuple[tuple, float]]:
    """Per field, the float leaf (above the field's noise) whose tolerance band is widest next to its value;
    the per_class most exposed fields first (where an atol above the field's values hides a wrong answer)."""
    best: dict[tuple, tuple[float, tuple, float]] = {}
    for p, v in float_leaves(ref.output, tol):
        if abs(v) > SCALE_FLOOR * stats.scale.get(field_of(p), 0.0) and not tol.is_zero(p):
            share = limit(v, tol, p) / abs(v)
            if field_of(p) not in best or share > best[field_of(p)][0]:
                best[field_of(p)] = (share, p, v)
    ranked = sorted(best.values(), key=lambda b: (-b[0], str(b[1])))
    return [(p, v) for _, p, v in ranked[:per_class]]


def _setter(key: tuple, const: float) -> Any:
    """A map_leaves function giving every float leaf of one field the same value."""
    return lambda p, x: const if field_of(p) == key and type(x) is float else x


def at_field_scale(
    ref: Reference, others: list[Reference], tol: Tolerances, stats: FieldStats, per_class: int
) -> Iterator[Mutant]:
    """Zero, the negative, a ×1e3 unit slip, and one value for the whole field taken from another
    scenario: wrong answers unless the field itself is that small (judged against its own scale)."""
    scaled = ScaledTolerances(tol, stats)
    for path, v in _exposed(ref, tol, stats, per_class):
        for klass, edit in SCALE_EDITS:
            doc = set_leaf(ref.output, path, edit(v))
            yield Mutant(klass, within(ref.output, doc, scaled), _encode(doc), ref.files, ".".join(map(str, path)))
        const = next((c for o in others if type(c := get_at(o.output, path)) is float and c != v), None)
        if const is not None:
            key = field_of(path)
            doc = map_leaves(ref.output, _setter(key, const), tol)
            yield Mutant(
                "scale_constant_across_scenarios",
                within(ref.output, doc, scaled),
                _encode(doc),
                ref.files,
                ".".join(map(str, key)),
            )


def precision_limited(ref: Reference, tol: Tolerances, stats: FieldStats, rng: random.Random) -> Iterator[Mutant]:
    """Every value of a field printed at limited precision moved by PRECISION_MOVE of its last printed unit:
    an answer the reference cannot tell from its own, so a tolerance that rejects it is tighter than the
    reference's precision. Valid by construction; inputs echoed and values shorter than their field's spelling
    are left alone (they may be exact)."""
    moved = False

    def nudge(path: tuple, v: Any) -> Any:
        nonlocal moved
        d = stats.printed.get(field_of(path))
        if (
            d is None
            or type(v) is not float
            or not math.isfinite(v)
            or v.is_integer()
            or v in stats.echoes
            or not at_cap(v, d)
        ):
            return v
        unit = min(10.0 ** -d[1], 10.0 ** (math.floor(math.log10(abs(v))) - d[0] + 1))
        moved = True
        return v + rng.choice((-1.0, 1.0)) * PRECISION_MOVE * unit

    doc = map_leaves(ref.output, nudge, tol)
    if moved:
        yield Mutant("precision_limited_reference", True, _encode(doc), ref.files)
