"""A fourth task kind, outside swr: "echo". A source folder holds `echo.toml` (a name, public and hidden
strings); its task asks for `solution/run`, which reads one line on stdin and prints it reversed. The grader
runs the candidate in swr's real sandbox on the hidden strings and recomputes each answer. Registered with
SWR_KINDS="kind_example:KIND" (or an entry point of the group `swr.kinds`): tests/test_kind_plugin.py shows
that build, tasks, grade, run, results, report and Harbor export take it with no change to their code."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from swr.core.errors import SwrError, first_problem, load_toml
from swr.core.layout import CANDIDATE_RUN, ReleasePaths, TaskPaths
from swr.kinds.protocol import (
    NOT_APPLICABLE,
    AgentBrief,
    Composition,
    HarborParts,
    Progress,
    Report,
    Split,
    TaskKind,
)
from swr.kinds.registry import named
from swr.kinds.rewards import share
from swr.kinds.taskfile import Anticheat, Environment, TaskModel, dump_task_file
from swr.kinds.verdict import Verdict
from swr.sandbox import WORKDIR, Job, Limits, Mount, run

MARKER = "echo.toml"
REFERENCE = "#!/usr/bin/env python3\nimport sys\nprint(sys.stdin.readline().rstrip('\\n')[::-1])\n"
BRIEF = AgentBrief(
    goal="Write solution/run: it reads one line on stdin and prints it reversed.",
    feedback="run solution/run on the public strings",
    finish="solution/run is run on hidden strings",
    protected="instruction.md, task.toml, feedback or public/",
    nudge="Write solution/run, then finish.",
)


class EchoSource(BaseModel):
    """echo.toml."""

    model_config = ConfigDict(extra="forbid")
    name: str
    family: str
    domain: str
    summary: str
    public: list[str]
    hidden: list[str] = Field(min_length=1)


class EchoTaskFile(TaskModel):
    """task.toml of an echo task."""

    kind: Literal["echo"]
    id: str
    family: str
    domain: str
    summary: str
    anticheat: Anticheat = Anticheat()
    environment: Environment = Environment()


class EchoVerdict(Verdict):
    """pass = every hidden string came back reversed; score = strings right (swr.kinds.verdict.Verdict has
    kind, task, pass, label, labels and score)."""

    kind: Literal["echo"]
    split: Literal["all", "hidden", "public"]
    cases: list[dict[str, Any]]


@dataclass
class EchoResult:
    """One echo.toml's build."""

    source: Path
    name: str
    family: str
    domain: str
    tasks: list[str] = field(default_factory=list)
    failure: str | None = None
    wall_s: float = 0.0

    @property
    def message(self) -> str:
        return f"{self.source / MARKER}: {self.failure}"

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "family": self.family,
            "domain": self.domain,
            "kind": "echo",
            "status": "failed" if self.failure else "ok",
            "reason": self.failure,
            "tasks": self.tasks,
        }


def _cases(path: Path) -> list[str]:
    return json.loads(path.read_text()) if path.is_file() else []


@dataclass
class EchoTask:
    """A loaded echo task (a workspace copy has no hidden strings)."""

    id: str
    root: Path
    meta: EchoTaskFile

    @property
    def kind(self) -> TaskKind:
        return named(self.meta.kind)

    @property
    def environment(self) -> dict[str, Any]:
        return {}

    @property
    def forbidden_packages(self) -> tuple[str, ...]:
        return self.meta.anticheat.forbidden_packages

    @property
    def forbidden_binaries(self) -> tuple[str, ...]:
        return self.meta.anticheat.forbidden_binaries

    def _strings(self, split: Split) -> list[str]:
        at = TaskPaths(self.root)
        public = _cases(at.public / "strings.json")
        return public if split == "public" else _cases(at.hidden_examples / "strings.json")

    def grade(
        self, candidate: Path, sandbox: Any, *, split: Split = "all", jobs: int = 2, reference: bool = False
    ) -> EchoVerdict:
        cases = []
        for s in self._strings(split):
            if not (candidate / CANDIDATE_RUN).is_file():
                cases.append({"input": s, "ok": False, "why": "missing_candidate"})
                continue
            res = run(
                sandbox,
                Job(["./run"], Mount(candidate.resolve(), WORKDIR, "overlay"), Limits(time_s=30)),
                (s + "\n").encode(),
            )
            got = res.stdout.decode(errors="replace").rstrip("\n")
            ok = res.ok and got == s[::-1]
            cases.append(
                {"input": s, "ok": ok, "why": None if ok else ("execution_failure" if not res.ok else "wrong_output")}
            )
        right = sum(c["ok"] for c in cases)
        labels = sorted({c["why"] for c in cases if c["why"]})
        passed = bool(cases) and right == len(cases)
        return EchoVerdict(
            kind="echo",
            task=self.id,
            passed=passed,
            label="pass" if passed else labels[0] if labels else "no_cases",
            labels=labels,
            score=f"{right}/{len(cases)}",
            split=split,
            cases=cases,
        )

    def write_oracle(self, dest: Path) -> None:
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(TaskPaths(self.root).reference / CANDIDATE_RUN, dest / CANDIDATE_RUN)
        (dest / CANDIDATE_RUN).chmod(0o755)

    def agent_sandbox(self) -> tuple[tuple[Any, ...], dict[str, str]]:
        return (), {}

    def agent_copies(self) -> tuple[Path, ...]:
        return ()

    def nop_candidate(self, empty: Path) -> Path:
        return empty

    def agent_brief(self) -> AgentBrief:
        return BRIEF

    def case_counts(self) -> tuple[int, int]:
        return len(self._strings("public")), len(self._strings("hidden"))

    def build_gates(self) -> dict[str, Any]:
        return {}

    def scanned_forbidden(self) -> tuple[str, ...]:
        return self.forbidden_packages

    def cohort(self, by: str, cutoff: dt.date | None) -> str:
        return NOT_APPLICABLE

    def contamination(self) -> dict[str, Any] | None:
        return None

    def sibling_group(self) -> str:
        return f"echo:{self.id}"

    def start_workspace(self, public: Path, solution: Path) -> None:
        shutil.copytree(TaskPaths(self.root).public, public)
        solution.mkdir()

    def not_applicable(self, audit: str) -> str | None:
        return self.kind.not_applicable(audit)

    def harbor_parts(self) -> HarborParts:
        return HarborParts(
            python=None,
            apt=(),
            agent_pip=(),
            agent_libs=(),
            judge_extras=(),
            judge_exact=False,
            project=None,
            memory_mb=512,
            case_s=30.0,
            hidden_cases=len(self._strings("hidden")),
            verify_extra_s=0.0,
            summary=self.meta.summary,
        )

    def attained(self, oracle: Any) -> dict[str, Any]:
        return {"score": oracle.score, "thresholds": [], "thresholds_met": True}

    def copy_checked(self) -> bool:
        return False

    def composition(self) -> Composition:
        """One string parameter; the output is the reversed string."""
        public = self._strings("public")
        return Composition(("string",), public[0][::-1] if public else None)


