"""The revival kind's task.toml model: the public part of a revival.toml."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from swr.kinds.taskfile import Anticheat, Environment
from swr.kinds.taskfile import TaskModel as _Model


class RevivalFeedback(_Model):
    """What ./feedback runs in a revival workspace, where the private spec is absent: the public tests."""

    public: tuple[str, ...] = ()  # test files or node ids in the project
    pythonpath: tuple[str, ...] = (".",)
    timeout_s: float = Field(default=600.0, gt=0)
    build: tuple[str, ...] = ()  # the target's build steps (revival.toml `target.build`), run before the tests
    classpath: tuple[str, ...] | None = None  # a JVM task's `verify.classpath` (absent from other tasks' task.toml)


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
    created: dt.date | None = None  # the project's creation or first release, when the spec records it
    obfuscated: bool = False
    target: Environment  # the interpreter and pins the project must run with
    anticheat: Anticheat = Anticheat()
    environment: Environment = Environment()  # graded on the host's system, in the target venv
    feedback: RevivalFeedback = RevivalFeedback()

    @property
    def source(self) -> str:
        """What the task was built from (the revival folder it was built from): a defect may name it."""
        return self.id
