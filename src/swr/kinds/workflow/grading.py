"""Grading: run a candidate on a task's scenarios in the sandbox, then let the judge decide."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from swr.core.errors import SwrError
from swr.core.layout import CANDIDATE_RUN, TASK_TOML
from swr.judge import Execution, missing_candidate
from swr.judge.artifacts import ArtifactConfigError
from swr.judge.decision import Reference, decide, judge_scenario
from swr.kinds.workflow.coderun import sandbox_runner
from swr.kinds.workflow.fork_pool import Fresh
from swr.kinds.workflow.verdict import WorkflowVerdict
from swr.sandbox import WORKDIR, Job, Mount, Sandbox, run

if TYPE_CHECKING:
    from collections.abc import Callable

    from swr.kinds.workflow.spec import WorkflowSpec
    from swr.kinds.workflow.task import Example, Task

Split = Literal["all", "public", "hidden"]


def candidate_problem(candidate: Path) -> str | None:
    """Why a directory is not a runnable candidate, or None."""
    run_file = candidate / CANDIDATE_RUN
    if not candidate.is_dir():
        return f"{candidate} is not a directory"
    if not run_file.is_file():
        return f"{run_file} does not exist"
    if not os.access(run_file, os.X_OK):
        return f"{run_file} is not executable"
    return None


def execute(
    task: Task, candidate: Path, scenario: dict[str, Any], sandbox: Sandbox, files: Path, fresh: Fresh | None = None
) -> Execution:
    """One fresh sandboxed run of `./run`, with the task's files beneath the candidate's own;
    what it writes to $SWR_ARTIFACTS lands in `files`. `fresh`: the oracle's fork server, if it has one."""
    lower = (task.files_dir,) if task.files_dir else ()
    files.mkdir()
    stdin = (json.dumps(scenario) + "\n").encode()
    res = fresh(stdin, files) if fresh else None
    if res is None:
        job = Job(
            ["./run"],
            Mount(candidate.resolve(), WORKDIR, "overlay", lower),
            task.limits,
            artifacts=files,
            hidden=task.forbidden_packages,
        )
        res = run(sandbox, job, stdin)
    runner = sandbox_runner(sandbox, task.forbidden_packages)  # a code artifact runs where the candidate ran
    return Execution(res.returncode, res.stdout, res.stderr, res.limit, res.wall_s, files, runner=runner)


def grade(
    task: Task, candidate: Path, sandbox: Sandbox, *, split: Split = "all", jobs: int = 2, fresh: Fresh | None = None
) -> WorkflowVerdict:
    """The verdict of DESIGN.md: hidden split decides, public split reported (feedback: public only).
    Each scenario is judged as soon as its run returns and its files are dropped then: the host holds at
    most `jobs` runs' artifacts (each bounded by the task's disk limit), however many scenarios there are."""
    if problem := candidate_problem(candidate):
        return WorkflowVerdict.model_validate(missing_candidate(task.id, problem))
    hidden: list[Example] = task.hidden if split != "public" else []
    todo = [(ex, "hidden", i) for i, ex in enumerate(hidden)]
    todo += [(ex, "public", i) for i, ex in enumerate(task.public if split != "hidden" else [])]

    def one(tmp: Path, n: int) -> dict[str, Any]:
        ex, part, i = todo[n]
        files = tmp / str(n)
        try:
            run = execute(task, candidate, ex.scenario, sandbox, files, fresh)
            return judge_scenario(Reference(ex.output, ex.files), run, task.tolerances, split=part, index=i)
        finally:
            shutil.rmtree(files, ignore_errors=True)

    try:
        with (
            tempfile.TemporaryDirectory(prefix=f"swr-grade-{os.getpid()}-") as tmp,
            ThreadPoolExecutor(max(1, jobs)) as pool,
        ):
            judged = list(pool.map(lambda n: one(Path(tmp), n), range(len(todo))))
    except ArtifactConfigError as e:
        raise SwrError(f"artifact comparison: {e}", file=task.root / TASK_TOML, field="tolerances.fields") from None
    refs: Callable[[list[Example]], list[Reference]] = lambda exs: [Reference(ex.output, ex.files) for ex in exs]  # noqa: E731
    return WorkflowVerdict.model_validate(
        decide(
            task.id,
            judged[: len(hidden)],
            judged[len(hidden) :],
            refs(hidden),
            refs(task.public),
            task.tolerances,
            threshold=task.pass_threshold,
        )
    )


def oracle_verdict(
    task: Task,
    sandbox: Sandbox,
    jobs: int = 2,
    split: Split = "all",
    spec: WorkflowSpec | None = None,
    fresh: Fresh | None = None,
) -> WorkflowVerdict:
    """Grade the wrapped reference as a candidate (release gate 6, `-a oracle`); the build hands in the
    workflow it parsed, others read it from the task's private reference."""
    from swr.kinds.workflow.reference import write_oracle

    spec = spec or task.reference_spec()
    d = Path(tempfile.mkdtemp(prefix=f"swr-oracle-{os.getpid()}-"))
    try:
        write_oracle(spec, task.reference_dir, d / "candidate")
        return grade(task, d / "candidate", sandbox, split=split, jobs=jobs, fresh=fresh)
    finally:
        shutil.rmtree(d, ignore_errors=True)
