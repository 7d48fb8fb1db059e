"""The revival kind (ReviveBench revival): a project folder (revival.toml) built into a task, and its
[obfuscate] twin, graded by the project's hidden tests and probes in the target environment. Its TaskKind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from swr.core.layout import REVIVAL_TOML, ReleasePaths
from swr.kinds.protocol import BuildResult, Progress, Report
from swr.kinds.revival.task import load_revival_task
from swr.kinds.revival.taskfile import RevivalTaskFile
from swr.kinds.revival.verdict import RevivalVerdict
from swr.kinds.rewards import score, share

_PROJECT = "a revival task is graded by its project's own tests and probes"
NOT_APPLICABLE = {
    "replay": "a revival task has no public scenario outputs to copy: its verifier runs the project's tests and probes",
    "sensitivity": "a revival task has no sampled scenarios: its probes run fixed inputs",
    "mutation": f"{_PROJECT}, not by field tolerances",
    "lint": "a revival verifier is the project's own tests and probes, checked when its task is built",
    "selfreport": "a revival verifier is the project's own tests and probes, checked when its task is built",
    "consensus": "the recorded reference outputs are the untouched upstream project's, run natively: no "
    "reimplemented reference for agreeing candidates to indict",
    "verifier_consensus": "the recorded reference outputs are the untouched upstream project's, run natively: no "
    "reimplemented reference for agreeing candidates to indict",
    "adequacy": "a revival's rules are the original project's behaviour, recorded by its probes",
    "bundles": "graded by running a candidate program against task-specific checks; there is no single "
    "reference output to re-encode or mutate",
    "freeze": "graded by its own hidden verifier's checks, not by the output comparison these trials test",
}


class RevivalKind:
    """The revival kind's TaskKind."""

    name = "revival"
    marker = REVIVAL_TOML
    task_file = RevivalTaskFile
    summary_key = "revivals"
    verdict_model = RevivalVerdict

    def load(self, root: Path, meta: Any) -> Any:
        """A revival task directory (its private parts read when graded)."""
        return load_revival_task(root, meta)

    def build(
        self, sources: Sequence[Path], staging: Path, options: Any, sandbox: Any, progress: Progress, report: Report
    ) -> list[BuildResult]:
        """One at a time: each runs a project's test suite several times (and its [obfuscate] variant)."""
        from swr.kinds.revival.obfuscate_task import build_with_variant

        results: list[BuildResult] = []
        for d in sources:
            results.append(skipped(d) or build_with_variant(d, ReleasePaths(staging).tasks, sandbox))
            report(results[-1])
        return results

    def release_summary(self, results: Sequence[BuildResult], sources: Sequence[Path]) -> dict[str, Any]:
        """The revivals, in build order, when the build had any."""
        return {"revivals": [r.summary() for r in results]} if sources else {}

    def not_applicable(self, audit: str) -> str | None:
        """Only achievability applies: the project's own tests and probes are the verifier."""
        return NOT_APPLICABLE.get(audit)

    def verdict_table(self, verdict: Any) -> Any:
        """The tests and probes, with pytest's account of the run."""
        from swr.kinds.revival.render import revival_verdict_table

        return revival_verdict_table(verdict)

    def harbor_reward(self, verdict: Any) -> Mapping[str, float]:
        """Records that ran, the k/N score, and no anti-cheat finding."""
        records = verdict.records
        ran = share(sum(r.detail != "not run" for r in records), len(records))
        return {
            "execution": ran,
            "schema": ran,
            "semantic": score(verdict.score),
            "anti_shortcut": 0.0 if verdict.anticheat else 1.0,
            "reward": 1.0 if verdict.passed else 0.0,
        }

    def score_row(self, meta: Any) -> dict[str, str] | None:
        """None: revival tasks have no row in a score table (Table 2 is the engines')."""
        return None

    def score_table(self, table: dict[str, Any]) -> Any:
        """Never asked: its tasks have no rows."""
        return None


def skipped(directory: Path) -> BuildResult | None:
    """A task this machine cannot run (`[requires] device`): left out of the release with its one-line reason
    (status "skipped" in release.json: neither built nor failed), before anything is fetched or made. A spec
    that does not load is left to the build, which reports it as a failure."""
    from swr.core.errors import SwrError
    from swr.kinds.revival.build import RevivalResult
    from swr.kinds.revival.device import missing
    from swr.kinds.revival.spec import load_revival

    try:
        spec = load_revival(directory)
    except SwrError:
        return None
    why = missing(spec)
    return RevivalResult(spec, [], skipped=why) if why else None


KIND = RevivalKind()
