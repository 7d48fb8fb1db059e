"""`swr run`: (task, agent, attempt) runs in fresh workspaces, graded, recorded once each; running the
same command again resumes (only runs with no record or an infrastructure failure run again)."""

from __future__ import annotations

import fnmatch
import json
import os
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from swr import kinds
from swr.core.errors import SwrError
from swr.core.hashing import content_hash, tree_hash
from swr.core.layout import JobPaths, RunPaths, results_db
from swr.core.release_dir import list_tasks, load_release
from swr.harness.fingerprint import public_hash
from swr.judge import missing_candidate
from swr.kinds.verdict import Verdict, parse_verdict, run_outcome
from swr.sandbox import Limits, Sandbox, sandbox_for, tree
from swr.sandbox.capped import capped_dir, unmount

from . import anticheat, workspace
from .agents import ORACLE, Budget, Context, InfraError, make_agent, supervise
from .executor import executor_for
from .store import RunRecord, Store, private

LOGS_KEPT = tree.Bounds(depth=16, entries=10_000, bytes=256 << 20)


@dataclass(kw_only=True)
class JobConfig:
    release: Path
    agent: str
    model: str | None = None
    attempts: int = 1
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    budget: Budget = field(default_factory=Budget)
    job: str | None = None
    jobs_dir: Path = Path("jobs")
    concurrency: int = 2  # how, not what: may change between a run and its resume
    executor: str = "local"
    scheduler: str | None = None
    sandbox: str = "bwrap"
    image: str = "auto"  # podman/docker: auto (the task's image, else built from its environment), host, or a name
    retries: int = 1  # extra tries for an infrastructure failure within one invocation
    cheat_policy: str = "fail"  # fail | record
    agent_options: dict[str, Any] = field(default_factory=dict)

    def what(self) -> dict[str, Any]:
        """The settings that change results: they, and the task's content, key every run."""
        what = {
            "agent": self.agent,
            "model": self.model,
            "budget": self.budget.as_dict(),
            "options": self.agent_options,
            "cheat_policy": self.cheat_policy,
        }
        return what | ({"image": self.image} if self.sandbox in ("podman", "docker") else {})

    @property
    def name(self) -> str:
        if self.job:
            return self.job
        return f"{self.agent}-{self.model or 'none'}-{content_hash(self.what())[:8]}"


@dataclass(frozen=True)
class Planned:
    task_root: Path
    task: str
    task_hash: str
    attempt: int
    key: str


def plan(cfg: JobConfig) -> list[Planned]:
    """Every (task, attempt) the job is made of, after the include and exclude globs."""
    load_release(cfg.release)  # a usable release, or a one-line error
    if cfg.cheat_policy not in ("fail", "record"):
        raise SwrError(f"unknown policy {cfg.cheat_policy!r}: fail or record", field="--cheat-policy")
    check_agent(cfg)
    if cfg.name.startswith("/") or any(p in ("", ".", "..") for p in cfg.name.split("/")):
        raise SwrError(f"{cfg.name!r} is not a job name: it names its directory under --jobs-dir", field="--job")
    out = []
    for root in list_tasks(cfg.release):
        tid = root.name
        if cfg.include and not any(fnmatch.fnmatch(tid, g) for g in cfg.include):
            continue
        if any(fnmatch.fnmatch(tid, g) for g in cfg.exclude):
            continue
        th = tree_hash(root)
        for a in range(1, cfg.attempts + 1):
            out.append(Planned(root, tid, th, a, content_hash({"task": th, **cfg.what(), "attempt": a})))
    if not out:
        raise SwrError("no task matches the --include/--exclude globs", file=cfg.release)
    return out


def check_agent(cfg: JobConfig) -> None:
    """The agent made once from its name and options before any run: an unknown agent or a missing or
    malformed option is one line (exit 2) here, not an infrastructure failure recorded for every run."""
    try:
        make_agent(cfg.agent, cfg.agent_options)
    except (TypeError, ValueError) as e:  # e.g. `--ak request_timeout=soon`
        raise SwrError(f"agent {cfg.agent}: bad option: {e}", field="--ak") from None


def run_dir(cfg: JobConfig, key: str) -> RunPaths:
    """What one run of the job keeps (solution, diff, trajectory, agent logs)."""
    return JobPaths(cfg.jobs_dir, cfg.name).run(key)


def execute(cfg: JobConfig, p: Planned) -> RunRecord:
    """One run, start to verdict; never raises (an infrastructure failure is a record too), and leaves
    no workspace behind."""
    t0 = time.monotonic()
    base = RunRecord(
        key=p.key,
        job=cfg.name,
        task=p.task,
        task_hash=p.task_hash,
        agent=cfg.agent,
        model=cfg.model,
        attempt=p.attempt,
        status="infra_failure",
    )
    d = run_dir(cfg, p.key)
    try:
        _discard(d)  # a half-finished run of a killed job (its live tmpfs too)
        with capped_dir(d.live, Limits().disk_bytes, executable=True):  # a capped tmpfs when root
            return _execute(cfg, p, base, d, t0)
    except (InfraError, SwrError, OSError) as e:
        base.error = f"{type(e).__name__}: {e}"
    except Exception:  # noqa: BLE001 - a harness bug must not lose the job
        base.error = traceback.format_exc()[-2000:]
    finally:
        _discard(RunPaths(d.live))
    base.wall_s = time.monotonic() - t0
    return base


