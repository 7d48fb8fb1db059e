"""Measured outputs: run the reference on sampled scenarios several ways (as the build runs it, in a fresh process,
under other hash seeds and BLAS/OpenMP thread counts), infer the output schema, and propose each field's tolerance
from the drift seen — never under a few ulps of the field's scale (rounding noise: another CPU's answer must pass),
never over the field's scale (a band as wide as the values grades nothing)."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from swr.core.hashing import canonical_json
from swr.kinds.workflow.gates import parse_output
from swr.kinds.workflow.reference import Runner
from swr.kinds.workflow.scenario import sample_scenario
from swr.kinds.workflow.spec import WorkflowSpec
from swr.sandbox import RunResult, Sandbox

EPS = 2.0**-52
ULPS = 8  # rounding noise: a tolerance never lies under this many ulps of the field's scale
PLATFORM_RTOL = 1e-9  # a float with no drift here still differs by rounding on another CPU or libm
SAFETY = 10.0  # a proposed band is this many times the drift measured
MAX_RTOL = 0.1  # a wider band than this lets a value far off pass (at 1, zero would): such a field is noise
SMALL = 1e-6  # values under this share of the field's scale are compared by atol, not rtol
THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
# (label, environment) of each run after the first, which is the reference as the build runs it
PERTURBATIONS: tuple[tuple[str, dict[str, str] | None], ...] = (
    ("a fresh process", {}),
    ("PYTHONHASHSEED=1 and 2 BLAS/OpenMP threads", {"PYTHONHASHSEED": "1", **dict.fromkeys(THREADS, "2")}),
    ("PYTHONHASHSEED=2 and 2 BLAS/OpenMP threads", {"PYTHONHASHSEED": "2", **dict.fromkeys(THREADS, "2")}),
)
Leaves = dict[tuple[str | int, ...], Any]


@dataclass
class Measured:
    """Every run of every sampled scenario: outputs[i][k] is scenario i's k-th run (None: it failed)."""

    scenarios: list[dict[str, Any]]
    outputs: list[list[dict[str, Any] | None]]
    failures: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


@dataclass
class FieldReport:
    """One output field (a dotted pattern, `*` for list items): its type, shape and proposed grading."""

    pattern: str
    kind: str  # float, integer, boolean, string, null, mixed
    shape: str  # "", or list lengths seen
    scale: float = 0.0
    drift: float = 0.0  # largest relative drift between runs (floats), 1.0 when a non-float differs
    atol: float | None = None
    rtol: float | None = None
    exact: bool = False
    ignore: bool = False
    how: str = ""  # the comment written above its table


def measure(spec: WorkflowSpec, sandbox: Sandbox, *, samples: int, seed: int, jobs: int) -> Measured:
    """Each sampled scenario run 1 + len(PERTURBATIONS) times in the sandbox, on `jobs` threads."""
    runner = Runner(spec, sandbox, workers=jobs)
    scenarios = [sample_scenario(spec, seed, 0, i) for i in range(samples)]
    calls = [(i, k) for i in range(samples) for k in range(1 + len(PERTURBATIONS))]

    def one(call: tuple[int, int]) -> RunResult:
        i, k = call
        return runner.run(scenarios[i]) if k == 0 else runner.run_fresh(scenarios[i], PERTURBATIONS[k - 1][1])

    try:
        with ThreadPoolExecutor(jobs) as pool:
            results = list(pool.map(one, calls))
    finally:
        runner.close()
    m = Measured(scenarios, [[None] * (1 + len(PERTURBATIONS)) for _ in scenarios])
    m.labels = ["the reference as the build runs it", *(label for label, _ in PERTURBATIONS)]
    failed: dict[int, list[tuple[int, str]]] = {}
    for (i, k), res in zip(calls, results):
        out, fail = parse_output(res, scenarios[i])
        m.outputs[i][k] = out
        if fail:
            failed.setdefault(i, []).append((k, str(fail)))
    m.failures = _failure_lines(failed, m.labels)
    return m


def _failure_lines(failed: dict[int, list[tuple[int, str]]], labels: list[str]) -> list[str]:
    """The first failing scenario's reason, once; a failure in some of a scenario's runs only names those runs
    (nondeterminism: a crash under another hash seed or thread count)."""
    if not failed:
        return []
    i = min(failed)
    k, why = failed[i][0]
    runs = {k for k, _ in failed[i]}
    where = "" if len(runs) == len(labels) else f" (in {', '.join(labels[k] for k in sorted(runs))} only)"
    more = f"; {len(failed) - 1} more sampled scenario(s) fail" if len(failed) > 1 else ""
    return [f"{why}{where}{more}"]


def leaves(doc: Any, path: tuple[str | int, ...] = ()) -> Leaves:
    """Concrete path -> scalar; an empty list or object is a leaf of its own (its shape is its value)."""
    if isinstance(doc, dict) and doc:
        return {p: v for k, sub in doc.items() for p, v in leaves(sub, (*path, str(k))).items()}
    if isinstance(doc, list) and doc:
        return {p: v for i, sub in enumerate(doc) for p, v in leaves(sub, (*path, i)).items()}
    return {path: doc}


