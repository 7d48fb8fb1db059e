"""A workflow task as graders, agents and audits see it, and writing one into a release (task.toml, the
instruction, public/ and hidden/ examples, the private reference and its gates)."""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swr.core import outputs
from swr.core.errors import SwrError, load_json
from swr.core.jsonfile import dump_json
from swr.core.layout import TaskPaths, example_files
from swr.core.recordfile import parse_record, read_record, write_record
from swr.judge import Tolerances
from swr.judge.tolerance import artifact_options
from swr.kinds.base import BaseTask, parameter_type
from swr.kinds.protocol import AgentBrief, Composition, HarborParts, Split
from swr.kinds.taskfile import Anticheat, Environment, TaskLimits, dump_task_file, read_task_file
from swr.kinds.workflow.gates_file import Gate, GatesFile
from swr.kinds.workflow.reference import copy_files, copy_reference
from swr.kinds.workflow.spec import SPEC_FILE, WorkflowSpec, load_spec
from swr.kinds.workflow.taskfile import FieldTolerance, TaskLint, TaskTolerances, WorkflowTaskFile
from swr.kinds.workflow.verdict import WorkflowVerdict
from swr.sandbox import Limits, MiB
from swr.sandbox.images import pin

WORKFLOW_BRIEF = AgentBrief(
    goal="Read instruction.md and public/ there. Build an executable program solution/run that reads one JSON\n"
    "scenario on stdin and prints one JSON object on stdout, reproducing the reference behaviour.",
    feedback="grade solution/ on the public examples",
    finish="solution/run is graded on hidden scenarios",
    protected="instruction.md, task.toml, feedback or public/",
    nudge="Use the tools: write solution/run, check it with feedback, then call finish.",
)


@dataclass
class Example:
    index: int
    scenario: dict[str, Any]
    output: Any
    files: Path | None = None  # where its artifact files are (the example's own directory once written)
    artifacts: tuple[str, ...] = ()  # the names among `files` that the output refers to


