"""The post-freeze audit's structured trial classes (SWR §4.3): cross-field inconsistencies, unit and boundary
errors, scenario splicing, and equivalence-preserving controls. Each trial's validity is fixed by its design,
never by the task's tolerances: the audit asks whether those tolerances tell right answers from wrong ones."""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import math
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr.judge import Tolerances
from swr.judge.artifacts.fields import Reference, get_at, replaced

from .mutants import dumps
from .oracle import Where, leaves, map_leaves

MATERIAL_REL = 1e-2  # a designed-invalid change moves a value by at least 1 % of itself ...
MATERIAL_SCALE = 1e-3  # ... and by at least 0.1 % of the field's own scale over the task's examples
PAST_LIMIT = 1e-7  # "just past" a range limit: 1.0000001 for a probability
PART_SHIFT = 0.1  # a part moved by 10 % so that its total, mean or extreme no longer agrees
UNIT_FACTORS = (1e3, 1e-3, 2.54, 1 / 2.54, 0.3048, 3.6, 100.0, 0.01, 180 / math.pi, math.pi / 180, 4.184)
ORDER_PAIRS = (
    ("min", "max"),
    ("lo", "hi"),
    ("low", "high"),
    ("lower", "upper"),
    ("start", "end"),
    ("first", "last"),
    ("begin", "end"),
    ("from", "to"),
)
MAX_RELATIONS = 200  # per kind and task: enough to sample from, bounded on huge outputs


@dataclass
class Trial:
    """One held-out case: what the candidate prints (and its files), and whether it should be accepted."""

    klass: str
    valid: bool
    stdout: bytes
    files: Path | None
    field: str
    detail: str = ""
    stratum: str = "structured"  # or "geometry"


@dataclass(frozen=True)
class FieldStats:
    """A field's values over every example of the task (list indices abstracted away)."""

    lo: float
    hi: float
    scale: float  # the largest magnitude
    integral: bool  # every value an int, or a float with no fraction