def _execute(cfg: JobConfig, p: Planned, base: RunRecord, d: RunPaths, t0: float) -> RunRecord:
    """The run itself: workspace, the agent under its time limit, anti-cheat and diff on one snapshot,
    grading of the copy that leaves the workspace, the records kept."""
    task = kinds.load(p.task_root)
    base.family, base.domain = task.meta.family, task.meta.domain
    sandbox = sandbox_for(cfg.sandbox, task.environment, cfg.image)
    ws = workspace.create(task, d.workspace)
    out = supervise(
        make_agent(cfg.agent, cfg.agent_options),
        Context(task, ws, sandbox, cfg.budget, cfg.model, p.attempt, cfg.agent_options),
    )
    notes = list(out.notes)
    end = workspace.snapshot(ws.root, notes, always=ws.start)
    cheats = anticheat.inspect(ws, task, out.trajectory, end, out.observed)
    d.diff.write_text(workspace.diff(ws, end))
    v = _grade_solution(task, ws, d, sandbox, notes, reference=cfg.agent == ORACLE)
    notes += _keep_logs(d)
    if out.trajectory is not None:
        d.trajectory.write_text(json.dumps(out.trajectory, indent=1))
    passed, label, labels = run_outcome(v, out.limit, bool(cheats), cfg.cheat_policy)
    return replace(  # the run's identity, family and domain as `base` holds them
        base,
        status="done",
        passed=passed,
        label=label,
        labels=labels,
        verdict=v,
        turns=out.turns,
        input_tokens=out.input_tokens,
        output_tokens=out.output_tokens,
        cost=out.cost,
        wall_s=time.monotonic() - t0,
        cheats=cheats + notes,
    )


def _grade_solution(
    task: kinds.AnyTask,
    ws: workspace.Workspace,
    d: RunPaths,
    sandbox: Sandbox,
    notes: list[dict[str, Any]],
    reference: bool = False,
) -> Verdict:
    """Grade the copy of solution/ kept next to the records, which holds exactly what anti-cheat and the
    diff read (no link followed, no special file); a solution/ that cannot be copied out is missing.
    `reference`: the built-in oracle agent wrote it, host-side, from the task's own reference."""
    try:
        notes += workspace.export_solution(ws, d.solution)
    except tree.Rejected as e:
        tree.remove_tree(d.solution)
        return parse_verdict(missing_candidate(task.id, str(e)))
    return task.grade(d.solution, sandbox, split="all", reference=reference)


def _keep_logs(d: RunPaths) -> list[dict[str, Any]]:
    """An agent's own logs dir, made as safe to keep as its solution (it wrote there from the sandbox)."""
    if not os.path.lexists(d.live_logs):
        return []
    try:
        return tree.export(d.live_logs, d.logs, LOGS_KEPT, strict=False)
    except tree.Rejected as e:
        return [{"kind": "not_kept", "path": d.logs.name, "reason": str(e)}]


def _discard(d: RunPaths) -> None:
    """What the agent had goes once the run is recorded (bounded removal; a live tmpfs left mounted by
    a killed job is detached first)."""
    if os.path.ismount(d.live):
        unmount(d.live)
    try:
        tree.remove_tree(d.root)
    except OSError:
        pass


Progress = Callable[[RunRecord], None]


def _check_job_dir(cfg: JobConfig) -> None:
    """The job's directory is its own (new, empty, or a job the store knows) before anything is made,
    made private or removed: `--jobs-dir .` beside a user's folder of the job's name leaves it alone."""
    root = JobPaths(cfg.jobs_dir, cfg.name).root
    if root.is_symlink() or (root.exists() and not root.is_dir()):
        raise SwrError("is not a directory of this job: choose another --job or --jobs-dir", file=root)
    if root.is_dir() and any(root.iterdir()) and not _known(cfg):
        raise SwrError("exists and is no job of this results store: choose another --job or --jobs-dir", file=root)


def _known(cfg: JobConfig) -> bool:
    """Whether the jobs directory's store has a job of this name (no store: none, and none is made)."""
    if not results_db(cfg.jobs_dir).is_file():
        return False
    store = Store(cfg.jobs_dir, create=False)
    try:
        return store.job(cfg.name) is not None
    finally:
        store.close()


def run_job(cfg: JobConfig, progress: Progress = lambda r: None) -> list[RunRecord]:
    """Run what is missing, retrying infrastructure failures; returns every record of the job."""
    planned = plan(cfg)
    _check_job_dir(cfg)
    store = Store(cfg.jobs_dir)
    try:
        private(JobPaths(cfg.jobs_dir, cfg.name).root)
        store.put_job(
            cfg.name,
            {
                **cfg.what(),
                "release": str(cfg.release),
                "attempts": cfg.attempts,
                "planned": [[p.task, p.attempt, p.key] for p in planned],
            },
        )
        done = store.finished(cfg.name)
        todo = [p for p in planned if p.key not in done]
        tries = {p.key: 0 for p in todo}
        with executor_for(cfg) as pool:
            while todo:
                retry = []
                for p, rec in pool.map(execute, cfg, todo):
                    tries[p.key] += 1
                    rec.tries = tries[p.key]
                    rec.public_hash = public_hash(p.task_root)  # what the agent was shown: `swr regrade`
                    store.put_run(rec)
                    progress(rec)
                    if rec.status == "infra_failure" and tries[p.key] <= cfg.retries:
                        retry.append(p)
                todo = retry
        return store.runs(cfg.name)
    finally:
        store.close()