@dataclass
class Task(BaseTask):
    """A task as graders, agents and audits see it; `hidden` is empty in a public-only workspace."""

    id: str
    root: Path
    meta: WorkflowTaskFile
    tolerances: Tolerances
    limits: Limits
    public: list[Example]
    hidden: list[Example] = field(default_factory=list)

    @property
    def pass_threshold(self) -> float:
        """Share of hidden scenarios a pass needs: 1 unless a task.toml `[grading]` table lowers it
        (imported verifiers sometimes do; `swr audit lint` flags it)."""
        return self.meta.grading.pass_threshold

    @property
    def files_dir(self) -> Path | None:
        d = TaskPaths(self.root).files
        return d if d.is_dir() else None

    @property
    def reference_dir(self) -> Path:
        return TaskPaths(self.root).reference

    @property
    def gates(self) -> dict[str, Gate]:
        """Every gate's result as the build recorded it ({} in a public-only copy)."""
        path = gates_path(self.root)
        return read_record(GatesFile, path).gates if path.is_file() else {}

    @property
    def environment(self) -> dict[str, Any]:
        """What the task runs in: pinned `pip` and `apt` packages, or a named `image` (task.toml)."""
        if "environment" not in self.meta.model_fields_set:
            return {}  # an older release: the host's root
        return self.meta.environment.model_dump(mode="json", exclude_none=True)

    def reference_spec(self) -> WorkflowSpec:
        if not (self.reference_dir / SPEC_FILE).is_file():
            raise SwrError("this task has no private reference (a public-only copy?)", file=self.root)
        return load_spec(self.reference_dir)

    # The KindTask protocol (swr.kinds.protocol): what every command asks of a task, whatever its kind.

    def grade(
        self, candidate: Path, sandbox: Any, *, split: Split = "all", jobs: int = 2, reference: bool = False
    ) -> WorkflowVerdict:
        """The judge's verdict on the hidden (and public) scenarios; a reference candidate is graded alike."""
        from swr.kinds.workflow.grading import grade as grade_workflow

        return grade_workflow(self, candidate, sandbox, split=split, jobs=jobs)

    def write_oracle(self, dest: Path) -> None:
        """The wrapped reference as a candidate program."""
        from swr.kinds.workflow.reference import write_oracle as wrap

        wrap(self.reference_spec(), self.reference_dir, dest)

    def agent_sandbox(self) -> tuple[tuple[Any, ...], dict[str, str]]:
        """Nothing beyond the task's image: ./feedback needs no environment of its own."""
        return (), {}

    def agent_copies(self) -> tuple[Path, ...]:
        """No original to cover: the forbidden packages are the wrapped program."""
        return ()

    def nop_candidate(self, empty: Path) -> Path:
        """An empty solution: its missing `run` prints nothing useful."""
        return empty

    def agent_brief(self) -> AgentBrief:
        """Write solution/run that reproduces the reference on JSON scenarios."""
        return WORKFLOW_BRIEF

    def case_counts(self) -> tuple[int, int]:
        """(public examples, hidden scenarios)."""
        return len(self.public), len(self.hidden)

    def build_gates(self) -> dict[str, Any]:
        """The release gates by name, as the build recorded them."""
        return self.gates

    def attained(self, oracle: Any) -> dict[str, Any]:
        """A catalog workflow prescribes no numerical method: its only thresholds are the declared tolerances,
        which the oracle attains exactly."""
        tol = self.tolerances
        return {
            "thresholds": [{"field": "*", "atol": tol.atol, "rtol": tol.rtol, "attained": oracle.passed}],
            "thresholds_met": True,
        }

    def copy_checked(self) -> bool:
        """No original: a candidate reimplements a program it cannot see."""
        return False

    def composition(self) -> Composition:
        """The inputs of its public schema (a categorical by its choices' type, a path a string), and its first
        public example's output without the ignored fields, with the files that output names."""
        from swr.judge.artifacts.fields import Reference, artifact_leaves

        schema = json.loads(TaskPaths(self.root).schema.read_text()) if TaskPaths(self.root).schema.is_file() else {}
        types = {"number": "numeric", "integer": "numeric", "boolean": "boolean", "array": "array", "path": "string"}
        params = tuple(
            types.get(spec.get("type"), "mixed")
            if spec.get("type") != "categorical"
            else parameter_type(spec["choices"])
            for _, spec in sorted((schema.get("inputs") or {}).items())
        )
        if not self.public:
            return Composition(params, None)
        first = self.public[0]
        files = tuple(name for _, name in artifact_leaves(Reference(first.output, first.files), self.tolerances))
        return Composition(params, _graded_part(first.output, self.tolerances), files)

    def harbor_parts(self) -> HarborParts:
        """The task's pins and limits; a case is one scenario."""
        env, lim = self.meta.environment, self.meta.limits
        hidden = TaskPaths(self.root).hidden_examples
        cases = sum(1 for d in hidden.iterdir() if d.is_dir()) if hidden.is_dir() else 1
        first = TaskPaths(self.root).instruction.read_text().split("\n\n")
        return HarborParts(
            python=env.python,
            apt=tuple(sorted(set(env.apt))),
            agent_pip=env.pip,
            agent_libs=(),
            judge_extras=(),
            judge_exact=False,
            project=None,
            memory_mb=lim.memory_mb,
            case_s=lim.time_s,
            hidden_cases=cases,
            verify_extra_s=0.0,
            summary=first[1].strip() if len(first) > 1 else self.meta.workflow,
        )


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def gates_path(root: Path) -> Path:
    return TaskPaths(root).gates


def write_gates(root: Path, gates: dict[str, Any]) -> None:
    """The gates' results as their model (a result that is not a gate's fails here, at the build)."""
    write_record(gates_path(root), parse_record(GatesFile, {"gates": gates}, gates_path(root)))


def write_task(
    root: Path,
    meta: WorkflowTaskFile,
    instruction: str,
    schema: dict[str, Any],
    public: list[Example],
    hidden: list[Example],
    reference_src: Path,
    files: list[str],
) -> Task:
    """Write one task directory (gates.json comes after the final gates); `files` travel with the task.
    Returns the task as written, for the build's final gates, without reading it back."""
    at = TaskPaths(root)
    _write(at.toml, dump_task_file(meta))
    _write(at.instruction, instruction)
    _write(at.schema, dump_json(schema))
    for split, examples in ((at.public_examples, public), (at.hidden_examples, hidden)):
        for ex in examples:
            d, scenario, output = example_files(split, ex.index)
            _write(scenario, dump_json(ex.scenario))
            _write(output, dump_json(ex.output))
            for name in ex.artifacts:
                shutil.copyfile(ex.files / name, d / name)  # type: ignore[operator]
    copy_files(reference_src, files, at.files)
    copy_reference(reference_src, at.reference)
    return _task(
        root,
        meta,
        [_as_written(ex, at.public_examples) for ex in public],
        [_as_written(ex, at.hidden_examples) for ex in hidden],
    )


def _graded_part(doc: Any, tol: Tolerances, path: tuple[str | int, ...] = ()) -> Any:
    """The document without the fields `tol` ignores (gates.strip_ignored's rule; gates imports this module,
    so it cannot be imported here)."""
    if not tol.ignore:
        return doc
    if isinstance(doc, dict):
        return {k: _graded_part(v, tol, (*path, k)) for k, v in doc.items() if tol.for_path((*path, k)) is not None}
    if isinstance(doc, list):
        return [_graded_part(v, tol, (*path, i)) for i, v in enumerate(doc)]
    return doc


