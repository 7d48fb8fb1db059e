"""The seven release gates, as checks over reference executions, each with a plain-words reason."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from swr.core.hashing import canonical_json
from swr.judge import Execution, Tolerances, compare, equal, structure, verdict
from swr.judge.artifacts.fields import Reference, artifact_leaves, judge_files, substitute
from swr.judge.decision import parse_output as parse_stdout
from swr.judge.decision import reference_view
from swr.kinds.workflow.scenario import input_distance
from swr.kinds.workflow.spec import WorkflowSpec
from swr.kinds.workflow.task import Example
from swr.sandbox import RunResult

GATES = (
    "disjoint",
    "reference_succeeds",
    "deterministic",
    "schema_stable",
    "intervention_sensitive",
    "oracle_passes",
    "replay_controls_fail",
)


@dataclass
class GateFailure:
    gate: str
    reason: str

    def __str__(self) -> str:
        return f"gate {self.gate}: {self.reason}"


def _short(obj: Any, n: int = 160) -> str:
    text = canonical_json(obj)
    return text if len(text) <= n else text[: n - 1] + "…"


def parse_output(res: RunResult, scenario: dict[str, Any]) -> tuple[dict[str, Any] | None, GateFailure | None]:
    """Gate 2 for one scenario: the reference exits 0 and prints one JSON object."""
    if not res.ok:
        tail = res.stderr.decode(errors="replace").strip().splitlines()
        why: str | None = f"limit {res.limit} hit" if res.limit else f"exit code {res.returncode}"
        last = f": {tail[-1][:200]}" if tail else ""
        return None, GateFailure(
            "reference_succeeds", f"the reference failed on scenario {_short(scenario)} ({why}){last}"
        )
    out, why = parse_stdout(res.stdout)  # the judge's own rule for "one JSON object"
    if out is None:
        return None, GateFailure("reference_succeeds", f"unusable output on scenario {_short(scenario)}: {why}")
    return out, None


def strip_ignored(doc: Any, tol: Tolerances, path: tuple[str | int, ...] = ()) -> Any:
    """The graded part of an output: what releases store and gates compare."""
    if not tol.ignore:
        return doc
    if isinstance(doc, dict):
        return {k: strip_ignored(v, tol, (*path, k)) for k, v in doc.items() if tol.for_path((*path, k)) is not None}
    if isinstance(doc, list):
        return [strip_ignored(v, tol, (*path, i)) for i, v in enumerate(doc)]
    return doc


def check_deterministic(
    first: Reference, second: Reference, tol: Tolerances, scenario: dict[str, Any]
) -> GateFailure | None:
    """Gate 3: a second execution in a fresh process grades equal to the first, artifacts included."""
    leaves = artifact_leaves(first, tol)
    cmp = compare(
        substitute(first.output, leaves, first.files, "mask"),
        substitute(second.output, leaves, second.files, "mask"),
        tol,
    )
    bad = [*cmp.mismatches, *judge_files(first, leaves, second.output, second.files, tol, trusted=True)]
    if not bad:
        return None
    m = bad[0]
    where = f"field `{m.path}`" if m.path else "the output"
    return GateFailure(
        "deterministic",
        f"{where} differs between two runs of the same scenario: "
        f"{_short(m.expected, 60)} vs {_short(m.got, 60)} — declare it in [outputs] ignore "
        f"if it is volatile (scenario {_short(scenario, 100)})",
    )


def _structure_outliers(outputs: list[Any], tol: Tolerances) -> tuple[set[int], GateFailure | None]:
    """Indexes whose graded structure differs from the most common one."""
    sigs = [structure(o, tol) for o in outputs]
    common, _ = Counter(sigs).most_common(1)[0]
    bad = {i for i, s in enumerate(sigs) if s != common}
    if not bad:
        return bad, None
    i = min(bad)
    keys_a = sorted(outputs[i]) if isinstance(outputs[i], dict) else []
    j = sigs.index(common)
    keys_b = sorted(outputs[j]) if isinstance(outputs[j], dict) else []
    return bad, GateFailure(
        "schema_stable",
        f"output structure or leaf types differ between scenarios "
        f"(keys {keys_a[:8]} vs {keys_b[:8]}); the same fields with the same types are needed "
        "on every scenario",
    )


Values = dict[tuple[str, float], list[float]]  # (field pattern, atol) -> every finite |value| of the field
UNDER_SHARE = 0.1  # a field with more than this share of its nonzero values under its atol fails the build
ZERO_MARGIN = 0.1  # a field zero by construction: its reference values use at most this share of its atol
NOISE = 1e-10  # values this small against the output's largest are rounding noise, not a scale to grade at


def _float_values(doc: Any, tol: Tolerances, path: tuple[str | int, ...], values: Values) -> None:
    """Every finite |value| of each graded float field (list items pooled under their `*` pattern), by atol."""
    resolved = tol.for_path(path)
    if resolved is None:
        return
    if isinstance(doc, dict):
        for k, v in doc.items():
            _float_values(v, tol, (*path, k), values)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            _float_values(v, tol, (*path, i), values)
    elif type(doc) is float and math.isfinite(doc):
        name = ".".join("*" if type(p) is int else str(p) for p in path)
        values.setdefault((name, resolved[0]), []).append(abs(doc))


def tolerance_scale(outputs: list[Any], tol: Tolerances) -> GateFailure | None:
    """Build rule: where a reference value lies under its field's atol, zero, a sign flip or a unit slip passes.
    Every value is weighed, not only the field's largest: more than UNDER_SHARE of a field's nonzero values
    under its atol fails the build, naming the field (a signed field may cross zero now and then; an all-zero
    field has no scale and is exempt, and so is a periodic one). A field declared `zero = true` is checked by
    _zero_field instead."""
    values: Values = {}
    for out in outputs:
        _float_values(out, tol, (), values)
    peak = max((v for vs in values.values() for v in vs), default=0.0)
    for (name, atol), vals in sorted(values.items()):
        if tol.is_zero(tuple(name.split("."))):
            if fail := _zero_field(name, atol, vals):
                return fail
            continue
        if tol.period_for(tuple(name.split("."))):
            continue  # an angle's magnitude is no scale: 0.1 and 359.9 degrees are as far from zero
        nonzero = sorted(v for v in vals if v > 0.0)
        under = sum(v < atol for v in nonzero)
        if under and under > UNDER_SHARE * len(nonzero):
            return GateFailure(
                "tolerance_scale",
                f"field `{name or '(root)'}`: atol {atol:g} exceeds {under} of its "
                f"{len(nonzero)} nonzero reference values (smallest {nonzero[0]:.3g}, largest "
                f"{nonzero[-1]:.3g}), so zero, a sign flip or a unit slip would pass there — " + _advice(nonzero, peak),
            )
    return None


def _advice(nonzero: list[float], peak: float) -> str:
    """What to declare instead; never an atol under rounding noise (that would fail correct answers on
    another CPU): a field at noise scale against the output's largest values is offered `zero = true`."""
    if nonzero[-1] <= NOISE * peak:
        return (
            f"its values are rounding noise against the outputs' largest ({peak:.3g}): if it is zero by "
            "construction declare `zero = true` in its [outputs.fields] table, with an atol at least "
            f"{1 / ZERO_MARGIN:g} times its largest value; if it is not, grade it relative to its own values "
            "(atol 0, rtol above its computation's precision)"
        )
    q = nonzero[int(UNDER_SHARE * (len(nonzero) - 1))]
    return (
        f"set a per-field atol in [outputs.fields] below {q:.3g} (the field's smaller values; rtol then carries "
        "the comparison), or `zero = true` if the field is zero by construction"
    )


