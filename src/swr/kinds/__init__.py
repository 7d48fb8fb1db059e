"""Task kinds: the one place that branches on a task's kind. A `workflow` task (SWR) is graded by the
judge against the wrapped reference's outputs; an `engine` task (ReviveBench) by its hidden verifier; a
`revival` task by its project's hidden tests and probes in the target environment."""
from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from swr.kinds.engine.feedback import engine_feedback
from swr.kinds.engine.grading import grade_engine
from swr.kinds.engine.task import EngineTask, load_engine_task
from swr.core.errors import SwrError
from swr.core.layout import TaskPaths
from swr.core.trees import copy_tree
from swr.kinds.workflow.task import Task, load_task
from swr.kinds.workflow.gates_file import Gate
from swr.kinds.revival.build_file import read_build_file
from swr.kinds.revival.task import RevivalTask, load_revival_task
from swr.kinds.revival.task import write_oracle as revival_oracle
from swr.sandbox import Mount, Sandbox
from swr.kinds.taskfile import EngineTaskFile, RevivalTaskFile, read_task_file
from swr.kinds.verdict import Verdict

AnyTask = Task | EngineTask | RevivalTask
KINDS = ("workflow", "engine", "revival")


def kind_of(root: str | Path) -> str:
    """The kind task.toml records (a one-line error for a kind swr does not know)."""
    return read_task_file(Path(root)).kind


def covered(roots: Iterable[Path], kinds: Collection[str],
            why: Mapping[str, str]) -> tuple[list[Path], list[dict[str, str]]]:
    """The task directories an audit covers, and a `not_applicable` entry {task, kind, why} for each other
    one, so that an audit says where it does not apply instead of skipping silently."""
    keep: list[Path] = []
    skip: list[dict[str, str]] = []
    for root in roots:
        kind = kind_of(root)
        if kind in kinds:
            keep.append(root)
        else:
            skip.append({"task": root.name, "kind": kind, "why": why.get(kind, f"does not cover {kind} tasks")})
    return keep, skip


COHORTS = ("obfuscated", "released")
NOT_APPLICABLE = "n/a"


def cohort(root: Path, by: str, cutoff: dt.date | None = None) -> str:
    """A task's cohort for `swr results --cohort`: a revival task is plain or obfuscated, and released
    before or on/after the cutoff (its upstream release date); every other kind is "n/a"."""
    meta = read_task_file(root)
    if not isinstance(meta, RevivalTaskFile):
        return NOT_APPLICABLE
    if by == "obfuscated":
        return "obfuscated" if meta.obfuscated else "plain"
    if cutoff is None:
        raise SwrError("a release-date cohort needs a cutoff date", field="--cutoff")
    return f"released < {cutoff}" if meta.released < cutoff else f"released >= {cutoff}"


def sibling_group(root: Path) -> str:
    """What a task shares with its sibling variants, so that a held-out set can leave out the whole group: a
    workflow task's workflow, an engine task's engine, a revival task's id (an obfuscated one: its original's)."""
    meta = read_task_file(root)
    source = meta.source
    if isinstance(meta, RevivalTaskFile) and meta.obfuscated and (built := read_build_file(TaskPaths(root).build_record)):
        source = built.obfuscated_from or source
    return f"{meta.kind}:{source}"


def scanned_forbidden(task: AnyTask) -> tuple[str, ...]:
    """Forbidden packages whose imports in a solution anti-cheat names. None for a revival task: the project
    imports its own package by name; its published copy is kept out of the environments instead."""
    return () if isinstance(task, RevivalTask) else task.forbidden_packages


def agent_sandbox(task: AnyTask) -> tuple[tuple[Mount, ...], dict[str, str]]:
    """Read-only mounts and environment variables an agent's sandbox adds so that ./feedback can run the
    task there: a revival task's target venv and interpreter; nothing for the other kinds."""
    return task.agent_sandbox() if isinstance(task, RevivalTask) else ((), {})


def agent_copies(task: AnyTask) -> tuple[Path, ...]:
    """Host paths an agent's sandbox covers beyond the forbidden packages: a revival task's copies of its
    original found by content (vendored, zipped, other interpreters'); nothing for the other kinds."""
    return task.agent_copies() if isinstance(task, RevivalTask) else ()


def nop_candidate(task: AnyTask, empty: Path) -> Path:
    """What an agent that does nothing hands in: a revival task's broken project (its solution/ starts as
    that), else `empty` (a `run` that prints nothing useful)."""
    return task.project if isinstance(task, RevivalTask) else empty


def case_counts(task: AnyTask) -> tuple[int, int]:
    """(public, hidden) cases of a task, for `swr tasks`: a workflow's examples, an engine's cases, a revival's
    public tests and hidden test files (0 hidden in a public-only copy, which has no spec)."""
    if isinstance(task, RevivalTask):
        hidden = len(task.spec.verify.hidden) if task.paths.revival_toml.is_file() else 0
        return len(task.meta.feedback.public), hidden
    return len(task.public), len(task.hidden)


