"""The engine kind's task.toml model: what the agent may know of an engine (checks and thresholds stay private)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from swr.kinds.taskfile import Anticheat, Environment
from swr.kinds.taskfile import TaskModel as _Model


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
