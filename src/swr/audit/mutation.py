"""`swr audit mutation`: the verifier's stress test. Every mutant of every hidden reference is graded
by the judge; a decision is correct when it accepts the valid and rejects the invalid."""

from __future__ import annotations

import random
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from swr import kinds
from swr.core.release_dir import list_tasks
from swr.judge import Execution, judge_scenario
from swr.judge.artifacts import artifact_kind, compare_artifact
from swr.judge.artifacts.fields import Reference, artifact_leaves, get_at, safe_file, substitute
from swr.judge.decision import parse_output, reference_view
from swr.kinds.workflow.coderun import lazy_runner
from swr.kinds.workflow.reference import Runner
from swr.kinds.workflow.task import Task, load_workflow_task
from swr.sandbox import get_sandbox

from .artifact_mutants import SEQUENCE_BY_OPTIONS, SEQUENCE_PCAP_VALID, artifact_mutants
from .mesh_mutants import load_mesh, mesh_mutants, near_shape
from .mutants import (
    FieldStats,
    Mutant,
    at_field_scale,
    other_scenarios,
    perturbations,
    precision_limited,
    reserialised,
    structural,
)
from .oracle import within

MAX_EXAMPLES = 20
MAX_AXES = 32  # input axes re-executed per hidden scenario


def wilson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion k/n, scipy's (exactly 0 and 1 at the ends). n = 0 gives the
    whole [0, 1]: no trial says nothing, where binomtest refuses n = 0. scipy.stats is imported here, not
    at the top: it takes about a second, which every `swr` command would pay."""
    if n == 0:
        return 0.0, 1.0
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def task_mutants(task: Task, per_class: int, scratch: Path, seed: int = 0) -> Iterator[tuple[int, Mutant]]:
    """(hidden index, mutant) for every mutation class that applies to the task's outputs."""
    refs = [Reference(h.output, h.files) for h in task.hidden]
    public = [Reference(p.output, p.files) for p in task.public]
    tol = task.tolerances
    stats = FieldStats.of([r.output for r in public + refs], [e.scenario for e in task.public + task.hidden], tol)
    for i, ref in enumerate(refs):
        rng = random.Random(f"{seed}:{task.id}:{i}")
        others = refs[:i] + refs[i + 1 :]
        for gen in (
            perturbations(ref, tol, rng, per_class),
            structural(ref, tol),
            reserialised(ref, tol),
            other_scenarios(ref, others, tol),
            at_field_scale(ref, public + others, tol, stats, per_class),
            precision_limited(ref, tol, stats, rng),
            mesh_mutants(ref, tol, rng, scratch, public),
            artifact_mutants(ref, tol, scratch),
        ):
            for m in gen:
                yield i, m


def _klass(m: Mutant, designed_valid: bool | None) -> str:
    """Mutants that land on the other side of the tolerance than their class intends get their own row."""
    if designed_valid is None or designed_valid == m.valid:
        return m.klass
    return f"{m.klass} ({'inside' if m.valid else 'outside'} tolerance)"


DESIGNED_VALID = {
    "reserialise_key_order": True,
    "reserialise_float_format": True,
    "reserialise_int_as_float": True,
    "mesh_facet_reorder": True,
    "mesh_reencode": True,
    "mesh_ascii_stl": True,
    "mesh_facet_winding": False,
    "mesh_precision_limited": True,
    "precision_limited_reference": True,
    "perturb_0.5x_tolerance": True,
    "perturb_0.9x_tolerance": True,
    "perturb_0.99x_tolerance": True,
    "table_missing_as_NaN": True,
    "table_missing_as_NA": True,
    "table_missing_as_empty": True,
    "table_parquet_index_column": True,
    "table_parquet_named_index": True,
    "html_void_tags_toggled": True,
    "image_png_reencoded": True,
    "code_reformatted": True,
    "code_renamed_variables": True,
    **dict.fromkeys(sorted(SEQUENCE_PCAP_VALID), True),
}
# classes whose validity depends on the task: judged per mutant, never given an "(inside tolerance)" row
DEPENDS = frozenset({"mesh_rigid_translation", "mesh_public_scenario", *SEQUENCE_BY_OPTIONS})


