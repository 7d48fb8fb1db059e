"""`swr audit sensitivity`: does the graded output move with the inputs, and with which of them?"""
from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

from swr.judge.artifacts.fields import Reference
from swr.judge.verdict import parse_output, reference_view
from swr.release import Task, list_tasks, load_task
from swr.sandbox import get_sandbox
from swr.scenario import sample_scenario
from swr.workflow import Runner

from .oracle import leaf_within, leaves, within

PROBES = 2  # alternative values tried per parameter


def pair_stats(task: Task) -> dict[str, Any]:
    """Over every pair of the task's scenarios: how often the graded output changes, and how much."""
    tol = task.tolerances
    views = [reference_view(Reference(e.output, e.files), tol) for e in [*task.public, *task.hidden]]
    flat = [dict(leaves(v, tol)) for v in views]
    paths = set().union(*flat) if flat else set()
    varying = {p for p in paths if any(not _same(flat[0].get(p), f.get(p), tol, p) for f in flat[1:])}
    pairs = list(combinations(range(len(views)), 2))
    changed = [sum(not _same(flat[i].get(p), flat[j].get(p), tol, p) for p in paths) for i, j in pairs]
    return {"task": task.id, "pairs": len(pairs),
            "pairs_changed": sum(1 for i, j in pairs if not within(views[i], views[j], tol)),
            "fields": len(paths), "fields_varying": len(varying),
            "fields_changed_per_pair": sum(changed) / len(pairs) if pairs else 0.0}


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


def sensitivity_audit(release: Path, *, reexecute: bool = True, sandbox: str = "bwrap") -> dict[str, Any]:
    """Pair statistics for every task; with `reexecute`, one-at-a-time probes per workflow (variant 1)."""
    tasks = [load_task(r) for r in list_tasks(release)]
    rows = [pair_stats(t) for t in tasks]
    params: dict[str, dict[str, bool]] = {}
    if reexecute:
        first: dict[str, Task] = {}
        for t in tasks:
            first.setdefault(t.meta["workflow"], t)
        sb = get_sandbox(sandbox)
        for wf, t in sorted(first.items()):
            runner = Runner(t.reference_spec(), sb)
            try:
                params[wf] = one_at_a_time(t, runner)
            finally:
                runner.close()
    for r, t in zip(rows, tasks):
        p = params.get(t.meta["workflow"])
        if p is not None:
            r["parameters_moving_output"] = sorted(k for k, v in p.items() if v)
            r["parameters_inert"] = sorted(k for k, v in p.items() if not v)
    return {"release": str(release), "tasks": rows,
            "pair_change_rate": _ratio(sum(r["pairs_changed"] for r in rows), sum(r["pairs"] for r in rows)),
            "field_vary_rate": _ratio(sum(r["fields_varying"] for r in rows), sum(r["fields"] for r in rows)),
            "tasks_without_change": sum(r["pairs_changed"] == 0 for r in rows),
            "inert_parameters": {wf: sorted(k for k, v in p.items() if not v) for wf, p in params.items()
                                 if not all(p.values())}}


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0

