"""`swr regrade`: re-score a job's recorded final solutions with a fixed release's verifiers (ReviveBench §8).
A run whose task's public part changed in the fix is marked `needs_rerun` instead: its agent was shown
different information. Regrades are stored beside the runs, which keep their own verdicts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from swr import kinds
from swr.core.errors import SwrError
from swr.core.hashing import tree_hash
from swr.core.layout import JobPaths, ReleasePaths
from swr.core.release_dir import load_release
from swr.harness.agents import ORACLE
from swr.harness.fingerprint import public_hash
from swr.harness.store import RegradeRecord, RunRecord, Store
from swr.judge import missing_candidate
from swr.kinds.verdict import ANTI_CHEAT, parse_verdict, run_outcome
from swr.sandbox import sandbox_for


def _harness_labels(r: RunRecord) -> tuple[str | None, bool]:
    """The agent's limit and the anti-cheat finding: the labels the run added after its verdict's own."""
    extra = r.labels[len(r.verdict.labels) if r.verdict else 0 :]
    return next((x for x in extra if x != ANTI_CHEAT), None), ANTI_CHEAT in extra


def _public_hash_used(r: RunRecord, original: Path, fixed_root: Path) -> str | None:
    """The public fingerprint of the task the run was made on: recorded, else recomputed from a release
    whose task is still byte-identical to it (the job's own release, or the fixed one); None if unknown."""
    if r.public_hash:
        return r.public_hash
    for root in (ReleasePaths(original).task(r.task).root, fixed_root):
        if root.is_dir() and tree_hash(root) == r.task_hash:
            return public_hash(root)
    return None


def regrade_run(
    r: RunRecord,
    fixed: Path,
    release_id: str,
    original: Path,
    jobs_dir: Path,
    *,
    policy: str,
    sandbox: str,
    image: str,
    jobs: int,
) -> RegradeRecord:
    """One run against the fixed release: regraded, needs_rerun, or missing_task."""
    root = ReleasePaths(fixed).task(r.task).root
    g = RegradeRecord(key=r.key, release=release_id, job=r.job, release_path=str(fixed), status="missing_task")
    if not root.is_dir():
        g.reason = "the fixed release has no such task"
        return g
    g.public_hash = public_hash(root)
    used = _public_hash_used(r, original, root)
    if used != g.public_hash:
        g.status = "needs_rerun"
        g.reason = (
            "the task's public part (instruction, examples, schema, files) changed in the fix"
            if used
            else "no public fingerprint was recorded and the run's release has changed since"
        )
        return g
    task = kinds.load(root)
    solution = JobPaths(jobs_dir, r.job).run(r.key).solution
    v = (
        task.grade(
            solution, sandbox_for(sandbox, task.environment, image), split="all", jobs=jobs, reference=r.agent == ORACLE
        )
        if solution.is_dir()
        else parse_verdict(missing_candidate(task.id, "the run kept no solution"))
    )
    g.status, g.verdict = "regraded", v
    g.passed, g.label, g.labels = run_outcome(v, *_harness_labels(r), policy)
    return g


def _row(r: RunRecord, g: RegradeRecord) -> dict[str, Any]:
    changed = g.status == "regraded" and (r.passed, r.label) != (g.passed, g.label)
    return {
        "task": r.task,
        "attempt": r.attempt,
        "key": r.key,
        "status": g.status,
        "old_pass": r.passed,
        "old_label": r.label,
        "new_pass": g.passed,
        "new_label": g.label,
        "changed": changed,
        "flipped": g.status == "regraded" and r.passed != g.passed,
        "reason": g.reason,
    }


def regrade_job(
    jobs_dir: Path,
    job: str,
    fixed: Path,
    *,
    sandbox: str = "bwrap",
    jobs: int = 2,
    progress: Callable[[dict[str, Any]], None] = lambda row: None,
) -> dict[str, Any]:
    """Every finished run of the job, re-scored (or marked) against `fixed`; each result is stored."""
    load_release(fixed)  # a release, or one line saying why not
    release_id = tree_hash(ReleasePaths(fixed).tasks)
    store = Store(jobs_dir, create=False)
    try:
        cfg = store.job(job)
        if cfg is None:
            raise SwrError(f"no job named {job!r}", file=store.path)
        rows = []
        records = store.runs(job)
        for r in records:
            if r.status != "done":
                continue  # an infrastructure failure left no final solution to re-score
            g = regrade_run(
                r,
                fixed,
                release_id,
                Path(cfg["release"]),
                jobs_dir,
                policy=cfg.get("cheat_policy", "fail"),
                sandbox=sandbox,
                image=cfg.get("image", "auto"),
                jobs=jobs,
            )
            store.put_regrade(g)
            rows.append(_row(r, g))
            progress(rows[-1])
    finally:
        store.close()
    return summary(job, fixed, release_id, rows, skipped=len(records) - len(rows))


def summary(job: str, fixed: Path, release_id: str, rows: list[dict[str, Any]], skipped: int) -> dict[str, Any]:
    """Counts over the regrade, and the passes before and after over the runs actually regraded."""
    status = Counter(row["status"] for row in rows)
    regraded = [row for row in rows if row["status"] == "regraded"]
    return {
        "job": job,
        "release": str(fixed),
        "release_hash": release_id,
        "runs": rows,
        "regraded": status["regraded"],
        "needs_rerun": status["needs_rerun"],
        "missing_task": status["missing_task"],
        "infra_failures_skipped": skipped,
        "changed": sum(row["changed"] for row in rows),
        "fail_to_pass": sum(row["flipped"] and bool(row["new_pass"]) for row in rows),
        "pass_to_fail": sum(row["flipped"] and not row["new_pass"] for row in rows),
        "passed_before": sum(bool(row["old_pass"]) for row in regraded),
        "passed_after": sum(bool(row["new_pass"]) for row in regraded),
    }