def _as_written(ex: Example, split_dir: Path) -> Example:
    """An example as load_workflow_task reads it from its directory: values as the JSON files hold them (sorted keys,
    which the oracle then receives on stdin like every later candidate), files in the example's directory."""
    return Example(
        ex.index,
        json.loads(dump_json(ex.scenario)),
        json.loads(dump_json(ex.output)),
        example_files(split_dir, ex.index)[0],
    )


def _examples(d: Path) -> list[Example]:
    if not d.is_dir():
        return []
    out = []
    for sub in sorted((p for p in d.iterdir() if p.name.isdigit()), key=lambda p: int(p.name)):
        _, scenario, output = example_files(d, sub.name)
        out.append(Example(int(sub.name), load_json(scenario), load_json(output), sub))
    return out


def load_workflow_task(root: str | Path) -> Task:
    """Load a task directory (full, or a public-only workspace copy)."""
    root = Path(root)
    at = TaskPaths(root)
    meta = read_task_file(root)
    if not isinstance(meta, WorkflowTaskFile):  # (the workflow kind's own model: within its package)
        raise SwrError(f"a {meta.kind} task, not a workflow task", file=at.toml, field="kind")
    return _task(root, meta, _examples(at.public_examples), _examples(at.hidden_examples))


def _task(root: Path, meta: WorkflowTaskFile, public: list[Example], hidden: list[Example]) -> Task:
    """A Task from its task.toml model and its examples."""
    tol, lim = meta.tolerances, meta.limits
    fields = tol.fields.items()
    tolerances = Tolerances(
        atol=tol.atol,
        rtol=tol.rtol,
        ignore=tol.ignore,
        fields=tuple((p, f.atol, f.rtol) for p, f in fields),
        artifacts=artifact_options({p: f.artifact for p, f in fields if f.artifact is not None}),
        periods=tuple((p, f.period) for p, f in fields if f.period is not None),
        zeros=tuple(p for p, f in fields if f.zero),
    )
    limits = Limits(
        time_s=lim.time_s, memory_bytes=lim.memory_mb * MiB, pids=lim.pids, stdout_bytes=lim.stdout_mb * MiB
    )
    return Task(meta.id, root, meta, tolerances, limits, public, hidden)


def task_meta(spec: WorkflowSpec, task_id: str, variant: int, limits: Limits) -> WorkflowTaskFile:
    """A variant's task.toml: what graders and agents read instead of the workflow's own spec."""
    tol = spec.tolerances
    fields = {p: FieldTolerance(atol=a, rtol=r) for p, a, r in tol.fields}
    for p, opts in tol.artifacts:
        fields[p] = (fields.get(p) or FieldTolerance()).model_copy(update={"artifact": json.loads(opts)})
    for p, period in tol.periods:
        fields[p] = (fields.get(p) or FieldTolerance()).model_copy(update={"period": period})
    for p in tol.zeros:
        fields[p] = (fields.get(p) or FieldTolerance()).model_copy(update={"zero": True})
    return WorkflowTaskFile(
        id=task_id,
        workflow=spec.name,
        family=spec.family,
        domain=spec.domain,
        variant=variant,
        workflow_hash=spec.content_hash,
        limits=TaskLimits(
            time_s=limits.time_s,
            memory_mb=limits.memory_bytes // MiB,
            pids=limits.pids,
            stdout_mb=limits.stdout_bytes // MiB,
        ),
        tolerances=TaskTolerances(atol=tol.atol, rtol=tol.rtol, ignore=tuple(tol.ignore), fields=fields),
        environment=Environment(**environment(spec)),
        anticheat=Anticheat(forbidden_packages=tuple(spec.forbidden_packages)),
        lint=TaskLint(accept=tuple(spec.lint.accept)) if spec.lint.accept else None,
    )


def environment(spec: WorkflowSpec) -> dict[str, Any]:
    """The workflow's `[requires]`, pip packages pinned to the versions the references ran with."""
    env: dict[str, Any] = {
        "python": "{}.{}".format(*sys.version_info[:2]),
        "pip": [pin(r) for r in spec.requires.pip],
        "apt": sorted(spec.requires.apt),
    }
    if spec.requires.image:
        env["image"] = spec.requires.image
    return env


def staging_dir(final: Path) -> Path:
    """Where a build writes before the release is swapped in whole: a fresh directory beside it."""
    return outputs.scratch_beside(final, "partial")
