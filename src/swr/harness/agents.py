"""Agents: what fills a workspace's solution/. Built in: `nop` and `oracle`; command agents and the
OpenAI-compatible agent register here too."""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from swr.release import Task
from swr.sandbox import Sandbox
from swr.workflow import write_oracle

from .workspace import Workspace


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
        return {"max_turns": self.max_turns, "time_limit_s": self.time_limit_s, "token_limit": self.token_limit,
                "max_output_tokens": self.max_output_tokens}


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


@dataclass
class Context:
    task: Task  # the full task: only host-side, trusted agents (oracle) may read its private parts
    workspace: Workspace
    sandbox: Sandbox
    budget: Budget
    model: str | None
    attempt: int
    options: dict[str, Any] = field(default_factory=dict)


class Agent(Protocol):
    name: str

    def solve(self, ctx: Context) -> Outcome: ...


class NopAgent:
    """The no-agent baseline: leaves the workspace as it found it (must score 0)."""

    name = "nop"

    def solve(self, ctx: Context) -> Outcome:
        return Outcome()


class OracleAgent:
    """Copies the wrapped reference into solution/ (must score 1): proves the harness, not a model."""

    name = "oracle"

    def solve(self, ctx: Context) -> Outcome:
        shutil.rmtree(ctx.workspace.solution)
        write_oracle(ctx.task.reference_spec(), ctx.task.reference_dir, ctx.workspace.solution)
        return Outcome()


AGENTS: dict[str, Callable[[dict[str, Any]], Agent]] = {
    "nop": lambda opts: NopAgent(),
    "oracle": lambda opts: OracleAgent(),
}


def _register_model_agents() -> None:
    """The model-driven agents live in their own modules, imported lazily (openai, litellm are heavy)."""

    def openai_agent(opts: dict[str, Any]) -> Agent:
        from .llm_agent import OpenAIAgent

        return OpenAIAgent(opts)

    def mini(opts: dict[str, Any]) -> Agent:
        from .command_agent import MiniSweAgent

        return MiniSweAgent(opts)

    def command(name: str) -> Callable[[dict[str, Any]], Agent]:
        def make(opts: dict[str, Any]) -> Agent:
            from .command_agent import command_agent

            return command_agent(name, opts)
        return make

    AGENTS["openai"] = openai_agent
    AGENTS["mini-swe-agent"] = mini
    for name in ("claude-code", "codex", "openhands", "command"):
        AGENTS[name] = command(name)


_register_model_agents()


def make_agent(name: str, options: dict[str, Any] | None = None) -> Agent:
    from swr.errors import SwrError

    if name not in AGENTS:
        raise SwrError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}", field="--agent")
    return AGENTS[name](options or {})
