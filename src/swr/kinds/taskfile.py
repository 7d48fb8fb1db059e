"""`task.toml`, the typed model every task directory starts from: its kind, identity, limits, tolerances,
environment and anti-cheat lists. One model per kind; the `kind` field chooses (absent means workflow)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated, Any, Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from swr.core.errors import SwrError, first_problem, load_toml
from swr.core.layout import TaskPaths
from swr.kinds.workflow.spec import LintAccept


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Anticheat(_Model):
    """What a candidate must not use: unimportable and off PATH in its sandbox, and named by anti-cheat."""

    forbidden_packages: tuple[str, ...] = ()
    forbidden_binaries: tuple[str, ...] = ()


class TaskLimits(_Model):
    time_s: float = Field(gt=0)
    memory_mb: int = Field(gt=0)
    pids: int = Field(gt=0)
    stdout_mb: int = Field(gt=0)


class FieldTolerance(_Model):
    atol: float | None = Field(None, ge=0)
    rtol: float | None = Field(None, ge=0)
    artifact: dict[str, Any] | None = None  # the artifact comparator's options, for a file-valued field
    period: float | None = Field(None, gt=0)  # values compared modulo this (angles)
    zero: bool | None = None  # true: zero by construction (its rtol is already 0 in `rtol`); absent otherwise


class TaskTolerances(_Model):
    atol: float = Field(ge=0)
    rtol: float = Field(ge=0)
    ignore: tuple[str, ...] = ()
    fields: dict[str, FieldTolerance] = {}


class Environment(_Model):
    """What a task runs in: pinned pip and apt packages for an image, or a named image; {} is the host's."""

    python: str | None = None
    pip: tuple[str, ...] = ()
    apt: tuple[str, ...] = ()
    image: str | None = None


class Grading(_Model):
    pass_threshold: float = Field(1.0, gt=0, le=1)  # share of hidden scenarios a pass needs (`swr audit lint` flags <1)


class TaskLint(_Model):
    """The workflow's `[[lint.accept]]` entries, carried so that `swr audit lint` on a release can honour them."""

    accept: tuple[LintAccept, ...] = ()


class WorkflowTaskFile(_Model):
    """A workflow task (SWR): one variant of a wrapped workflow, graded by the judge."""

    kind: Literal["workflow"] = "workflow"
    id: str
    workflow: str
    family: str
    domain: str
    variant: int = Field(ge=1)
    workflow_hash: str
    limits: TaskLimits
    tolerances: TaskTolerances
    environment: Environment = Environment()
    anticheat: Anticheat = Anticheat()
    grading: Grading = Grading()
    lint: TaskLint | None = None  # absent unless the workflow accepts a lint finding

    @property
    def source(self) -> str:
        """What the task was built from (the workflow its variants share): a defect may name it."""
        return self.workflow


class EngineInterface(_Model):
    description: str
    timeout_s: float = Field(gt=0)
    memory_mb: int = Field(gt=0)


class EngineTaskFile(_Model):
    """An engine task (ReviveBench reconstruction): what the agent may know; checks and thresholds stay private."""

    kind: Literal["engine"]
    id: str
    engine: str
    family: str
    domain: str
    analog: str
    summary: str
    interface: EngineInterface
    anticheat: Anticheat = Anticheat()
    environment: Environment = Environment()  # engines run on the host's system: their verifiers' tools are there

    @property
    def source(self) -> str:
        """What the task was built from (its engine): a defect may name it."""
        return self.engine


class RevivalFeedback(_Model):
    """What ./feedback runs in a revival workspace, where the private spec is absent: the public tests."""

    public: tuple[str, ...] = ()  # test files or node ids in the project
    pythonpath: tuple[str, ...] = (".",)
    timeout_s: float = Field(600.0, gt=0)


class RevivalTaskFile(_Model):
    """A revival task (ReviveBench revival): the public part of its revival.toml, the upstream release date
    (cohorts before and after a cutoff) and whether its identifiers were obfuscated. Tests, probes and the
    recorded outputs stay private."""

    kind: Literal["revival"]
    id: str
    revival: Literal["deleted-module", "dependency-rot", "build"]
    family: str
    domain: str
    summary: str
    released: dt.date
    obfuscated: bool = False
    target: Environment  # the interpreter and pins the project must run with
    anticheat: Anticheat = Anticheat()
    environment: Environment = Environment()  # graded on the host's system, in the target venv
    feedback: RevivalFeedback = RevivalFeedback()

    @property
    def source(self) -> str:
        """What the task was built from (the revival folder it was built from): a defect may name it."""
        return self.id


AnyTaskFile = WorkflowTaskFile | EngineTaskFile | RevivalTaskFile
TaskFile = Annotated[AnyTaskFile, Field(discriminator="kind")]
_ADAPTER: TypeAdapter[AnyTaskFile] = TypeAdapter(TaskFile)


def parse_task_file(data: dict[str, Any], path: Path) -> AnyTaskFile:
    """A task.toml table as its kind's model; the first problem as a one-line error naming file and field."""
    try:
        return _ADAPTER.validate_python({"kind": "workflow", **data})
    except ValidationError as e:
        msg, where = first_problem(e, tagged=True)
        raise SwrError(msg, file=path, field=where) from None


def read_task_file(root: Path) -> AnyTaskFile:
    """The task.toml of a task directory (a release's, or a workspace's public copy)."""
    path = TaskPaths(root).toml
    data = load_toml(path, missing=SwrError(f"not a task directory (no {path.name})", file=root))
    return parse_task_file(data, path)


def dump_task_file(meta: AnyTaskFile) -> str:
    """task.toml's text: every field the model holds, None left out (TOML has no null)."""
    return tomli_w.dumps(meta.model_dump(mode="json", exclude_none=True))


class Forbidden:
    """task.toml's `[anticheat]` lists, whatever the task's kind (a mixin over `meta`)."""

    meta: WorkflowTaskFile | EngineTaskFile | RevivalTaskFile

    @property
    def forbidden_packages(self) -> tuple[str, ...]:
        """Packages a candidate must not use: unimportable in its sandbox, and named by anti-cheat."""
        return self.meta.anticheat.forbidden_packages

    @property
    def forbidden_binaries(self) -> tuple[str, ...]:
        """Programs a candidate must not run: absent from its sandbox's PATH."""
        return self.meta.anticheat.forbidden_binaries