def pattern_of(path: tuple[str | int, ...]) -> str:
    """The field pattern of a concrete path: list indexes become `*`, trailing ones dropped (a pattern covers its
    subtree, so `values` grades every item of the list `values`)."""
    segs = ["*" if type(p) is int else str(p) for p in path]
    while segs and segs[-1] == "*":
        segs.pop()
    return ".".join(segs)


def _kind(v: Any) -> str:
    return {bool: "boolean", int: "integer", float: "float", str: "string", type(None): "null"}.get(type(v), "shape")


def fields(m: Measured) -> list[FieldReport]:
    """Schema and proposals of every field seen in the runs that succeeded."""
    values: dict[str, list[Any]] = {}
    pairs: dict[str, list[tuple[Any, Any]]] = {}
    lengths: dict[str, set[int]] = {}
    for runs in m.outputs:
        first = runs[0]
        if first is None:
            continue
        ref = leaves(first)
        for path, v in ref.items():
            values.setdefault(pattern_of(path), []).append(v)
        _lengths(first, (), lengths)
        for other in runs[1:]:
            if other is None:
                continue
            got = leaves(other)
            for path in ref.keys() | got.keys():
                pairs.setdefault(pattern_of(path), []).append((ref.get(path, _MISSING), got.get(path, _MISSING)))
    return [_field(p, values[p], pairs.get(p, []), lengths) for p in sorted(values) if p and _plain(p)]


_MISSING = object()


def _plain(pattern: str) -> bool:
    """A key that a dotted pattern can name (no dot or star of its own)."""
    return all(s == "*" or ("." not in s and "*" not in s and s) for s in pattern.split("."))


def _lengths(doc: Any, path: tuple[str, ...], out: dict[str, set[int]]) -> None:
    if isinstance(doc, dict):
        for k, v in doc.items():
            _lengths(v, (*path, str(k)), out)
    elif isinstance(doc, list):
        out.setdefault(".".join(path), set()).add(len(doc))
        for v in doc:
            _lengths(v, (*path, "*"), out)


def _shape(pattern: str, lengths: dict[str, set[int]]) -> str:
    dims = []
    segs = pattern.split(".")
    for i in range(len(segs) + 1):
        n = lengths.get(".".join(segs[:i]) if i else "")
        if n is None:
            continue
        dims.append(str(min(n)) if min(n) == max(n) else f"{min(n)}-{max(n)}")
    # a list of scalars keeps its own length under the field's name (the pattern drops its `*`)
    own = [lengths.get(".".join([*segs, *["*"] * j])) for j in range(1, 4)]
    dims += [str(min(n)) if min(n) == max(n) else f"{min(n)}-{max(n)}" for n in own if n]
    return f"list shape [{', '.join(dims)}]" if dims else ""


def _field(pattern: str, vals: list[Any], pairs: list[tuple[Any, Any]], lengths: dict[str, set[int]]) -> FieldReport:
    kinds = {_kind(v) for v in vals} - {"shape"} or {"shape"}  # an empty list in some scenarios is no type
    kind = (
        "float" if kinds <= {"float", "integer"} and "float" in kinds else (kinds.pop() if len(kinds) == 1 else "mixed")
    )
    f = FieldReport(pattern, kind, _shape(pattern, lengths))
    if kind == "float":
        numbers = [(a, b) for a, b in pairs if _num(a) and _num(b)]
        f.scale = max((abs(v) for v in vals if _num(v) and math.isfinite(v)), default=0.0)
        f.atol, f.rtol, f.how = propose([v for v in vals if _num(v)], numbers)
        f.drift = max((_rel(a, b) for a, b in numbers), default=0.0)
        if any(not (_num(a) and _num(b)) for a, b in pairs):
            f.ignore, f.how = True, "volatile: present in some runs of a scenario and not in others"
        elif f.rtol is None:
            f.ignore = True
        return f
    differ = [(a, b) for a, b in pairs if a is _MISSING or b is _MISSING or canonical_json(a) != canonical_json(b)]
    if differ:
        a, b = differ[0]
        f.ignore, f.drift = True, 1.0
        f.how = f"volatile: differs between runs of one scenario ({_show(a)} vs {_show(b)}): ignored"
    else:
        f.exact, f.atol, f.rtol = True, 0.0, 0.0
        f.how = f"exact: {kind}, equal in every run"
    return f


def _num(x: Any) -> bool:
    return type(x) in (int, float)


def _rel(a: float, b: float) -> float:
    big = max(abs(a), abs(b))
    return abs(a - b) / big if big and math.isfinite(big) else 0.0


def _show(x: Any) -> str:
    return "(missing)" if x is _MISSING else canonical_json(x)[:40]


