"""An engine task in a release: what its directory holds, how it is built from `engines/<engine>/`, and
what an agent's workspace starts with. Public: the instruction, spec.md and the three worked examples.
Private: the hidden cases (with their expected values), the checks and thresholds (the engine's own
engine.toml), the verifier, the reference, and the build's record (self-tests, achievability, cheats)."""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr.audit.adequacy import adequacy_line
from swr.core.jsonfile import dump_json
from swr.core.layout import ENGINE_TOML, MUTANTS, REFERENCE, SPEC_MD, VERIFIER, TaskPaths, engine_example_files
from swr.core.recordfile import parse_record, write_record
from swr.core.trees import copy_tree
from swr.kinds.base import BaseTask, parameter_type
from swr.kinds.engine import build_cache
from swr.kinds.engine.build_file import EngineBuildFile
from swr.kinds.engine.check import FIXED_NOTE, Checked, check_engine, draws_from_seed, margins_line
from swr.kinds.engine.grading import CandidateTerms
from swr.kinds.engine.spec import EngineSpec, load_engine
from swr.kinds.engine.taskfile import EngineInterface, EngineTaskFile
from swr.kinds.engine.verdict import EngineVerdict
from swr.kinds.protocol import AgentBrief, Composition, HarborParts, Split
from swr.kinds.taskfile import Anticheat, dump_task_file
from swr.sandbox import Sandbox

ENGINE_LIBS = (
    "numpy",
    "scipy",
)  # what swr's sandbox offers every engine candidate (swr's own deps), less the forbidden
ENGINE_BRIEF = AgentBrief(
    goal="Read instruction.md and public/ there: public/spec.md specifies an engine, with three worked examples.\n"
    "Build an executable program solution/run that reads one case's JSON input on stdin and prints one JSON\n"
    "object on stdout, computing what the specification says. A hidden verifier runs it on cases you do not\n"
    "see and checks what it recomputes from your output.",
    feedback="run solution/run on the three worked examples and show its output beside the expected one",
    finish="solution/run is graded by the hidden verifier on unseen cases",
    protected="instruction.md, task.toml, feedback or public/",
    nudge="Use the tools: write solution/run, check it with feedback, then call finish.",
)
FEEDBACK_NOTE = (
    "`./feedback` runs your `solution/run` on the three worked examples and shows its output next "
    "to the expected one; the hidden verifier and its thresholds are not in this workspace."
)


