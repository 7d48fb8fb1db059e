"""The engine kind (ReviveBench reconstruction): an engines/<name>/ folder (engine.toml, spec, verifier,
reference, cheats) built into one task graded by its hidden verifier. Its TaskKind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from swr.core.layout import ENGINE_TOML as ENGINE_FILE
from swr.core.layout import ReleasePaths
from swr.kinds.engine.task import build_engine, load_engine_task
from swr.kinds.engine.taskfile import EngineTaskFile
from swr.kinds.engine.verdict import EngineVerdict
from swr.kinds.protocol import BuildResult, Progress, Report
from swr.kinds.rewards import score, share

NOT_APPLICABLE = {
    "replay": "replay controls copy public scenario outputs field by field; an engine's verifier "
    "recomputes from each output, and its cheats are graded by `python -m swr.kinds.engine check`",
    "sensitivity": "engine cases are fixed inputs, not samples of declared parameters, and a verifier program "
    "grades them, not output fields",
    "mutation": "engine verifiers are programs, not field tolerances; their cheats are graded by "
    "`python -m swr.kinds.engine check`",
    "lint": "an engine's verifier is probed by the self-report audit, not by tolerance tables",
    "consensus": "an engine's candidates are compared by its verifier's checks (verifier consensus)",
    "bundles": "graded by running a candidate program against task-specific checks; there is no single "
    "reference output to re-encode or mutate",
    "freeze": "graded by its own hidden verifier's checks, not by the output comparison these trials test",
}


class EngineKind:
    """The engine kind's TaskKind."""

    name = "engine"
    marker = ENGINE_FILE
    task_file = EngineTaskFile
    summary_key = "engines"
    verdict_model = EngineVerdict

    def load(self, root: Path, meta: Any) -> Any:
        """An engine task directory (its public examples and hidden cases read)."""
        return load_engine_task(root, meta)

    def build(
        self, sources: Sequence[Path], staging: Path, options: Any, sandbox: Any, progress: Progress, report: Report
    ) -> list[BuildResult]:
        """One engine at a time: each runs its cases `jobs` at a time."""
        results: list[BuildResult] = []
        for d in sources:
            results.append(build_engine(d, ReleasePaths(staging).tasks, sandbox, options.jobs, options.seed))
            report(results[-1])
        return results

    def release_summary(self, results: Sequence[BuildResult], sources: Sequence[Path]) -> dict[str, Any]:
        """The engines, in build order, when the build had any."""
        return {"engines": [r.summary() for r in results]} if sources else {}

    def not_applicable(self, audit: str) -> str | None:
        """The output-comparison audits do not apply: a verifier program grades an engine."""
        return NOT_APPLICABLE.get(audit)

    def verdict_table(self, verdict: Any) -> Any:
        """The verifier's checks, or (public split) each worked example beside its expected output."""
        from swr.kinds.engine.render import engine_feedback_table, engine_verdict_table

        return engine_feedback_table(verdict) if verdict.public_only else engine_verdict_table(verdict)

    def harbor_reward(self, verdict: Any) -> Mapping[str, float]:
        """Cases that ran, that the verifier could measure, and the k/N score."""
        cases = verdict.cases
        ran = [c.case for c in cases if c.failure is None]
        unmeasured = {r.case for r in verdict.records if r.measured is None}
        return {
            "execution": share(len(ran), len(cases)),
            "schema": share(sum(c not in unmeasured for c in ran), len(cases)),
            "semantic": score(verdict.score),
            "anti_shortcut": 1.0,
            "reward": 1.0 if verdict.passed else 0.0,
        }

    def score_row(self, meta: Any) -> dict[str, str] | None:
        """Table 2's head: the engine and the commercial software it stands for."""
        return {"engine": meta.engine, "analog": meta.analog}

    def score_table(self, table: dict[str, Any]) -> Any:
        """Table 2's layout: ✓/✗ k/N per engine and model, and the engines each model passed."""
        from swr.kinds.engine.render import engine_score_table

        return engine_score_table(table)


KIND = EngineKind()