def propose(values: list[float], pairs: list[tuple[float, float]]) -> tuple[float | None, float | None, str]:
    """(atol, rtol, how) for a float field from its reference values and its (first run, other run) pairs.
    rtol: SAFETY times the largest relative drift of values that are not small against the field's scale, at
    least PLATFORM_RTOL, at most MAX_RTOL (a band near the value's own size grades nothing: such a field is
    noise, and (None, None) says: ignore it). atol: SAFETY times the largest drift of the small values, at least
    ULPS ulps of the scale, at most the scale."""
    if any((a != a) != (b != b) for a, b in pairs):  # NaN in one run only
        return None, None, "volatile: NaN in some runs of a scenario only: ignored"
    scale = max((abs(v) for v in values if math.isfinite(v)), default=0.0)
    finite = [(a, b) for a, b in pairs if math.isfinite(a) and math.isfinite(b)]
    big = [(a, b) for a, b in finite if max(abs(a), abs(b)) > SMALL * scale]
    small = max((abs(a - b) for a, b in finite if max(abs(a), abs(b)) <= SMALL * scale), default=0.0)
    rel = max((_rel(a, b) for a, b in big), default=0.0)
    if SAFETY * rel > MAX_RTOL:
        return None, None, f"volatile: runs of one scenario differ by {rel:.3g} of the value: ignored"
    rtol = max(PLATFORM_RTOL, up(SAFETY * rel))
    floor = ULPS * EPS * scale
    atol = min(scale, up(max(floor, SAFETY * small)))
    if rel == 0 and small == 0:
        how = f"no drift between runs: rtol at the platform floor {PLATFORM_RTOL:g}"
    else:
        how = f"drift between runs up to {rel:.3g} relative, {small:.3g} near zero: bands {SAFETY:g} times it"
    if scale == 0:
        return 0.0, rtol, how + "; always 0 here (zero by construction? then declare zero = true with an atol)"
    where = f"{ULPS} ulps of it" if SAFETY * small <= floor else f"{SAFETY:g} times the drift of its values near zero"
    return atol, rtol, f"{how}; scale {scale:.3g}, atol {where}"


def up(x: float) -> float:
    """x rounded up to two significant digits: a readable tolerance never under what was measured."""
    if x <= 0 or not math.isfinite(x):
        return x
    step = 10.0 ** (math.floor(math.log10(x)) - 1)
    y = float(f"{math.ceil(x / step - 1e-9) * step:.2g}")
    return y if y >= x else float(f"{y + step:.2g}")


def render_outputs(reports: list[FieldReport], m: Measured, keep: dict[str, dict[str, Any]], ignore: list[str]) -> str:
    """The measured block of workflow.toml: [outputs] and a table per field, each with a comment saying how its
    tolerance was measured. What the author wrote in an earlier block is carried over: `keep` (each field's
    description, units, period, zero and artifact options) and `ignore` (patterns to leave ungraded)."""
    from swr.kinds.workflow.scaffold_files import value

    n = sum(o is not None for runs in m.outputs for o in runs)
    ignored = sorted({*ignore, *(r.pattern for r in reports if r.ignore)})
    lines = [
        f"# {len(m.scenarios)} sampled scenarios, each run {len(m.labels)} ways ({n} runs): "
        + "; ".join(m.labels)
        + ".",
        f"# A float's band is {SAFETY:g} times the drift seen between runs of a scenario, at least {ULPS} ulps of "
        f"its scale and rtol {PLATFORM_RTOL:g}",
        "# (rounding on another CPU), at most its scale; integers, strings and booleans are exact.",
        "[outputs]",
        "atol = 0.0",
        f"rtol = {value(PLATFORM_RTOL)}",
        f"ignore = {value(ignored)}",
    ]
    for r in reports:
        if r.ignore or any(covers(p, r.pattern) for p in ignored):
            lines += ["", f"# {r.pattern}: {r.how or 'ignored, as the earlier block said'}"]
            continue
        lines += ["", *_field_table(r, keep.get(r.pattern, {}))]
    return "\n".join(lines) + "\n"


def _field_table(r: FieldReport, old: dict[str, Any]) -> list[str]:
    from swr.kinds.workflow.gates import ZERO_MARGIN
    from swr.kinds.workflow.scaffold_files import value

    what = f"{r.kind}{', ' + r.shape if r.shape else ''}"
    out = [f"# {what}; {r.how}", f"[outputs.fields.{value(r.pattern)}]"]
    out.append(f"description = {value(old.get('description') or f'A {what} (describe it).')}")
    out += [f"{k} = {value(old[k])}" for k in ("units", "period", "artifact") if old.get(k)]
    atol, rtol = float(r.atol or 0.0), float(r.rtol or 0.0)
    if old.get("zero"):  # zero by construction (the author's word): its band must hold its noise ten times over
        return [*out, "zero = true", f"atol = {value(max(atol, up(r.scale / ZERO_MARGIN)))}"]
    return [*out, f"atol = {value(atol)}", f"rtol = {value(rtol)}"]


def covers(pattern: str, field: str) -> bool:
    """An [outputs] pattern against a field's: segments, `*` for any one, a pattern covering its subtree."""
    segs, parts = pattern.split("."), field.split(".")
    return len(segs) <= len(parts) and all(s in ("*", p) for s, p in zip(segs, parts))