@dataclass
class EngineTask(BaseTask):
    """An engine task as graders and agents see it (`hidden` is empty in a public-only copy)."""

    id: str
    root: Path
    meta: EngineTaskFile
    public: list[dict[str, Any]]
    hidden: list[dict[str, Any]]

    @property
    def private(self) -> Path:
        return TaskPaths(self.root).private

    @property
    def spec(self) -> EngineSpec:
        """The engine's own engine.toml, with its checks and thresholds (private)."""
        return load_engine_private(self.root)

    @property
    def candidate_terms(self) -> CandidateTerms:
        """How its candidate runs, from task.toml alone (a workspace's ./feedback has no private engine.toml)."""
        return CandidateTerms(
            self.meta.interface.timeout_s,
            self.meta.interface.memory_mb,
            self.meta.anticheat.forbidden_packages,
            self.meta.anticheat.forbidden_binaries,
        )

    @property
    def verifier_dir(self) -> Path:
        return self.private / VERIFIER

    @property
    def reference_dir(self) -> Path:
        return self.private / REFERENCE

    @property
    def environment(self) -> dict[str, Any]:
        """Engine tasks run on the host's system (their verifiers' tools are there)."""
        return {}

    # The KindTask protocol (swr.kinds.protocol): what every command asks of a task, whatever its kind.

    def grade(
        self, candidate: Path, sandbox: Any, *, split: Split = "all", jobs: int = 2, reference: bool = False
    ) -> EngineVerdict:
        """The hidden verifier's verdict; the public split is feedback on the worked examples."""
        from swr.kinds.engine.feedback import engine_feedback
        from swr.kinds.engine.grading import grade_engine

        if split == "public":
            return engine_feedback(self.candidate_terms, self.id, candidate, self.public, sandbox)
        return grade_engine(self.spec, self.verifier_dir, candidate, self.hidden, sandbox, jobs, self.id)

    def write_oracle(self, dest: Path) -> None:
        """The engine's reference program."""
        copy_tree(self.reference_dir, dest)

    def agent_sandbox(self) -> tuple[tuple[Any, ...], dict[str, str]]:
        """Nothing: ./feedback runs the candidate with swr's own Python."""
        return (), {}

    def agent_copies(self) -> tuple[Path, ...]:
        """No original to cover: the forbidden packages are the existing implementations."""
        return ()

    def nop_candidate(self, empty: Path) -> Path:
        """An empty solution: its missing `run` computes nothing."""
        return empty

    def agent_brief(self) -> AgentBrief:
        """Build the specified engine as solution/run."""
        return ENGINE_BRIEF

    def case_counts(self) -> tuple[int, int]:
        """(worked examples, hidden cases)."""
        return len(self.public), len(self.hidden)

    def build_gates(self) -> dict[str, Any]:
        """None: an engine's build record holds its checks (private/build.json), not release gates."""
        return {}

    def attained(self, oracle: Any) -> dict[str, Any]:
        """An engine's reference follows its spec's method: each threshold with its margin, and every item
        passed (N/N: a reference that reaches only `pass_at` has a defect the threshold would hide)."""
        from swr.kinds.engine.check import achievability, every_item

        thresholds = achievability(self.spec, oracle.records)
        return {
            "score": oracle.score,
            "thresholds": thresholds,
            "thresholds_met": all(t["margin_ok"] for t in thresholds) and every_item(oracle),
        }

    def composition(self) -> Composition:
        """A case's input document is its parameters (each top-level key one; a document that is not an object,
        one), and its expected output the output; an engine writes no artifact files beside it."""
        if not self.public:
            return Composition((), None)
        inp = self.public[0]["input"]
        values = list(inp.values()) if isinstance(inp, dict) else [inp]
        return Composition(tuple(parameter_type([v]) for v in values), self.public[0]["expected"])

    def copy_checked(self) -> bool:
        """No original: the existing implementations are forbidden, not compared."""
        return False

    def harbor_parts(self) -> HarborParts:
        """The verifier's Debian tools, swr's numpy and scipy for the agent, the engines extra for the judge; a
        hidden case is one JSON file (its verifier's time counts each)."""
        iface = self.meta.interface
        cases = len(self.hidden) or 1  # a public-only copy holds none
        apt = tuple(sorted({*self.meta.environment.apt, *self.spec.apt}))
        return HarborParts(
            python=self.meta.environment.python,
            apt=apt,
            agent_pip=self.meta.environment.pip,
            agent_libs=ENGINE_LIBS,
            judge_extras=("engines",),
            judge_exact=False,
            project=None,
            memory_mb=iface.memory_mb,
            case_s=iface.timeout_s,
            hidden_cases=cases,
            verify_extra_s=0.0,
            summary=self.meta.summary,
        )


def load_engine_private(root: Path) -> EngineSpec:
    """engine.toml as kept under private/ (with spec.md, verifier/ and reference/ beside it)."""
    return load_engine(TaskPaths(root).private)


def public_meta(spec: EngineSpec) -> EngineTaskFile:
    """task.toml: what the agent may know. No check, threshold or hidden case."""
    return EngineTaskFile(
        kind="engine",
        id=spec.name,
        engine=spec.name,
        family=spec.family,
        domain=spec.domain,
        analog=spec.analog,
        summary=spec.summary,
        interface=EngineInterface(**spec.interface.model_dump()),
        anticheat=Anticheat(
            forbidden_packages=tuple(spec.forbidden.packages), forbidden_binaries=tuple(spec.forbidden.binaries)
        ),
    )


def instruction(spec: EngineSpec, public: list[dict[str, Any]]) -> str:
    at = TaskPaths(Path("."))
    shown = [
        [p.relative_to(".").as_posix() for p in engine_example_files(at.public_examples, c["id"])[1:]] for c in public
    ]
    ex = "\n".join(f"- `{i}` → `{o}`" for i, o in shown)
    forbidden = ", ".join([*spec.forbidden.packages, *spec.forbidden.binaries]) or "none"
    return (
        f"# {spec.name}: {spec.summary}\n\n"
        f"Build, from the specification in `{at.spec_md.as_posix()}` alone, an engine of the kind {spec.analog} "
        f"provides. Write an executable `solution/run`: it reads one JSON object (a case's input) on stdin "
        f"and prints one JSON object on stdout.\n\n{spec.interface.description}\n\n"
        f"Worked examples:\n{ex}\n\n"
        f"Existing implementations are forbidden and absent from your environment: {forbidden}. Each case "
        f"runs in a sandbox with no network and {spec.interface.timeout_s:g} s. A hidden verifier grades "
        f"your program on cases you do not see, recomputing what it checks from your program's output.\n\n"
        f"{FEEDBACK_NOTE}\n"
    )


