"""The seven release gates, as checks over reference executions, each with a plain-words reason."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from swr.judge import Execution, Tolerances, compare, equal, structure, verdict
from swr.judge.artifacts.fields import Reference, artifact_leaves, judge_files, substitute
from swr.judge.verdict import parse_output as parse_stdout
from swr.judge.verdict import reference_view
from swr.release import Example
from swr.sandbox import RunResult
from swr.scenario import canonical_json, input_distance
from swr.spec import WorkflowSpec

GATES = ("disjoint", "reference_succeeds", "deterministic", "schema_stable", "intervention_sensitive",
         "oracle_passes", "replay_controls_fail")


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
        why = f"limit {res.limit} hit" if res.limit else f"exit code {res.returncode}"
        last = f": {tail[-1][:200]}" if tail else ""
        return None, GateFailure("reference_succeeds", f"the reference failed on scenario {_short(scenario)} ({why}){last}")
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


def check_deterministic(first: Reference, second: Reference, tol: Tolerances,
                        scenario: dict[str, Any]) -> GateFailure | None:
    """Gate 3: a second execution in a fresh process grades equal to the first, artifacts included."""
    leaves = artifact_leaves(first, tol)
    cmp = compare(substitute(first.output, leaves, first.files, "mask"),
                  substitute(second.output, leaves, second.files, "mask"), tol)
    bad = [*cmp.mismatches, *judge_files(first, leaves, second.output, second.files, tol, trusted=True)]
    if not bad:
        return None
    m = bad[0]
    where = f"field `{m.path}`" if m.path else "the output"
    return GateFailure("deterministic", f"{where} differs between two runs of the same scenario: "
                       f"{_short(m.expected, 60)} vs {_short(m.got, 60)} — declare it in [outputs] ignore "
                       f"if it is volatile (scenario {_short(scenario, 100)})")


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
    return bad, GateFailure("schema_stable", f"output structure or leaf types differ between scenarios "
                            f"(keys {keys_a[:8]} vs {keys_b[:8]}); the same fields with the same types are needed "
                            "on every scenario")


Peaks = dict[tuple[str, float], tuple[float, int]]  # (field pattern, atol) -> (largest |value|, values seen)


def _float_peaks(doc: Any, tol: Tolerances, path: tuple[str | int, ...], peaks: Peaks) -> None:
    """Largest finite |value| of each graded float field (list items pooled), with its atol."""
    resolved = tol.for_path(path)
    if resolved is None:
        return
    if isinstance(doc, dict):
        for k, v in doc.items():
            _float_peaks(v, tol, (*path, k), peaks)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            _float_peaks(v, tol, (*path, i), peaks)
    elif type(doc) is float and math.isfinite(doc):
        name = ".".join("*" if type(p) is int else str(p) for p in path)
        peak, n = peaks.get((name, resolved[0]), (0.0, 0))
        peaks[(name, resolved[0])] = (max(peak, abs(doc)), n + 1)


def tolerance_scale(outputs: list[Any], tol: Tolerances) -> GateFailure | None:
    """Build rule: an atol above every reference value of a field accepts zero, a sign flip or a unit slip,
    so it is an error naming the field (an all-zero field has no scale and is exempt)."""
    peaks: Peaks = {}
    for out in outputs:
        _float_peaks(out, tol, (), peaks)
    for (name, atol), (peak, n) in sorted(peaks.items()):
        if 0.0 < peak < atol:
            return GateFailure("tolerance_scale", f"field `{name or '(root)'}`: atol {atol:g} exceeds every "
                               f"reference value (largest |value| {peak:.3g} over {n} values), so zero, a "
                               "sign flip or a unit slip would pass — set a per-field atol below the field's scale "
                               "in [outputs.fields] (rtol then carries the comparison)")
    return None


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
    return GateFailure("intervention_sensitive", f"scenarios that differ in {diff[:6]} give the same graded output "
                       "— does the program read its inputs, or are the tolerances too loose?")


def replay_controls(spec: WorkflowSpec, public: list[Example], hidden: list[Example]) -> dict[str, dict[str, Any]]:
    """Gate 7: three controls built from public outputs (and their files), graded on the hidden set; all must fail."""
    tol = spec.tolerances
    views = [reference_view(Reference(p.output, p.files), tol) for p in public]
    counts = Counter(canonical_json(v) for v in views)
    modal = public[[canonical_json(v) for v in views].index(counts.most_common(1)[0][0])]
    controls = {
        "modal": [modal for _ in hidden],
        "nearest": [min(public, key=lambda p: input_distance(spec, p.scenario, h.scenario)) for h in hidden],
        "best_public": [public[max(range(len(public)), key=lambda i: compare(hv, views[i], tol).field_agreement)]
                        for hv in (reference_view(Reference(h.output, h.files), tol) for h in hidden)],
    }
    out = {}
    for name, chosen in controls.items():
        runs = [(Reference(h.output, h.files), Execution(0, json.dumps(p.output).encode(), artifacts=p.files,
                                                            trusted=True))
                for h, p in zip(hidden, chosen)]
        v = verdict(name, runs, [], tol, public_refs=[Reference(p.output, p.files) for p in public])
        out[name] = {"pass": v["pass"], "r_hid": v["r_hid"], "field_agreement": round(v["field_agreement"], 6),
                     "label": v["label"]}
    return out
