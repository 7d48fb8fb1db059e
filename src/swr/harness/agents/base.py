"""What every agent is handed and hands back (Context, Budget, Outcome), the sandboxed job it may start and
the error that is not its fault: its own module, so the registry (agents/__init__.py) and each agent import it."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

from swr import kinds
from swr.sandbox import WORKDIR, Job, Limits, Mount, Sandbox, hide

from ..workspace import Workspace


class InfraError(Exception):
    """The run could not happen (endpoint down, quota, sandbox start): not the model's failure."""


@dataclass(frozen=True)
class Budget:
    """Inspect's limit names: message (turns), time, token; plus a cap on each model call's output."""

    max_turns: int | None = 50
    time_limit_s: float | None = 1800.0
    token_limit: int | None = None
    max_output_tokens: int | None = 4096

    def as_dict(self) -> dict[str, Any]:
        return {
            "max_turns": self.max_turns,
            "time_limit_s": self.time_limit_s,
            "token_limit": self.token_limit,
            "max_output_tokens": self.max_output_tokens,
        }


@dataclass
class Outcome:
    """What an agent reports about its own run; the verdict comes from grading, not from here."""

    turns: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0
    limit: str | None = None  # turn_limit | time_limit | token_limit when a budget ran out
    trajectory: dict[str, Any] | None = None  # ATIF
    notes: list[dict[str, Any]] = field(default_factory=list)  # e.g. a budget setting the endpoint ignored
    observed: list[dict[str, Any]] = field(default_factory=list)  # tool calls the harness saw (ATIF ToolCall)


@dataclass
class Context:
    task: kinds.AnyTask  # the full task: only host-side, trusted agents (oracle) may read its private parts
    workspace: Workspace
    sandbox: Sandbox
    budget: Budget
    model: str | None
    attempt: int
    options: dict[str, Any] = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)  # set when the run's time is up


def agent_job(ctx: Context, argv: list[str], limits: Limits, **kw: Any) -> Job:
    """A sandboxed command of an agent: its workspace read-write, what the task's ./feedback needs read-only
    (KindTask.agent_sandbox), the task's forbidden packages and programs absent (but for what ./feedback imports)."""
    mounts, env = ctx.task.agent_sandbox()
    return Job(
        argv,
        Mount(ctx.workspace.root.resolve(), WORKDIR, "rw"),
        limits,
        extra_mounts=(*mounts, *kw.pop("extra_mounts", ())),
        env={**env, **kw.pop("env", {})},
        hidden=hide.for_agents(ctx.task.forbidden_packages),
        hidden_bins=ctx.task.forbidden_binaries,
        hidden_paths=ctx.task.agent_copies(),
        **kw,
    )


class Agent(Protocol):
    name: str

    def solve(self, ctx: Context) -> Outcome: ...