def write_engine_task(
    spec: EngineSpec, root: Path, public: list[dict[str, Any]], hidden: list[dict[str, Any]], record: dict[str, Any]
) -> None:
    """One engine task directory, from the engine's own folder and its computed cases."""
    src, at = spec.directory, TaskPaths(root)
    root.mkdir(parents=True)
    at.toml.write_text(dump_task_file(public_meta(spec)))
    at.instruction.write_text(instruction(spec, public))
    at.public.mkdir()
    shutil.copyfile(src / SPEC_MD, at.spec_md)
    for c in public:
        d, inp, expected = engine_example_files(at.public_examples, c["id"])
        d.mkdir(parents=True)
        inp.write_text(dump_json(c["input"]))
        expected.write_text(dump_json(c.get("expected")))
    at.hidden_examples.mkdir(parents=True)
    for c in hidden:
        (at.hidden_examples / f"{c['id']}.json").write_text(dump_json(c))
    shutil.copyfile(src / ENGINE_TOML, at.private / ENGINE_TOML)
    shutil.copyfile(src / SPEC_MD, at.private / SPEC_MD)
    for name in (VERIFIER, REFERENCE, MUTANTS):  # the mutants: `swr audit adequacy` on the release
        if name == MUTANTS and not (src / name).is_dir():
            continue
        copy_tree(src / name, at.private / name)
    write_record(at.build_record, parse_record(EngineBuildFile, record, at.build_record))


def load_engine_task(root: Path, meta: EngineTaskFile) -> EngineTask:
    at = TaskPaths(root)
    public = (
        [_example(at.public_examples, d.name) for d in sorted(at.public_examples.iterdir())]
        if at.public_examples.is_dir()
        else []
    )
    hidden = [_json(f) for f in sorted(at.hidden_examples.glob("*.json"))] if at.hidden_examples.is_dir() else []
    return EngineTask(meta.id, root, meta, public, hidden)


def _example(split: Path, case_id: str) -> dict[str, Any]:
    _, inp, expected = engine_example_files(split, case_id)
    return {"id": case_id, "input": _json(inp), "expected": _json(expected)}


def _json(path: Path) -> Any:
    return json.loads(path.read_text())


@dataclass
class EngineResult:
    """One engine's build, as `swr build` reports it beside the workflows'."""

    spec: EngineSpec
    tasks: list[str]
    failure: str | None = None
    wall_s: float = 0.0
    margins: str = ""  # each tolerance threshold's margin and platform variation (check.margins_line)
    seeded: bool = True  # hidden cases drawn from the release seed; False: fixed cases/hidden files only
    adequacy: str = ""  # rule and operator mutants the hidden cases kill (audit.adequacy.adequacy_line)

    @property
    def message(self) -> str:
        return f"{self.spec.directory / ENGINE_TOML}: {self.failure}"

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.spec.name,
            "family": self.spec.family,
            "domain": self.spec.domain,
            "kind": "engine",
            "status": "failed" if self.failure else "ok",
            "reason": self.failure,
            "tasks": self.tasks,
            "hidden_cases": "drawn from the seed" if self.seeded else FIXED_NOTE,
        }


def build_engine(directory: Path, tasks_dir: Path, sandbox: Sandbox, jobs: int, seed: int = 0) -> EngineResult:
    """Check the engine (self-tests, the reference with margin, nop and every cheat failing) on hidden cases
    drawn from the release seed, and write its task only when nothing is wrong; each problem is one line of
    the failure. An engine without a generator says that its hidden cases are fixed (build output, build.json)."""
    t0 = time.monotonic()
    spec = load_engine(directory)
    checked = _checked(spec, sandbox, jobs, seed)
    margins = margins_line(checked.report["achievability"])
    seeded = draws_from_seed(spec)
    if not seeded:
        margins = f"{FIXED_NOTE}; {margins}" if margins else FIXED_NOTE
    killed = adequacy_line(checked.report["adequacy"])
    if checked.problems:
        return EngineResult(spec, [], "; ".join(checked.problems), time.monotonic() - t0, margins, seeded, killed)
    write_engine_task(spec, tasks_dir / spec.name, checked.public, checked.hidden, checked.report)
    return EngineResult(spec, [spec.name], None, time.monotonic() - t0, margins, seeded, killed)


def _checked(spec: EngineSpec, sandbox: Sandbox, jobs: int, seed: int) -> Checked:
    """check_engine's findings, from the build cache when the same engine was checked on the same host, swr and
    seed before (swr.kinds.engine.build_cache); a clean check is stored for next time."""
    k = build_cache.key(spec, seed, sandbox.name)
    if (hit := build_cache.load(k)) is not None:
        return Checked(hit["report"], [], hit["public"], hit["hidden"])
    checked = check_engine(spec.directory, sandbox, jobs, seed)
    if not checked.problems:
        build_cache.store(k, {"report": checked.report, "public": checked.public, "hidden": checked.hidden})
    return checked
