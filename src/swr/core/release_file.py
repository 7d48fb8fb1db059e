"""A release's release.json, typed: the seed and options it was built with, the tasks it holds, what became of
each workflow, engine and revival it was built from, the gate summary, and the content hash of its tasks/.
Written once, by finish_release (swr.core.release_dir) sealing a build of swr.assemble; read by every command
that takes a release."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Options(_Record):
    """The build options that change the release (swr.kinds.workflow.build.BuildOptions.summary)."""

    variants: int
    public: int
    hidden: int
    max_rounds: int


class Built(_Record):
    """What became of one source folder: its tasks, or why there are none."""

    name: str
    family: str
    domain: str
    status: Literal["ok", "failed", "skipped"]  # skipped: this machine cannot build it (a revival needing a GPU)
    reason: str | None
    tasks: list[str]


class WorkflowBuilt(Built):
    workflow_hash: str
    dropped_variants: dict[str, str] | None = None  # variant -> the gate that dropped it (none dropped: absent)


class EngineBuilt(Built):
    kind: Literal["engine"]
    hidden_cases: str  # drawn from the seed, or fixed (and why)


class RevivalBuilt(Built):
    kind: Literal["revival"]
    revival: str  # the revival kind (a port, a deleted module, ...)


class GateSummary(_Record):
    gates: list[str]
    workflows_built: int
    workflows_failed: int


class ReleaseFile(_Record):
    """The file; `engines` and `revivals` only when the build had some. A plug-in kind (swr.kinds.registry)
    adds its own list under its summary key: kept as built (its kind, not this model, types it)."""

    model_config = ConfigDict(frozen=True, extra="allow", strict=True)

    swr_version: str
    seed: int
    options: Options
    tasks: list[str]
    workflows: list[WorkflowBuilt]
    engines: list[EngineBuilt] | None = None
    revivals: list[RevivalBuilt] | None = None
    gates: GateSummary
    content_hash: str | None = None  # set when sealed: tree_hash of tasks/ (None: nothing was built)