def numeric(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def abstract(path: Where) -> Where:
    return tuple("*" if type(p) is int else p for p in path)


def dotted(path: Where) -> str:
    return ".".join(str(p) for p in path) or "(root)"


def encode(doc: Any) -> bytes:
    return json.dumps(doc).encode()


def field_stats(docs: list[Any], tol: Tolerances) -> dict[Where, FieldStats]:
    values: dict[Where, list[float]] = {}
    for doc in docs:
        for path, v in leaves(doc, tol):
            if numeric(v):
                values.setdefault(abstract(path), []).append(v)
    return {
        p: FieldStats(
            min(vs), max(vs), max(abs(v) for v in vs), all(type(v) is int or float(v).is_integer() for v in vs)
        )
        for p, vs in values.items()
    }


def material(old: Any, new: Any, st: FieldStats | None) -> bool:
    """Is new a different answer from old at the field's own scale (not a rounding of it)?"""
    if numeric(old) and numeric(new):
        delta = abs(new - old)
        if st is not None and st.integral:
            return delta >= 1
        scale = st.scale if st else 0.0
        return delta >= MATERIAL_REL * max(abs(old), abs(new)) and delta >= MATERIAL_SCALE * scale
    if isinstance(old, float) and isinstance(new, float) and math.isnan(old) and math.isnan(new):
        return False
    return type(old) is not type(new) or old != new


def first_material(
    ref: Any, new: Any, stats: dict[Where, FieldStats], tol: Tolerances, path: Where = ()
) -> Where | None:
    """The first graded place where new materially differs from ref (a missing key or a list of
    another length counts), or None: the trial would be no wrong answer and is not generated."""
    if tol.for_path(path) is None:
        return None
    if isinstance(ref, (dict, list)):
        if type(new) is not type(ref) or len(new) != len(ref):
            return path
        keys = ref.keys() if isinstance(ref, dict) else range(len(ref))
        for k in keys:
            if isinstance(ref, dict) and k not in new:
                return (*path, k)
            found = first_material(ref[k], new[k], stats, tol, (*path, k))
            if found is not None:
                return found
        return None
    return path if material(ref, new, stats.get(abstract(path))) else None


def _invalid(
    klass: str, ref: Reference, doc: Any, stats: dict[Where, FieldStats], tol: Tolerances, detail: str = ""
) -> Iterator[Trial]:
    """The trial, when doc is a materially wrong answer; its field is the first place that differs."""
    where = first_material(ref.output, doc, stats, tol)
    if where is not None:
        yield Trial(klass, False, encode(doc), ref.files, dotted(where), detail)


# ------------------------------------------------------------------ equivalence-preserving controls


def controls(ref: Reference) -> Iterator[Trial]:
    """The same answer written otherwise: key order, exact float spellings, 15 significant digits,
    integers as integral floats, indentation. A verifier must accept every one."""
    doc = ref.output
    for klass, text in (
        ("control_key_order", dumps(doc, reverse=True)),
        ("control_float_exponent", dumps(doc, float_fmt="%.17e")),
        ("control_15_digits", dumps(doc, float_fmt="%.15g")),
        ("control_int_as_float", dumps(doc, int_float=True)),
        ("control_indented", json.dumps(doc, indent=2) + "\n"),
    ):
        yield Trial(klass, True, text.encode(), ref.files, "(all)")


# ------------------------------------------------------------------ relations between fields


@dataclass(frozen=True)
class Relation:
    """Fields that agree in every example of the task: a count and a list's length, a total, mean or
    extreme and its parts, a min/max pair, a sorted list."""

    kind: str  # count | sum | mean | max | min | order | sorted
    a: Where  # the count / aggregate / lower member / the list
    b: Where = ()  # the list / the parts (a list, or ("*", key) over a list of records) / upper member


def _parts(doc: Any, lst: Where) -> list[float] | None:
    """The numbers a relation aggregates: a list of numbers, or one key over a list of records."""
    if lst and lst[-2:-1] == ("*",):
        rows = get_at(doc, lst[:-2])
        vals = [r.get(lst[-1]) if isinstance(r, dict) else None for r in rows] if isinstance(rows, list) else None
    else:
        vals = get_at(doc, lst)
    return vals if isinstance(vals, list) and len(vals) >= 2 and all(numeric(v) for v in vals) else None


def _nodes(doc: Any, tol: Tolerances, path: Where = ()) -> Iterator[tuple[Where, Any]]:
    if tol.for_path(path) is None:
        return
    yield path, doc
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for k, v in items:
        yield from _nodes(v, tol, (*path, k))


def _lists(doc: Any, tol: Tolerances) -> tuple[list[Where], list[Where]]:
    """(every graded list, every aggregable one: numbers, or a numeric key over records)."""
    every, agg = [], []
    for path, node in _nodes(doc, tol):
        if not isinstance(node, list):
            continue
        every.append(path)
        if _parts(doc, path) is not None:
            agg.append(path)
        if node and all(isinstance(r, dict) for r in node):
            keys = set.intersection(*(set(r) for r in node))
            agg += [(*path, "*", k) for k in sorted(keys) if _parts(doc, (*path, "*", k)) is not None]
    return every, agg


AGGREGATES: dict[str, Callable[[list[float]], float]] = {
    "sum": math.fsum,
    "mean": lambda v: math.fsum(v) / len(v),
    "max": max,
    "min": min,
}


def _close(x: float, y: float) -> bool:
    return abs(x - y) <= 1e-6 * max(abs(x), abs(y)) + 1e-12


def _candidates(doc: Any, tol: Tolerances) -> list[Relation]:
    """Relations that hold in one document (checked against the others by holds())."""
    scalars = sorted(((v, p) for p, v in leaves(doc, tol) if numeric(v)), key=lambda vp: vp[0])
    keys = [v for v, _ in scalars]
    every, agg = _lists(doc, tol)
    found: list[Relation] = []

    def near(x: float) -> list[Where]:
        i = bisect.bisect_left(keys, x - 1e-6 * abs(x) - 1e-12)
        out = []
        while i < len(keys) and keys[i] <= x + 1e-6 * abs(x) + 1e-12:
            out.append(scalars[i][1])
            i += 1
        return out

    for lst in every:
        n = len(get_at(doc, lst))
        found += [Relation("count", p, lst) for p in near(float(n)) if n and p[: len(lst)] != lst][:8]
    for lst in agg:
        vals = _parts(doc, lst) or []
        inside = lst[:-2] if lst[-2:-1] == ("*",) else lst
        for kind, fn in AGGREGATES.items():
            found += [Relation(kind, p, lst) for p in near(fn(vals)) if p[: len(inside)] != inside][:4]
    for path, node in _nodes(doc, tol):
        if isinstance(node, dict):
            found += [Relation("order", (*path, lo), (*path, hi)) for lo, hi in _order_pairs(node)]
        elif isinstance(node, list) and len(node) >= 3 and all(numeric(v) for v in node):
            found.append(Relation("sorted", path))
    return found


def _in_case_of(word: str, m: re.Match[str]) -> str:
    """`word` as the matched text is written: lower case, else Capitalised (min -> max, Min or MIN -> Max)."""
    return word if m.group(0).islower() else word.capitalize()


def _order_pairs(node: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Sibling keys named as a lower and an upper member (t_min and t_max, lower_bound and upper_bound)."""
    for key, value in node.items():
        for lo, hi in ORDER_PAIRS:
            pat = re.compile(rf"(?<![a-z]){lo}(?![a-z])", re.IGNORECASE)
            if pat.search(key):
                other = pat.sub(functools.partial(_in_case_of, hi), key, count=1)
                if other in node and numeric(value) and numeric(node[other]):
                    yield key, other


def holds(rel: Relation, doc: Any) -> bool | None:
    """Whether the relation holds in doc (None: its fields are not all there)."""
    a = get_at(doc, rel.a)
    if a is None or (rel.b and get_at(doc, rel.b[:-2] if rel.b[-2:-1] == ("*",) else rel.b) is None):
        return None
    if rel.kind == "count":
        lst = get_at(doc, rel.b)
        return numeric(a) and isinstance(lst, list) and a == len(lst)
    if rel.kind in AGGREGATES:
        vals = _parts(doc, rel.b)
        return numeric(a) and vals is not None and _close(a, AGGREGATES[rel.kind](vals))
    if rel.kind == "order":
        b = get_at(doc, rel.b)
        return numeric(a) and numeric(b) and a <= b
    if not isinstance(a, list) or not all(numeric(v) for v in a):
        return False
    steps = [y - x for x, y in itertools.pairwise(a)]
    return any(steps) and (all(s >= 0 for s in steps) or all(s <= 0 for s in steps))


def relations(docs: list[Any], tol: Tolerances) -> list[Relation]:
    """Relations of the first document that hold in every other one that has their fields (two at least)."""
    if not docs:
        return []
    kept: list[Relation] = []
    for rel in dict.fromkeys(_candidates(docs[0], tol)):
        seen = [holds(rel, d) for d in docs]
        if all(s is not False for s in seen) and sum(s is True for s in seen) >= 2:
            kept.append(rel)
    by_kind: dict[str, list[Relation]] = {}
    for r in kept:
        by_kind.setdefault(r.kind, []).append(r)
    return [r for rs in by_kind.values() for r in rs[:MAX_RELATIONS]]


# ------------------------------------------------------------------ designed-invalid trials


@dataclass
class Context:
    """What every trial of a task needs: its tolerances, its fields' ranges and its fields' relations."""

    tol: Tolerances
    stats: dict[Where, FieldStats]
    relations: list[Relation]


def context(docs: list[Any], tol: Tolerances) -> Context:
    return Context(tol, field_stats(docs, tol), relations(docs, tol))


def _part(lst: Where, j: int) -> Where:
    return (*lst[:-2], j, lst[-1]) if lst[-2:-1] == ("*",) else (*lst, j)


def _shifted(v: float, delta: float, integral: bool) -> int | float:
    """v moved by delta; a count by a whole step, its type kept."""
    if not integral:
        return float(v + delta)
    step = max(1, round(abs(delta))) * (1 if delta >= 0 else -1)
    return v + step if type(v) is int else float(v + step)


def break_relation(
    doc: Any, rel: Relation, rng: random.Random, stats: dict[Where, FieldStats]
) -> tuple[Any, str] | None:
    """(doc with the relation broken, what was done), or None when it cannot be broken here."""
    if rel.kind == "count":
        lst, count = get_at(doc, rel.b), get_at(doc, rel.a)
        if rng.random() < 0.5:
            return replaced(doc, rel.b, lst[:-1]), f"{dotted(rel.b)} lost an item, {dotted(rel.a)} did not"
        bumped = count + 1 if type(count) is int else float(count + 1)
        return replaced(doc, rel.a, bumped), f"{dotted(rel.a)} counts one more than {dotted(rel.b)} holds"
    if rel.kind in AGGREGATES:
        vals, agg = _parts(doc, rel.b) or [], get_at(doc, rel.a)
        pick = {"max": vals.index(max(vals)), "min": vals.index(min(vals))}
        j = pick.get(rel.kind, rng.randrange(len(vals)))
        sign = {"max": 1, "min": -1}.get(rel.kind, rng.choice((-1, 1)))
        delta = sign * PART_SHIFT * max(abs(vals[j]), abs(agg) / len(vals))
        part = _part(rel.b, j)
        st = stats.get(abstract(part))
        if delta == 0:
            return None
        return (
            replaced(doc, part, _shifted(vals[j], delta, bool(st and st.integral))),
            f"{dotted(part)} moved, {dotted(rel.a)} is still the {rel.kind} of the old parts",
        )
    if rel.kind == "order":
        lo, hi = get_at(doc, rel.a), get_at(doc, rel.b)
        return replaced(replaced(doc, rel.a, hi), rel.b, lo), f"{dotted(rel.a)} and {dotted(rel.b)} swapped"
    vals = get_at(doc, rel.a)
    steps = [j for j in range(len(vals) - 1) if vals[j] != vals[j + 1]]
    j = rng.choice(steps)
    return replaced(doc, rel.a, [*vals[:j], vals[j + 1], vals[j], *vals[j + 2 :]]), f"items {j} and {j + 1} swapped"


def cross_field(ref: Reference, ctx: Context, rng: random.Random, per_class: int) -> Iterator[Trial]:
    """Fields that must agree no longer do: a count and its list, a total, mean or extreme and its
    parts, a min above its max, a sorted list out of order."""
    by_kind: dict[str, list[Relation]] = {}
    for rel in ctx.relations:
        if holds(rel, ref.output):
            by_kind.setdefault(rel.kind, []).append(rel)
    for kind, rels in sorted(by_kind.items()):
        for rel in rng.sample(rels, min(per_class, len(rels))):
            broken = break_relation(ref.output, rel, rng, ctx.stats)
            if broken is not None:
                yield from _invalid(f"cross_field_{kind}", ref, broken[0], ctx.stats, ctx.tol, broken[1])


def unit_errors(ref: Reference, ctx: Context, rng: random.Random, per_class: int) -> Iterator[Trial]:
    """Every value of one field off by a unit factor (milli, inch, feet, km/h, percent, degrees, calories)."""
    fields = sorted(
        {
            abstract(p)
            for p, v in leaves(ref.output, ctx.tol)
            if isinstance(v, float) and numeric(v) and v != 0 and not ctx.stats[abstract(p)].integral
        }
    )
    for ap in rng.sample(fields, min(per_class, len(fields))):
        f = rng.choice(UNIT_FACTORS)
        doc = map_leaves(ref.output, lambda p, v, f=f, ap=ap: v * f if abstract(p) == ap and numeric(v) else v, ctx.tol)
        yield from _invalid("unit_error", ref, doc, ctx.stats, ctx.tol, f"{dotted(ap)} ×{f:.6g}")


def limits(v: float, st: FieldStats) -> tuple[float, float] | None:
    """(at the field's range limit, just past it) for one value, the range read off every example:
    a count (>= 0), a share in [0, 1], a non-negative or non-positive quantity."""
    if st.integral:
        return ((0, -1) if type(v) is int else (0.0, -1.0)) if st.lo >= 0 else None
    if 0 <= st.lo and st.hi <= 1:
        return (1.0, 1.0 + PAST_LIMIT) if v < 0.5 else (0.0, -PAST_LIMIT)
    if st.lo >= 0:
        return 0.0, -PAST_LIMIT * st.scale
    if st.hi <= 0:
        return 0.0, PAST_LIMIT * st.scale
    return None


def boundary_errors(ref: Reference, ctx: Context, rng: random.Random, per_class: int) -> Iterator[Trial]:
    """One value put at its range limit and just past it (1.0000001 for a share, -1 for a count)."""
    by_field: dict[Where, list[tuple[Where, float]]] = {}
    for p, v in leaves(ref.output, ctx.tol):
        st = ctx.stats.get(abstract(p))
        if numeric(v) and st is not None and limits(v, st) is not None:
            by_field.setdefault(abstract(p), []).append((p, v))
    for ap in rng.sample(sorted(by_field), min(per_class, len(by_field))):
        path, v = rng.choice(by_field[ap])
        at, past = limits(v, ctx.stats[ap]) or (v, v)
        yield from _invalid(
            "boundary_at_limit", ref, replaced(ref.output, path, at), ctx.stats, ctx.tol, f"{dotted(path)} = {at!r}"
        )
        yield from _invalid(
            "boundary_past_limit",
            ref,
            replaced(ref.output, path, past),
            ctx.stats,
            ctx.tol,
            f"{dotted(path)} = {past!r}",
        )


def splice(doc: Any, other: Any, tol: Tolerances, by_key: bool) -> Any:
    """The first half of doc and the second half of other: by top-level key, or leaf by leaf."""
    if by_key and isinstance(doc, dict) and isinstance(other, dict):
        keys = [k for k in doc if k in other and tol.for_path((k,)) is not None]
        tail = set(keys[len(keys) // 2 :]) if len(keys) >= 2 else set()
        return {k: other[k] if k in tail else v for k, v in doc.items()}
    paths = [p for p, _ in leaves(doc, tol)]
    out = doc
    for p in paths[len(paths) // 2 :] if len(paths) >= 2 else ():
        if (v := get_at(other, p)) is not None:
            out = replaced(out, p, v)
    return out


def splices(
    ref: Reference, others: list[tuple[str, Any]], ctx: Context, rng: random.Random, per_class: int
) -> Iterator[Trial]:
    """Part of this scenario's output with part of another's (another hidden one, or a public one)."""
    for name, other in rng.sample(others, min(per_class, len(others))):
        for by_key in (True, False):
            doc = splice(ref.output, other, ctx.tol, by_key)
            if first_material(ref.output, doc, ctx.stats, ctx.tol) is not None:
                yield from _invalid("scenario_splice", ref, doc, ctx.stats, ctx.tol, f"second half from {name}")
                break


def structured_trials(
    ref: Reference, others: list[tuple[str, Any]], ctx: Context, rng: random.Random, per_class: int
) -> Iterator[Trial]:
    """Every structured trial of one hidden scenario: the controls, then the designed-invalid classes."""
    yield from controls(ref)
    yield from cross_field(ref, ctx, rng, per_class)
    yield from unit_errors(ref, ctx, rng, per_class)
    yield from boundary_errors(ref, ctx, rng, per_class)
    yield from splices(ref, others, ctx, rng, per_class)