class EchoKind:
    """The echo kind."""

    name = "echo"
    marker = MARKER
    task_file = EchoTaskFile
    summary_key = "echoes"
    verdict_model = EchoVerdict

    def load(self, root: Path, meta: Any) -> EchoTask:
        return EchoTask(meta.id, root, meta)

    def build(
        self, sources: Sequence[Path], staging: Path, options: Any, sandbox: Any, progress: Progress, report: Report
    ) -> list[Any]:
        results = []
        for d in sources:
            t0 = time.monotonic()
            try:
                src = EchoSource.model_validate(load_toml(d / MARKER))
            except ValidationError as e:
                msg, where = first_problem(e)
                raise SwrError(msg, file=d / MARKER, field=where) from None
            res = EchoResult(d, src.name, src.family, src.domain)
            _write(src, ReleasePaths(staging).tasks / src.name)
            res.tasks, res.wall_s = [src.name], time.monotonic() - t0
            report(res)
            results.append(res)
        return results

    def release_summary(self, results: Sequence[Any], sources: Sequence[Path]) -> dict[str, Any]:
        return {"echoes": [r.summary() for r in results]} if sources else {}

    def not_applicable(self, audit: str) -> str | None:
        return None if audit == "achievability" else "an echo task has one right answer per string"

    def verdict_table(self, verdict: Any) -> Any:
        from rich.table import Table

        table = Table("input", "ok", title=f"{verdict.task}: {'PASS' if verdict.passed else 'FAIL'} {verdict.score}")
        for c in verdict.cases:
            table.add_row(repr(c["input"]), "yes" if c["ok"] else str(c["why"]))
        return table

    def harbor_reward(self, verdict: Any) -> Mapping[str, float]:
        n = len(verdict.cases)
        ran = sum(c["why"] not in ("execution_failure", "missing_candidate") for c in verdict.cases)
        right = sum(c["ok"] for c in verdict.cases)
        return {
            "execution": share(ran, n),
            "schema": share(ran, n),
            "semantic": share(right, n),
            "anti_shortcut": 1.0,
            "reward": 1.0 if verdict.passed else 0.0,
        }

    def score_row(self, meta: Any) -> dict[str, str] | None:
        return None  # no score table (swr results' Table 2 layout is the engines')

    def score_table(self, table: dict[str, Any]) -> Any:
        return None


def _write(src: EchoSource, root: Path) -> None:
    """task.toml, the instruction, public/ and hidden/ strings and the reference under private/."""
    at = TaskPaths(root)
    root.mkdir(parents=True)
    at.toml.write_text(
        dump_task_file(
            EchoTaskFile(kind="echo", id=src.name, family=src.family, domain=src.domain, summary=src.summary)
        )
    )
    at.instruction.write_text(
        f"# {src.name}\n\n{src.summary}\n\nWrite `solution/run`: it reads one line on stdin "
        f"and prints it reversed. Examples are in public/strings.json.\n"
    )
    at.public.mkdir()
    (at.public / "strings.json").write_text(json.dumps(src.public))
    at.hidden_examples.mkdir(parents=True)
    (at.hidden_examples / "strings.json").write_text(json.dumps(src.hidden))
    at.reference.mkdir(parents=True)
    (at.reference / CANDIDATE_RUN).write_text(REFERENCE)


KIND = EchoKind()
