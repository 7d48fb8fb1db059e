"""Mutants of a hidden reference output: wrong answers the verifier must reject and faithful
re-statements it must accept. Each mutant's validity is decided by the audit's own oracle."""
from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr.judge import Tolerances
from swr.judge.artifacts.fields import Reference, artifact_leaves
from swr.judge.artifacts.fields import replaced as set_leaf
from swr.judge.verdict import reference_view

from .oracle import leaves, limit, map_leaves, within

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
        return "{" + ", ".join(f"{json.dumps(k)}: {dumps(v, reverse=reverse, float_fmt=float_fmt, int_float=int_float)}"
                               for k, v in items) + "}"
    if isinstance(doc, list):
        return "[" + ", ".join(dumps(v, reverse=reverse, float_fmt=float_fmt, int_float=int_float) for v in doc) + "]"
    if isinstance(doc, float) and float_fmt and math.isfinite(doc):
        return float_fmt % doc
    if int_float and type(doc) is int and abs(doc) < 2 ** 53:
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
    for klass, text in (("reserialise_key_order", dumps(ref.output, reverse=True)),
                        ("reserialise_float_format", dumps(ref.output, float_fmt="%.17e")),
                        ("reserialise_int_as_float", dumps(ref.output, int_float=True))):
        yield Mutant(klass, within(ref.output, json.loads(text), tol), text.encode(), ref.files)


def other_scenarios(ref: Reference, others: list[Reference], tol: Tolerances) -> Iterator[Mutant]:
    """Another hidden scenario's reference output (and files) in place of this one's: the answer to
    another question, so invalid unless it is the very same answer — however loose the tolerance."""
    mine = reference_view(ref, tol)
    for o in others:
        yield Mutant("other_scenario_output", mine == reference_view(o, tol), _encode(o.output), o.files)