def designed_valid(klass: str) -> bool | None:
    """The validity a mutant class is built to have; None for the classes whose validity depends on the task."""
    return None if klass in DEPENDS else DESIGNED_VALID.get(klass, False)


def grade_mutants(task: Task, mutants: Iterator[tuple[int, Mutant]], sandbox: str = "bwrap") -> dict[str, Any]:
    """Counts per class and the first wrong decisions of one task; a code artifact's mutant runs in `sandbox`."""
    runner = lazy_runner(sandbox)
    counts: dict[str, dict[str, Any]] = {}
    wrong: list[dict[str, Any]] = []
    for i, m in mutants:
        h = task.hidden[i]
        res = judge_scenario(
            Reference(h.output, h.files),
            Execution(0, m.stdout, artifacts=m.files, trusted=True, runner=runner),
            task.tolerances,
            split="hidden",
            index=i,
        )
        name = _klass(m, designed_valid(m.klass))
        c = counts.setdefault(name, {"valid": m.valid, "trials": 0, "accepted": 0, "rejected": 0})
        c["trials"] += 1
        c["accepted" if res["pass"] else "rejected"] += 1
        if res["pass"] != m.valid and len(wrong) < MAX_EXAMPLES:
            wrong.append(
                {
                    "task": task.id,
                    "hidden": i,
                    "class": name,
                    "valid": m.valid,
                    "accepted": res["pass"],
                    "mismatches": res["mismatches"][:3],
                }
            )
    return {"counts": counts, "wrong": wrong}


def audit_task(root: Path, per_class: int, seed: int = 0, sandbox: str = "bwrap") -> dict[str, Any]:
    task = load_workflow_task(root)
    with tempfile.TemporaryDirectory(prefix="swr-mutants-") as scratch:
        return grade_mutants(task, task_mutants(task, per_class, Path(scratch), seed), sandbox)


def ignored_axis_mutants(tasks: list[Task], sandbox_name: str) -> Iterator[tuple[Task, int, Mutant]]:
    """One hidden input axis set to a public value and the reference re-executed: what a reconstruction
    that ignores that axis would print. Valid only when the output does not change beyond tolerance."""
    by_workflow: dict[str, list[Task]] = defaultdict(list)
    for t in tasks:
        by_workflow[t.meta.workflow].append(t)
    sandbox = get_sandbox(sandbox_name)
    for group in by_workflow.values():
        runner = Runner(group[0].reference_spec(), sandbox)
        try:
            for t in group:
                yield from _axis_mutants(t, runner)
        finally:
            runner.close()


def _axis_mutants(task: Task, runner: Runner) -> Iterator[tuple[Task, int, Mutant]]:
    """Every input axis in turn (up to MAX_AXES per scenario): the axis set to a public scenario's other
    value, the rest of the hidden scenario kept. Axes no public scenario varies, or whose swap makes the
    reference fail, give no mutant."""
    for i, h in enumerate(task.hidden):
        for axis in sorted(h.scenario)[:MAX_AXES]:
            swap = next(
                (p.scenario[axis] for p in task.public if axis in p.scenario and p.scenario[axis] != h.scenario[axis]),
                None,
            )
            if swap is None:
                continue
            res = runner.run({**h.scenario, axis: swap})
            if not res.ok:
                continue
            out, _ = parse_output(res.stdout)
            valid = out is not None and same_output(
                Reference(h.output, h.files), Reference(out, res.artifacts), task.tolerances
            )
            yield task, i, Mutant("ignored_axis_reexecuted", valid, res.stdout, res.artifacts, axis)