def build_gates(task: AnyTask) -> dict[str, Gate]:
    """A workflow task's release gates (private/gates.json) by name; the other kinds record none there."""
    return task.gates if isinstance(task, Task) else {}


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


WORKFLOW_BRIEF = AgentBrief(
    goal="Read instruction.md and public/ there. Build an executable program solution/run that reads one JSON\n"
         "scenario on stdin and prints one JSON object on stdout, reproducing the reference behaviour.",
    feedback="grade solution/ on the public examples", finish="solution/run is graded on hidden scenarios",
    protected="instruction.md, task.toml, feedback or public/",
    nudge="Use the tools: write solution/run, check it with feedback, then call finish.")
ENGINE_BRIEF = AgentBrief(
    goal="Read instruction.md and public/ there: public/spec.md specifies an engine, with three worked examples.\n"
         "Build an executable program solution/run that reads one case's JSON input on stdin and prints one JSON\n"
         "object on stdout, computing what the specification says. A hidden verifier runs it on cases you do not\n"
         "see and checks what it recomputes from your output.",
    feedback="run solution/run on the three worked examples and show its output beside the expected one",
    finish="solution/run is graded by the hidden verifier on unseen cases",
    protected="instruction.md, task.toml, feedback or public/",
    nudge="Use the tools: write solution/run, check it with feedback, then call finish.")


def _revival_brief(task: RevivalTask) -> AgentBrief:
    """A revival repairs a project in place: no solution/run, no JSON scenario; what ./feedback can say depends
    on whether the task has public tests."""
    python = f"Python {task.meta.target.python}" if task.meta.target.python else "the target Python"
    fb = ("run the project's public tests on solution/ in the target environment" if task.meta.feedback.public
          else "this task has no public tests: it says so and runs nothing, so check your work yourself")
    return AgentBrief(
        goal=f"Read instruction.md there. solution/ holds a Python project (a git repository) that no longer\n"
             f"works as it did. Repair it in place, keeping its layout, so that it works with {python} and\n"
             f"exactly the packages instruction.md lists (a read-only environment: you cannot add to it or pin\n"
             f"anything back). There is no solution/run to write and no JSON scenario: a hidden verifier runs the\n"
             f"project's own tests (those removed from this workspace too) and probe scripts whose outputs must\n"
             f"match the original project's.",
        feedback=fb, finish="solution/ is graded by the project's hidden tests and probes in the target environment",
        protected="instruction.md, task.toml, feedback or the project's test files",
        nudge="Use the tools: repair the project in solution/, check it with feedback, then call finish.")


def agent_brief(task: AnyTask) -> AgentBrief:
    """The task's kind as an agent's own prompt states it (the openai agent's system message and tools)."""
    if isinstance(task, RevivalTask):
        return _revival_brief(task)
    return ENGINE_BRIEF if isinstance(task, EngineTask) else WORKFLOW_BRIEF


def load(root: str | Path) -> AnyTask:
    """A task directory of any kind (full, or a public-only workspace copy)."""
    root = Path(root)
    meta = read_task_file(root)
    if isinstance(meta, EngineTaskFile):
        return load_engine_task(root, meta)
    if isinstance(meta, RevivalTaskFile):
        return load_revival_task(root, meta)
    return load_task(root)


def grade(task: AnyTask, candidate: Path, sandbox: Sandbox, *, split: Literal["all", "hidden", "public"] = "all",
          jobs: int = 2, reference: bool = False) -> Verdict:
    """The verdict: the hidden cases decide. An engine's public split is feedback on its examples; a
    revival's runs the public tests. `reference`: the candidate is the task's reference as swr wrote it
    (write_oracle), never an agent's: a deleted module's original is then not a copied_original."""
    if isinstance(task, RevivalTask):
        return task.grade(candidate, sandbox, split, reference)
    if isinstance(task, EngineTask):
        if split == "public":
            return engine_feedback(task.candidate_terms, task.id, candidate, task.public, sandbox)
        return grade_engine(task.spec, task.verifier_dir, candidate, task.hidden, sandbox, jobs, task.id)
    from swr.kinds.workflow.grading import grade as grade_workflow

    return grade_workflow(task, candidate, sandbox, split=split, jobs=jobs)


def write_oracle(task: AnyTask, dest: Path) -> None:
    """The task's reference as a candidate directory (the oracle agent, the achievability audit)."""
    if isinstance(task, EngineTask):
        copy_tree(task.reference_dir, dest)
        return
    if isinstance(task, RevivalTask):
        revival_oracle(task, dest)
        return
    from swr.kinds.workflow.reference import write_oracle as wrap

    wrap(task.reference_spec(), task.reference_dir, dest)
