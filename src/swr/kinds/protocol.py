"""The contract every task kind meets, so that commands (build, tasks, grade, run, baselines, results, report,
export, audits) never branch on a kind: a `TaskKind` per kind (how its sources are found and built, how a task
directory of it is loaded, its task.toml model) and a `KindTask` per loaded task (how it is graded, what an
agent's sandbox and workspace start with, how Harbor packages it). A fourth kind is one package implementing
both and one registration (swr.kinds.registry: an entry point or SWR_KINDS); tests/kind_example is a small one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel

if TYPE_CHECKING:
    from swr.kinds.taskfile import TaskModel
    from swr.kinds.verdict import Verdict

Split = Literal["all", "hidden", "public"]
Progress = Callable[[int, int], None]  # (executions advanced, executions added): a build's progress bar
NOT_APPLICABLE = "n/a"  # the cohort of a task its kind does not split
AUDITS = (
    "replay",
    "sensitivity",
    "lint",
    "consensus",
    "verifier_consensus",
    "mutation",
    "adequacy",
    "bundles",
    "freeze",
    "achievability",
    "selfreport",
)  # what KindTask.not_applicable is asked about


@dataclass(frozen=True)
class AgentBrief:
    """What an agent that builds its own prompt (the built-in openai agent) tells the model about the task's
    kind, beside instruction.md: what to build and how it is checked (`goal`), what the feedback tool does,
    what finishing hands over, what must stay untouched, and the nudge for a reply without a tool call.
    Command agents and mini-swe-agent take instruction.md as their prompt; every kind writes its own."""

    goal: str
    feedback: str
    finish: str
    protected: str
    nudge: str


@dataclass(frozen=True)
class HarborParts:
    """Everything a Harbor export of a task depends on its kind for (swr.export.harbor assembles the rest)."""

    python: str | None  # the image's Python ("3.12"); None: the exporter's own
    apt: tuple[str, ...]  # Debian packages the image installs (the task's and what its verifier or build runs)
    agent_pip: tuple[str, ...]  # the agent's Python's pins (the exporter drops forbidden ones)
    agent_libs: tuple[str, ...]  # distributions whose swr-side pins the agent's Python also gets (engines' numpy)
    judge_extras: tuple[str, ...]  # swr extras the judge in the image imports
    judge_exact: bool  # True: the judge's venv is exact pins (no host-only or forbidden distribution, --no-deps)
    project: Path | None  # a project the workspace starts from as solution/ (else public/ is copied)
    memory_mb: int  # what one case may use
    case_s: float  # wall seconds one hidden case may take
    hidden_cases: int  # how many cases the verifier runs
    verify_extra_s: float  # verifier time beyond the cases (a revival's build and test runs)
    summary: str  # Harbor's one-line description


PARAMETER_TYPES = ("numeric", "string", "boolean", "array", "mixed")  # the SWR paper's parameter types (Fig. 4)


@dataclass(frozen=True)
class Composition:
    """What the composition statistics (swr.report.composition: the SWR paper's Figures 4, 8 and 11) count of one
    task: its declared parameters' types (PARAMETER_TYPES, one per parameter), the graded part of one reference
    output as the task shows it (ungraded fields removed; None: the kind grades no output document, a revival's
    tests), and the names of the files that output names (its artifacts, classified by suffix)."""

    parameters: tuple[str, ...]
    output: Any
    artifacts: tuple[str, ...] = ()


class BuildResult(Protocol):
    """One source's build (a workflow with its variants, an engine, a revival and its obfuscated twin)."""

    tasks: list[str]
    failure: str | None
    wall_s: float  # for progress lines only

    @property
    def message(self) -> str:
        """The failure as one line naming the source's file."""
        ...

    def summary(self) -> dict[str, Any]:
        """Its entry in release.json (under its kind's summary key): name, family, domain, status ("ok" or
        "failed"), reason and tasks at least (`swr build`'s table)."""
        ...


Report = Callable[[BuildResult], None]  # a build hears of each source's result as it ends


class KindTask(Protocol):
    """A loaded task directory (full, or the public-only copy in a workspace) of any kind."""

    id: str
    root: Path

    @property
    def meta(self) -> TaskModel:
        """Its task.toml model (kind, family and domain at least): what `swr tasks` and the report show."""
        ...

    @property
    def kind(self) -> TaskKind:
        """The kind it belongs to: its marker, summary key and audits."""
        ...

    @property
    def environment(self) -> dict[str, Any]:
        """What it runs in (pip/apt pins or an image; {}: the host's root): chooses a sandbox's image."""
        ...

    @property
    def forbidden_packages(self) -> tuple[str, ...]:
        """Packages a candidate must not import: absent from its sandbox."""
        ...

    @property
    def forbidden_binaries(self) -> tuple[str, ...]:
        """Programs a candidate must not run: absent from its sandbox's PATH."""
        ...

    def grade(
        self, candidate: Path, sandbox: Any, *, split: Split = "all", jobs: int = 2, reference: bool = False
    ) -> Verdict:
        """The verdict on a candidate (`reference`: swr wrote it with write_oracle, not an agent)."""
        ...

    def write_oracle(self, dest: Path) -> None:
        """The task's reference as a candidate directory: the oracle agent and the achievability audit."""
        ...

    def agent_sandbox(self) -> tuple[tuple[Any, ...], dict[str, str]]:
        """Read-only mounts and environment variables an agent's sandbox adds so that ./feedback runs there."""
        ...

    def agent_copies(self) -> tuple[Path, ...]:
        """Host paths an agent's sandbox covers beyond the forbidden packages (copies of an original)."""
        ...

    def nop_candidate(self, empty: Path) -> Path:
        """What an agent that does nothing hands in (`empty`: an empty directory the caller made)."""
        ...

    def agent_brief(self) -> AgentBrief:
        """The kind's part of a self-prompting agent's system message and tools."""
        ...

    def case_counts(self) -> tuple[int, int]:
        """(public, hidden) cases, for `swr tasks`."""
        ...

    def build_gates(self) -> dict[str, Any]:
        """The release gates its build recorded by name ({} for kinds that record none): `swr tasks`, baselines."""
        ...

    def scanned_forbidden(self) -> tuple[str, ...]:
        """Forbidden packages whose imports in a solution anti-cheat names."""
        ...

    def cohort(self, by: str, cutoff: dt.date | None) -> str:
        """Its cohort for `swr results --cohort` (NOT_APPLICABLE for a kind without one)."""
        ...

    def contamination(self) -> dict[str, Any] | None:
        """What its build recorded of a contamination control (an obfuscated variant's similarity to its
        original, for `swr results --cohort contamination`), or None."""
        ...

    def sibling_group(self) -> str:
        """What it shares with sibling variants, so that a held-out split leaves out the whole group."""
        ...

    def start_workspace(self, public: Path, solution: Path) -> None:
        """Fill an agent's fresh workspace (instruction, task.toml and ./feedback are there): public/ and
        solution/ as the kind starts them."""
        ...

    def not_applicable(self, audit: str) -> str | None:
        """Why `audit` does not apply to this task, or None when it does."""
        ...

    def harbor_parts(self) -> HarborParts:
        """What a Harbor export of it takes from its kind."""
        ...

    def attained(self, oracle: Verdict) -> dict[str, Any]:
        """The achievability audit's row for the oracle's verdict: its `thresholds` (what the reference must
        attain, with margins) and whether all are met (`thresholds_met`), and its score where it has one."""
        ...

    def copy_checked(self) -> bool:
        """Whether its verdict measures a candidate against an original (a deleted module's rebuild): a
        verdict without that measurement predates it, and `swr export sft` leaves the run out."""
        ...

    def composition(self) -> Composition:
        """Its parameters, one graded output and that output's files, for `swr tasks --stats` and the report."""
        ...


class TaskKind(Protocol):
    """One kind of task: its sources, its task directories, its share of release.json."""

    name: str  # task.toml's `kind`
    marker: str  # the file that makes a source folder one of this kind (workflow.toml, engine.toml, ...)
    task_file: type[BaseModel]  # its task.toml model
    summary_key: str  # release.json's list of its sources' builds ("workflows", "engines", ...)
    verdict_model: type[Verdict]  # its verdict model (swr.kinds.verdict.Verdict's subclass)

    def load(self, root: Path, meta: Any) -> KindTask:
        """A task directory of this kind, from its parsed task.toml (`meta`)."""
        ...

    def build(
        self, sources: Sequence[Path], staging: Path, options: Any, sandbox: Any, progress: Progress, report: Report
    ) -> list[BuildResult]:
        """Build every source into the staging release (`staging`/tasks/...), reporting each result as it ends;
        a failed source is a result with its failure, never an exception."""
        ...

    def release_summary(self, results: Sequence[BuildResult], sources: Sequence[Path]) -> dict[str, Any]:
        """Its keys in release.json: its summary key (and any block of its own, the workflows' gates)."""
        ...

    def not_applicable(self, audit: str) -> str | None:
        """Why `audit` does not apply to tasks of this kind, or None when it does."""
        ...

    def verdict_table(self, verdict: Verdict) -> Any:
        """A verdict of this kind as a rich renderable (`swr grade`, `swr feedback`)."""
        ...

    def harbor_reward(self, verdict: Verdict) -> Mapping[str, float]:
        """A verdict's reward components (swr.export.harbor_judge.Reward's fields): Harbor's reward file."""
        ...

    def score_row(self, meta: TaskModel) -> dict[str, str] | None:
        """A task's head cells in the score table of `swr results JOB…` and the report (ReviveBench's Table 2:
        an engine's name and commercial analog), in column order; None: its tasks have no such table."""
        ...

    def score_table(self, table: dict[str, Any]) -> Any:
        """Its score table (swr.harness.score_table's model) as a rich renderable; asked only of a kind
        whose score_row gives rows."""
        ...
