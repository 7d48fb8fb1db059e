"""Agents: what fills a workspace's solution/. Built in here: `nop` and `oracle`; the command agents
(command.py) and the OpenAI-compatible agent (llm.py) register here too; base.py is what they share,
watchdog.py what bounds them from outside."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

from .base import Agent, Budget, Context, InfraError, Outcome, agent_job
from .watchdog import supervise

__all__ = ["AGENTS", "Agent", "Budget", "Context", "InfraError", "Outcome", "agent_job", "make_agent", "supervise"]


class NopAgent:
    """The no-agent baseline: leaves the workspace as it found it (must score 0)."""

    name = "nop"

    def solve(self, ctx: Context) -> Outcome:
        return Outcome()


ORACLE = "oracle"  # its runs are graded as the task's reference (a deleted module's original is no copy there)


class OracleAgent:
    """Copies the wrapped reference into solution/ (must score 1): proves the harness, not a model."""

    name = ORACLE

    def solve(self, ctx: Context) -> Outcome:
        shutil.rmtree(ctx.workspace.solution)
        ctx.task.write_oracle(ctx.workspace.solution)
        return Outcome()


AGENTS: dict[str, Callable[[dict[str, Any]], Agent]] = {
    "nop": lambda opts: NopAgent(),
    ORACLE: lambda opts: OracleAgent(),
}


def _register_model_agents() -> None:
    """The model-driven agents live in their own modules, imported lazily (openai, litellm are heavy)."""

    def openai_agent(opts: dict[str, Any]) -> Agent:
        from .llm import OpenAIAgent

        return OpenAIAgent(opts)

    def mini(opts: dict[str, Any]) -> Agent:
        from .command import MiniSweAgent

        return MiniSweAgent(opts)

    def command(name: str) -> Callable[[dict[str, Any]], Agent]:
        def make(opts: dict[str, Any]) -> Agent:
            from .command import command_agent

            return command_agent(name, opts)

        return make

    AGENTS["openai"] = openai_agent
    AGENTS["mini-swe-agent"] = mini
    for name in ("claude-code", "codex", "openhands", "command"):
        AGENTS[name] = command(name)


_register_model_agents()


def make_agent(name: str, options: dict[str, Any] | None = None) -> Agent:
    from swr.core.errors import SwrError

    if name not in AGENTS:
        raise SwrError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}", field="--agent")
    return AGENTS[name](options or {})
