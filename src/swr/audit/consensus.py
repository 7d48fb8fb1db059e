"""`swr audit consensus`: independent candidates that agree with each other and not with the
reference point at the reference, not at them."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, cast

from swr import kinds
from swr.core.release_dir import list_tasks
from swr.judge.artifacts.fields import Reference
from swr.judge.decision import parse_output, reference_view
from swr.kinds.engine.check import dig
from swr.kinds.engine.feedback import differences
from swr.kinds.engine.grading import run_candidate
from swr.kinds.engine.task import EngineTask
from swr.kinds.workflow.grading import candidate_problem, execute
from swr.kinds.workflow.task import Task
from swr.sandbox import get_sandbox

from .oracle import leaf_within, leaves

AGREE = 1e-6  # engine outputs agree when every numeric leaf is this close (relative) and the rest equal
ADVICE_ENGINE = (
    "solve this case again by the method the specification prescribes and compare with the reference "
    "tool's output by hand: the expected values, the verifier's conventions or the spec may be wrong"
)
ADVICE = (
    "re-run the reference on this scenario and recompute the field by hand from its definition; check units, "
    "sign and angle conventions, and that the generating path (workflow) and the grading path (output field) "
    "compute the same quantity"
)


def candidate_for(root: Path, task: kinds.AnyTask) -> Path | None:
    """A candidate directory for this task: ROOT itself if it has a `run`, else ROOT/<task-id>."""
    for d in (root, root / task.id):
        if candidate_problem(d) is None:
            return d
    return None


def _outputs(task: Task, cand: Path, sandbox: Any, scratch: Path) -> list[Any]:
    """The candidate's hidden outputs as equality checks see them (None where it failed)."""
    scratch.mkdir()
    outs: list[Any] = []
    for i, h in enumerate(task.hidden):
        ex = execute(task, cand, h.scenario, sandbox, scratch / str(i))
        doc, _ = parse_output(ex.stdout) if ex.returncode == 0 and ex.limit is None else (None, None)
        outs.append(None if doc is None else reference_view(Reference(doc, ex.artifacts), task.tolerances))
    return outs


def task_consensus(
    task: Task, candidates: list[Path], sandbox: Any, scratch: Path, quorum: int
) -> list[dict[str, Any]]:
    tol = task.tolerances
    runs = [_outputs(task, c, sandbox, scratch / str(k)) for k, c in enumerate(candidates)]
    flags = []
    for i, h in enumerate(task.hidden):
        ref = dict(leaves(reference_view(Reference(h.output, h.files), tol), tol))
        cand = [dict(leaves(r[i], tol)) if r[i] is not None else {} for r in runs]
        for path, rv in ref.items():
            off = [k for k, c in enumerate(cand) if path in c and not leaf_within(rv, c[path], tol, path)]
            best = max(
                ({k} | {m for m in off if leaf_within(cand[k][path], cand[m][path], tol, path)} for k in off),
                key=len,
                default=set(),
            )
            if len(best) >= quorum:
                k = min(best)
                flags.append(
                    {
                        "task": task.id,
                        "hidden": i,
                        "field": ".".join(map(str, path)),
                        "reference": rv,
                        "consensus": cand[k][path],
                        "candidates": sorted(candidates[m].as_posix() for m in best),
                        "advice": ADVICE,
                    }
                )
    return flags


def engine_consensus(task: EngineTask, candidates: list[Path], sandbox: Any, quorum: int) -> list[dict[str, Any]]:
    """Per hidden case: candidates whose outputs agree with each other (every leaf within AGREE, relative)
    and not with the reference's output on that case."""
    spec = task.spec
    flags = []
    for case in task.hidden:
        ref = run_candidate(spec, task.reference_dir, case, sandbox).output
        outs = [run_candidate(spec, c, case, sandbox).output for c in candidates]
        off = [k for k, o in enumerate(outs) if o is not None and not _agree(ref, o)]
        best = max(({k} | {m for m in off if _agree(outs[k], outs[m])} for k in off), key=len, default=set())
        if len(best) >= quorum:
            field = next((p for p, _ in differences(ref, outs[min(best)])), ".")
            flags.append(
                {
                    "task": task.id,
                    "hidden": case["id"],
                    "field": field,
                    "reference": dig(ref, field),
                    "consensus": dig(outs[min(best)], field),
                    "candidates": sorted(candidates[m].as_posix() for m in best),
                    "advice": ADVICE_ENGINE,
                }
            )
    return flags


def _agree(a: Any, b: Any) -> bool:
    return all(d is not None and d <= AGREE for _, d in differences(a, b))


def consensus_audit(
    release: Path, candidates: list[Path], *, quorum: int = 2, sandbox: str = "bwrap"
) -> dict[str, Any]:
    sb = get_sandbox(sandbox)
    flags: list[dict[str, Any]] = []
    seen = 0
    with tempfile.TemporaryDirectory(prefix="swr-consensus-") as tmp:
        roots = list_tasks(release)
        outputs, others = kinds.covered(roots, "consensus")  # compared field by field
        skipped = {o["task"] for o in others}
        verifiers, not_applicable = kinds.covered([r for r in roots if r.name in skipped], "verifier_consensus")
        checked_by_verifier = set(verifiers)
        for n, root in enumerate(r for r in roots if r in checked_by_verifier or r in outputs):
            task = kinds.load(root)
            found = [c for c in (candidate_for(p, task) for p in candidates) if c is not None]
            if len(found) < quorum:
                continue
            seen += 1
            if root in checked_by_verifier:
                flags += engine_consensus(task, found, sb, quorum)  # type: ignore[arg-type]
                continue
            scratch = Path(tmp) / str(n)
            scratch.mkdir()
            flags += task_consensus(cast(Task, task), found, sb, scratch, quorum)
    return {
        "release": str(release),
        "tasks_compared": seen,
        "quorum": quorum,
        "flags": flags,
        "not_applicable": not_applicable,
    }
