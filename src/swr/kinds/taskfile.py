"""`task.toml`, the typed model every task directory starts from: its kind, identity, environment and
anti-cheat lists. One model per kind, in the kind's package (its TaskKind's `task_file`); the `kind` field
chooses through the registry (absent means workflow). Here: what every kind's model shares."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from swr.core.errors import SwrError, first_problem, load_toml
from swr.core.layout import TaskPaths


class TaskModel(BaseModel):
    """The base of every kind's task.toml model: unknown fields are errors, a loaded model never changes. Every
    kind's model has `kind`, `id`, `family`, `domain`, `anticheat` (Anticheat) and `environment` (Environment)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    if TYPE_CHECKING:  # for the checker only (not fields here): each kind's model defines these fields itself

        @property
        def kind(self) -> str: ...
        @property
        def id(self) -> str: ...
        @property
        def family(self) -> str: ...
        @property
        def domain(self) -> str: ...

    @property
    def source(self) -> str:
        """What the task was built from (a defect may name it): its id, unless its kind says otherwise."""
        return str(self.id)


_Model = TaskModel


class Anticheat(_Model):
    """What a candidate must not use: unimportable and off PATH in its sandbox, and named by anti-cheat."""

    forbidden_packages: tuple[str, ...] = ()
    forbidden_binaries: tuple[str, ...] = ()


class TaskLimits(_Model):
    time_s: float = Field(gt=0)
    memory_mb: int = Field(gt=0)
    pids: int = Field(gt=0)
    stdout_mb: int = Field(gt=0)


class Environment(_Model):
    """What a task runs in: pinned pip and apt packages for an image, or a named image; {} is the host's."""

    python: str | None = None
    pip: tuple[str, ...] = ()
    apt: tuple[str, ...] = ()
    image: str | None = None


AnyTaskFile = TaskModel  # every kind's model derives from it (kind, id, family, domain, anticheat, environment)


def parse_task_file(data: dict[str, Any], path: Path) -> Any:
    """A task.toml table as its kind's model (the registry's); the first problem as a one-line error naming
    file and field (an unknown kind: the field `kind`)."""
    from swr.kinds import registry

    name = data.get("kind", "workflow")
    kind = registry.get(name) if isinstance(name, str) else None
    if kind is None:
        raise SwrError(f"unknown task kind {name!r} (one of {', '.join(registry.names())})", file=path, field="kind")
    try:
        return kind.task_file.model_validate({"kind": kind.name, **data})
    except ValidationError as e:
        msg, where = first_problem(e)
        raise SwrError(msg, file=path, field=where) from None


def read_task_file(root: Path) -> Any:
    """The task.toml of a task directory (a release's, or a workspace's public copy)."""
    path = TaskPaths(root).toml
    data = load_toml(path, missing=SwrError(f"not a task directory (no {path.name})", file=root))
    return parse_task_file(data, path)


def dump_task_file(meta: AnyTaskFile) -> str:
    """task.toml's text: every field the model holds, None left out (TOML has no null)."""
    return tomli_w.dumps(meta.model_dump(mode="json", exclude_none=True))


class Forbidden:
    """task.toml's `[anticheat]` lists, whatever the task's kind (a mixin over `meta`)."""

    meta: Any  # a kind's task.toml model: every one has `anticheat`

    @property
    def forbidden_packages(self) -> tuple[str, ...]:
        """Packages a candidate must not use: unimportable in its sandbox, and named by anti-cheat."""
        return cast(tuple[str, ...], self.meta.anticheat.forbidden_packages)

    @property
    def forbidden_binaries(self) -> tuple[str, ...]:
        """Programs a candidate must not run: absent from its sandbox's PATH."""
        return cast(tuple[str, ...], self.meta.anticheat.forbidden_binaries)
