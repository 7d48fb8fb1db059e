"""`swr audit held-out`: the second half of the post-freeze audit (SWR §4.3, Table 12). New trials on the frozen
held-out tasks, each with a designed accept-or-reject label, graded by the judge; per stratum the false
accepts, false rejects and the Wilson 95% interval of the correct-decision rate."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from swr.core.hashing import tree_hash
from swr.core.layout import ReleasePaths
from swr.core.release_dir import task_dir
from swr.judge import Execution, judge_scenario
from swr.judge.artifacts.fields import Reference
from swr.kinds.workflow.task import Task, load_workflow_task

from .freeze import load_freeze
from .heldout_geometry import geometry_trials
from .heldout_trials import Trial, context, structured_trials
from .mutation import wilson

STRATA = ("structured valid", "geometry valid", "structured invalid", "geometry invalid")
MAX_WRONG = 200


def stratum(t: Trial) -> str:
    return f"{t.stratum} {'valid' if t.valid else 'invalid'}"


def task_trials(task: Task, per_class: int, seed: int, scratch: Path) -> Iterator[tuple[int, Trial]]:
    """(hidden index, trial) for every held-out class that applies to the task's outputs."""
    ctx = context([e.output for e in (*task.hidden, *task.public)], task.tolerances)
    for i, h in enumerate(task.hidden):
        rng = random.Random(f"swr-heldout:{seed}:{task.id}:{i}")
        ref = Reference(h.output, h.files)
        others = [(f"hidden scenario {o.index}", o.output) for o in task.hidden if o is not h]
        others += [(f"public example {o.index}", o.output) for o in task.public]
        for t in structured_trials(ref, others, ctx, rng, per_class):
            yield i, t
        for t in geometry_trials(ref, task.tolerances, rng, scratch):
            yield i, t


def audit_heldout_task(root: Path, per_class: int, seed: int) -> dict[str, Any]:
    """Counts per (class, stratum) and every wrong decision of one task (a process-pool unit)."""
    task = load_workflow_task(root)
    counts: dict[str, dict[str, Any]] = {}
    wrong: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="swr-heldout-") as scratch:
        for i, t in task_trials(task, per_class, seed, Path(scratch)):
            h = task.hidden[i]
            res = judge_scenario(
                Reference(h.output, h.files),
                Execution(0, t.stdout, artifacts=t.files),
                task.tolerances,
                split="hidden",
                index=i,
            )
            key = f"{t.klass}|{stratum(t)}"
            c = counts.setdefault(
                key,
                {"name": t.klass, "stratum": stratum(t), "valid": t.valid, "trials": 0, "accepted": 0, "rejected": 0},
            )
            c["trials"] += 1
            c["accepted" if res["pass"] else "rejected"] += 1
            if res["pass"] != t.valid:
                wrong.append(
                    {
                        "task": task.id,
                        "hidden": i,
                        "class": t.klass,
                        "stratum": stratum(t),
                        "field": t.field,
                        "detail": t.detail,
                        "valid": t.valid,
                        "accepted": res["pass"],
                        "label": res["label"],
                    }
                )
    return {"task": task.id, "counts": counts, "wrong": wrong}


def _rate(trials: int, fa: int, fr: int) -> dict[str, Any]:
    correct = trials - fa - fr
    lo, hi = wilson(correct, trials)
    return {
        "trials": trials,
        "false_accepts": fa,
        "false_rejects": fr,
        "correct": correct,
        "correct_rate": correct / trials if trials else 1.0,
        "wilson95": [lo, hi],
    }


def summarise_heldout(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 12: one row per stratum and one for all trials; the classes behind them; the wrong decisions."""
    total: dict[str, dict[str, Any]] = {}
    for part in parts:
        for key, c in part["counts"].items():
            t = total.setdefault(key, {**c, "trials": 0, "accepted": 0, "rejected": 0})
            for k in ("trials", "accepted", "rejected"):
                t[k] += c[k]
    classes = sorted(total.values(), key=lambda c: (STRATA.index(c["stratum"]), c["name"]))
    strata = []
    for s in STRATA:
        rows = [c for c in classes if c["stratum"] == s]
        fa = sum(c["accepted"] for c in rows if not c["valid"])
        fr = sum(c["rejected"] for c in rows if c["valid"])
        strata.append({"stratum": s, **_rate(sum(c["trials"] for c in rows), fa, fr)})
    wrong = [w for p in parts for w in p["wrong"]]
    every = _rate(
        sum(s["trials"] for s in strata),
        sum(s["false_accepts"] for s in strata),
        sum(s["false_rejects"] for s in strata),
    )
    return {
        **every,
        "strata": strata,
        "all": {"stratum": "all held-out trials", **every},
        "classes": classes,
        "wrong_decisions": wrong[:MAX_WRONG],
        "wrong_decisions_total": len(wrong),
        "tasks_without_trials": sorted(p["task"] for p in parts if not p["counts"]),
    }


def held_out_audit(release: Path, *, jobs: int = 2) -> dict[str, Any]:
    """The frozen held-out set's new trials, graded; refuses (SwrError) if the generator changed since freezing."""
    record = load_freeze(release)
    roots = [task_dir(release, t) for t in record["held_out"]]
    per_class, seed = int(record["trials_per_class"]), int(record["seed"])
    parts = []
    if roots:
        with ProcessPoolExecutor(max(1, min(jobs, len(roots)))) as pool:
            parts = list(pool.map(audit_heldout_task, roots, [per_class] * len(roots), [seed] * len(roots)))
    changed = record.get("release_hash") != tree_hash(ReleasePaths(release).tasks)
    return {
        "release": str(release),
        "generator_hash": record["generator_hash"],
        "seed": seed,
        "tasks": len(roots),
        "high_risk": record["high_risk"],
        "trials_per_class": per_class,
        "verifier_changed_since_freeze": changed,
        "not_applicable": record.get("not_applicable", []),
        **summarise_heldout(parts),
    }
