"""The workflow kind (SWR): a wrapped program's workflow.toml built into variant tasks that the judge grades
against the reference's outputs. Its TaskKind: discovery, the gated build (locally or on Dask), its share of
release.json (the workflows and the gates block), the audits it takes part in, its verdict's table."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.kinds.protocol import BuildResult, Progress, Report
from swr.kinds.rewards import share
from swr.kinds.workflow.spec import SPEC_FILE
from swr.kinds.workflow.task import WORKFLOW_BRIEF, load_workflow_task
from swr.kinds.workflow.taskfile import WorkflowTaskFile
from swr.kinds.workflow.verdict import WorkflowVerdict

NOT_APPLICABLE = {
    "adequacy": "a workflow's reference is the program itself: it states no rules to mutate",
    "selfreport": "a workflow task is graded by the judge's field comparison, not by a verifier program",
    "verifier_consensus": "a workflow task has no verifier program: the consensus audit compares its outputs",
}
__all__ = ["KIND", "WORKFLOW_BRIEF", "WorkflowKind"]
EXECUTION = {"execution_failure", "missing_candidate"}  # labels of a scenario that did not run
SCHEMA = EXECUTION | {"parse_failure", "schema_failure"}  # labels of a scenario without a well-formed output


class WorkflowKind:
    """The workflow kind's TaskKind."""

    name = "workflow"
    marker = SPEC_FILE
    task_file = WorkflowTaskFile
    summary_key = "workflows"
    verdict_model = WorkflowVerdict

    def load(self, root: Path, meta: Any) -> Any:
        """A workflow task directory (its examples read)."""
        return load_workflow_task(root)

    def build(
        self, sources: Sequence[Path], staging: Path, options: Any, sandbox: Any, progress: Progress, report: Report
    ) -> list[BuildResult]:
        """Every workflow built into its gated variants (names unique across the build)."""
        from swr.kinds.workflow.spec import load_spec

        specs = [load_spec(d) for d in sources]
        names = [s.name for s in specs]
        if dup := sorted({n for n in names if names.count(n) > 1}):
            raise SwrError(f"workflow name {dup[0]!r} is used by more than one workflow", field="name")
        return list(_workflows(specs, staging, options, sandbox, progress, report))

    def release_summary(self, results: Sequence[BuildResult], sources: Sequence[Path]) -> dict[str, Any]:
        """The workflows (by name; present even when none was built) and the gates block of release.json."""
        from swr.kinds.workflow.gates import GATES

        return {
            "workflows": sorted((r.summary() for r in results), key=lambda w: w["name"]),
            "gates": {
                "gates": list(GATES),
                "workflows_built": sum(not r.failure for r in results),
                "workflows_failed": sum(bool(r.failure) for r in results),
            },
        }

    def not_applicable(self, audit: str) -> str | None:
        """Every audit but the verifier-program ones applies to workflow tasks."""
        return NOT_APPLICABLE.get(audit)

    def verdict_table(self, verdict: Any) -> Any:
        """Per scenario: result, label, fields matched and the first difference."""
        from swr.kinds.workflow.render import workflow_verdict_table

        return workflow_verdict_table(verdict)

    def harbor_reward(self, verdict: Any) -> Mapping[str, float]:
        """Hidden scenarios that ran, that were well formed, r_hid, and no anti-shortcut finding."""
        hidden = [s for s in verdict.scenarios if s.split == "hidden"]
        return {
            "execution": share(sum(not EXECUTION & set(s.labels) for s in hidden), len(hidden)),
            "schema": share(sum(not SCHEMA & set(s.labels) for s in hidden), len(hidden)),
            "semantic": float(verdict.r_hid or 0.0),
            "anti_shortcut": 0.0 if verdict.anti_shortcut else 1.0,
            "reward": 1.0 if verdict.passed else 0.0,
        }

    def score_row(self, meta: Any) -> dict[str, str] | None:
        """None: workflow tasks have no row in a score table (Table 2 is the engines')."""
        return None

    def score_table(self, table: dict[str, Any]) -> Any:
        """Never asked: its tasks have no rows."""
        return None


def _timed(fn: Callable[[], Any]) -> Any:
    """The result with its wall time, for progress lines."""
    t0 = time.monotonic()
    res = fn()
    res.wall_s = time.monotonic() - t0
    return res


def _workflows(
    specs: list[Any], staging: Path, opts: Any, sandbox: Any, progress: Progress, report: Report
) -> list[Any]:
    """Every workflow built (results in `specs` order): `jobs` at a time here, each running its executions
    one at a time (a lone workflow gets the `jobs`), those that run system programs (`requires.apt`: the
    slowest executions) first so that none is left alone on one core at the end; or on Dask workers (where
    progress counts whole workflows, since their executions happen out of sight)."""
    from swr.kinds.workflow.build import build_workflow

    def reported(res: Any) -> Any:
        report(res)
        return res

    if opts.executor == "dask":
        from swr.kinds.workflow.distributed import build_on_dask

        def returned(res: Any) -> None:
            report(res)
            progress(1, 0)

        progress(0, len(specs))
        return build_on_dask(specs, staging, opts, returned)
    at_once = max(1, min(opts.jobs, len(specs)))
    each = replace(opts, jobs=max(1, opts.jobs // at_once))  # one at a time beside others: one import per role

    def one(spec: Any) -> Any:
        with ThreadPoolExecutor(each.jobs) as runs:
            return build_workflow(spec, staging, each, sandbox, runs, progress)

    first = sorted(range(len(specs)), key=lambda i: not specs[i].requires.apt)  # stable: then in `specs` order
    with ThreadPoolExecutor(at_once) as workflows:
        done = dict(zip(first, workflows.map(lambda i: reported(_timed(lambda: one(specs[i]))), first)))
    return [done[i] for i in range(len(specs))]


KIND = WorkflowKind()