# Formats whose comparator defines what is the same file by design (documentation text, order and encoding free):
# a re-executed file differing from the reference only where the format says nothing is still a right answer.
SEMANTIC_KINDS = frozenset({"scidata", "config", "sequence", "pcap"})


def same_output(ref: Reference, other: Reference, tol: Any) -> bool:
    """Whether a re-executed output is still a right answer, by the audit's own rules: graded leaves within
    tolerance, meshes one shape to their declared distance tolerance (near_shape), scientific data, configuration
    files, sequences and captures equal as their format defines (a VCF's FILTER description is documentation),
    other files identical."""
    special = [(p, n) for p, n in artifact_leaves(ref, tol) if artifact_kind(Path(n)) == "mesh" or _semantic(Path(n))]
    if not special:
        return within(reference_view(ref, tol), reference_view(other, tol), tol)
    assert ref.files is not None  # artifact_leaves finds none without a files directory
    if not within(
        substitute(reference_view(ref, tol), special, None, "mask"),
        substitute(reference_view(other, tol), special, None, "mask"),
        tol,
    ):
        return False
    for path, name in special:
        got = get_at(other.output, path)
        theirs = safe_file(other.files, got) if isinstance(got, str) else None
        if theirs is None or not _same_file(ref.files / name, theirs, path, tol):
            return False
    return True


def _semantic(name: Path) -> bool:
    return artifact_kind(name) in SEMANTIC_KINDS


def _same_file(ours: Path, theirs: Path, path: Any, tol: Any) -> bool:
    atol, rtol = tol.for_path(path)
    if artifact_kind(ours) == "mesh":
        return near_shape(load_mesh(ours), load_mesh(theirs), tol.options_for(path), atol, rtol)
    return compare_artifact(ours, theirs, atol=atol, rtol=rtol, options=tol.options_for(path)).ok


def summarise(parts: list[dict[str, Any]]) -> dict[str, Any]:
    total: dict[str, dict[str, Any]] = {}
    wrong: list[dict[str, Any]] = []
    for part in parts:
        for name, c in part["counts"].items():
            t = total.setdefault(name, {"valid": c["valid"], "trials": 0, "accepted": 0, "rejected": 0})
            for k in ("trials", "accepted", "rejected"):
                t[k] += c[k]
        wrong += part["wrong"]
    classes = []
    for name, c in sorted(total.items()):
        correct = c["accepted"] if c["valid"] else c["rejected"]
        lo, hi = wilson(correct, c["trials"])
        classes.append(
            {
                "name": name,
                **c,
                "correct": correct,
                "correct_rate": correct / c["trials"] if c["trials"] else 1.0,
                "wilson95": [lo, hi],
            }
        )
    return {
        "trials": sum(c["trials"] for c in classes),
        "classes": classes,
        "false_accepts": sum(c["accepted"] for c in classes if not c["valid"]),
        "false_rejects": sum(c["rejected"] for c in classes if c["valid"]),
        "wrong_decisions": wrong[:MAX_EXAMPLES],
    }


def mutation_audit(
    release: Path, *, per_class: int = 3, jobs: int = 2, reexecute: bool = True, sandbox: str = "bwrap", seed: int = 0
) -> dict[str, Any]:
    """Stress-test every task of a release; `reexecute` adds the ignored-axis class (runs the reference)."""
    roots, not_applicable = kinds.covered(list_tasks(release), "mutation")
    with ProcessPoolExecutor(max(1, jobs)) as pool:
        n = len(roots)
        parts = list(pool.map(audit_task, roots, [per_class] * n, [seed] * n, [sandbox] * n, chunksize=4))
    if reexecute:
        tasks = [load_workflow_task(r) for r in roots]
        for task, i, m in ignored_axis_mutants(tasks, sandbox):
            parts.append(grade_mutants(task, iter([(i, m)]), sandbox))
    return {"release": str(release), "tasks": len(roots), **summarise(parts), "not_applicable": not_applicable}
