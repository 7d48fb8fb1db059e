"""`swr audit sensitivity`: does the graded output move with the inputs, and with which of them? The four
metrics of the SWR paper (§ "Sensitivity to input changes", Fig. 5): pairs_changed_share (scenario pairs whose
graded output differs, over all pairs of all tasks), fields_varying_share (per task, the share of graded fields
that differ in some scenario, averaged over tasks), fields_changed_share_per_pair (per scenario pair, the share
of fields that differ, averaged over all pairs) and parameters_moving_output_share (declared parameters that
move the output when changed alone from a public scenario, over every variant of every workflow)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

from swr import kinds
from swr.core.release_dir import list_tasks
from swr.judge.artifacts.fields import Reference
from swr.judge.decision import parse_output, reference_view
from swr.kinds.workflow.reference import Runner
from swr.kinds.workflow.scenario import sample_scenario
from swr.kinds.workflow.task import Task, load_workflow_task
from swr.sandbox import get_sandbox

from .oracle import leaf_within, leaves, within

PROBES = 2  # alternative values tried per parameter


def pair_stats(task: Task) -> dict[str, Any]:
    """Over every pair of the task's scenarios: whether the graded output changes, and in how many fields."""
    tol = task.tolerances
    views = [reference_view(Reference(e.output, e.files), tol) for e in [*task.public, *task.hidden]]
    flat = [dict(leaves(v, tol)) for v in views]
    paths = set().union(*flat) if flat else set()
    varying = {p for p in paths if any(not _same(flat[0].get(p), f.get(p), tol, p) for f in flat[1:])}
    pairs = list(combinations(range(len(views)), 2))
    shares = [
        _ratio(sum(not _same(flat[i].get(p), flat[j].get(p), tol, p) for p in paths), len(paths)) for i, j in pairs
    ]
    return {
        "task": task.id,
        "pairs": len(pairs),
        "pairs_changed": sum(1 for i, j in pairs if not within(views[i], views[j], tol)),
        "fields": len(paths),
        "fields_varying": len(varying),
        "pair_field_shares": shares,
        "fields_changed_share_per_pair": sum(shares) / len(shares) if shares else 0.0,
    }


def _same(a: Any, b: Any, tol: Any, path: tuple) -> bool:
    return leaf_within(a, b, tol, path) if a is not None and b is not None else a is b


def _alternatives(spec: Any, name: str, current: Any, seed: int) -> list[Any]:
    """Up to PROBES other values of one parameter, drawn by the spec's own sampler."""
    alts: list[Any] = []
    for k in range(PROBES * 8):
        v = sample_scenario(spec, seed, 10_000 + k, 0)[name]
        if v != current and v not in alts:
            alts.append(v)
        if len(alts) == PROBES:
            break
    return alts


def one_at_a_time(task: Task, runner: Runner, seed: int = 0) -> dict[str, bool]:
    """Per declared parameter: does changing it alone (others held at a public scenario) change the output?"""
    spec, tol = runner.spec, task.tolerances
    base = task.public[0]
    base_view = reference_view(Reference(base.output, base.files), tol)
    moved: dict[str, bool] = {}
    for name in sorted(spec.inputs):
        moved[name] = False
        for alt in _alternatives(spec, name, base.scenario.get(name), seed):
            res = runner.run({**base.scenario, name: alt})
            out, _ = parse_output(res.stdout) if res.ok else (None, None)
            if out is None or not within(base_view, reference_view(Reference(out, res.artifacts), tol), tol):
                moved[name] = True
                break
    return moved


def _probe_all(tasks: list[Task], sandbox: str) -> dict[str, dict[str, bool]]:
    """One-at-a-time probes of every task (every variant), one warm runner per workflow."""
    by_workflow: dict[str, list[Task]] = {}
    for t in tasks:
        by_workflow.setdefault(t.meta.workflow, []).append(t)
    sb = get_sandbox(sandbox)
    moved: dict[str, dict[str, bool]] = {}
    for group in by_workflow.values():
        runner = Runner(group[0].reference_spec(), sb)
        try:
            for t in group:
                if t.public:
                    moved[t.id] = one_at_a_time(t, runner)
        finally:
            runner.close()
    return moved


def sensitivity_audit(release: Path, *, reexecute: bool = True, sandbox: str = "bwrap") -> dict[str, Any]:
    """The paper's four sensitivity metrics; the last (one-at-a-time probes) needs `reexecute`."""
    roots, not_applicable = kinds.covered(list_tasks(release), "sensitivity")
    tasks = [load_workflow_task(r) for r in roots]
    rows = [pair_stats(t) for t in tasks]
    params = _probe_all(tasks, sandbox) if reexecute else {}
    inert: dict[str, set[str]] = {}
    for r, t in zip(rows, tasks):
        p = params.get(t.id)
        if p is not None:
            r["parameters_moving_output"] = sorted(k for k, v in p.items() if v)
            r["parameters_inert"] = sorted(k for k, v in p.items() if not v)
            wf = inert.setdefault(t.meta.workflow, set(p))
            wf &= set(r["parameters_inert"])
    shares = [s for r in rows for s in r.pop("pair_field_shares")]
    return {
        "release": str(release),
        "tasks": rows,
        "not_applicable": not_applicable,
        "pairs_changed_share": _ratio(sum(r["pairs_changed"] for r in rows), sum(r["pairs"] for r in rows)),
        "fields_varying_share": _mean([_ratio(r["fields_varying"], r["fields"]) for r in rows if r["fields"]]),
        "fields_changed_share_per_pair": _mean(shares),
        "parameters_moving_output_share": None
        if not params
        else _ratio(sum(sum(p.values()) for p in params.values()), sum(len(p) for p in params.values())),
        "tasks_without_change": sum(r["pairs_changed"] == 0 for r in rows),
        "inert_parameters": {wf: sorted(names) for wf, names in sorted(inert.items()) if names},
    }


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0
