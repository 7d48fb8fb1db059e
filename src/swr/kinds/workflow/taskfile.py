"""The workflow kind's task.toml model: one variant of a wrapped workflow, its limits and tolerances."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from swr.kinds.taskfile import Anticheat, Environment, TaskLimits
from swr.kinds.taskfile import TaskModel as _Model
from swr.kinds.workflow.spec import LintAccept


class FieldTolerance(_Model):
    atol: float | None = Field(default=None, ge=0)
    rtol: float | None = Field(default=None, ge=0)
    artifact: dict[str, Any] | None = None  # the artifact comparator's options, for a file-valued field
    period: float | None = Field(default=None, gt=0)  # values compared modulo this (angles)
    zero: bool | None = None  # true: zero by construction (its rtol is already 0 in `rtol`); absent otherwise


class TaskTolerances(_Model):
    atol: float = Field(ge=0)
    rtol: float = Field(ge=0)
    ignore: tuple[str, ...] = ()
    fields: dict[str, FieldTolerance] = {}


class Grading(_Model):
    # share of hidden scenarios a pass needs (`swr audit lint` flags <1)
    pass_threshold: float = Field(default=1.0, gt=0, le=1)


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