def _zero_field(name: str, atol: float, vals: list[float]) -> GateFailure | None:
    """A field declared zero by construction: its reference values must be noise well inside its band (at most
    ZERO_MARGIN of its atol), so the reference passes on any CPU and a nonzero answer of the band's size fails."""
    worst = max(vals, default=0.0)
    if worst <= ZERO_MARGIN * atol:
        return None
    return GateFailure(
        "tolerance_scale",
        f"field `{name}` is declared `zero = true`, but a reference value "
        f"{worst:.3g} exceeds {ZERO_MARGIN:g} of its atol {atol:g}: it is not zero by construction, "
        f"or its atol is within its noise (set atol above {worst / ZERO_MARGIN:.3g})",
    )


def schema_outliers(outputs: list[Any], tol: Tolerances) -> tuple[set[int], GateFailure | None]:
    """Gate 4, over every built scenario: indexes whose graded structure differs from the most common one;
    a tolerance that cannot tell a field's values from zero (tolerance_scale) fails them all."""
    if fail := tolerance_scale(outputs, tol):
        return set(range(len(outputs))), fail
    return _structure_outliers(outputs, tol)


def insensitive_pairs(outputs: list[Any], tol: Tolerances) -> list[tuple[int, int]]:
    """Gate 5: pairs of scenarios whose graded outputs are equal within tolerance."""
    return [(i, j) for i, j in combinations(range(len(outputs)), 2) if equal(outputs[i], outputs[j], tol)]


def insensitive_failure(a: dict[str, Any], b: dict[str, Any]) -> GateFailure:
    diff = sorted(k for k in a if a.get(k) != b.get(k))
    return GateFailure(
        "intervention_sensitive",
        f"scenarios that differ in {diff[:6]} give the same graded output "
        "— does the program read its inputs, or are the tolerances too loose?",
    )


def replay_controls(spec: WorkflowSpec, public: list[Example], hidden: list[Example]) -> dict[str, dict[str, Any]]:
    """Gate 7: three controls built from public outputs (and their files), graded on the hidden set; all must fail."""
    tol = spec.tolerances
    views = [reference_view(Reference(p.output, p.files), tol) for p in public]
    counts = Counter(canonical_json(v) for v in views)
    modal = public[[canonical_json(v) for v in views].index(counts.most_common(1)[0][0])]
    controls = {
        "modal": [modal for _ in hidden],
        "nearest": [min(public, key=lambda p: input_distance(spec, p.scenario, h.scenario)) for h in hidden],
        "best_public": [
            public[max(range(len(public)), key=lambda i: compare(hv, views[i], tol).field_agreement)]
            for hv in (reference_view(Reference(h.output, h.files), tol) for h in hidden)
        ],
    }
    out = {}
    for name, chosen in controls.items():
        runs = [
            (Reference(h.output, h.files), Execution(0, json.dumps(p.output).encode(), artifacts=p.files, trusted=True))
            for h, p in zip(hidden, chosen)
        ]
        v = verdict(name, runs, [], tol, public_refs=[Reference(p.output, p.files) for p in public])
        out[name] = {
            "pass": v["pass"],
            "r_hid": v["r_hid"],
            "field_agreement": round(v["field_agreement"], 6),
            "label": v["label"],
        }
    return out
