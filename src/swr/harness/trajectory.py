"""ATIF trajectories (Agent Trajectory Interchange Format, Harbor RFC 0001, v1.4): one JSON document per
run holding every prompt, model turn, tool call and observation, so runs can be replayed, inspected and
exported as training data with the same tools Harbor users already have."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

SCHEMA_VERSION = "ATIF-v1.4"
RECORDED_BY, SWR_RECORD = "recorded_by", "swr"  # the mark of a trajectory the harness built itself


class _Model(BaseModel):
    # ATIF has `extra` objects for custom data; unknown keys elsewhere are a sign of a wrong field name
    model_config = ConfigDict(extra="forbid")


class AgentInfo(_Model):
    name: str
    version: str
    model_name: str | None = None
    extra: dict[str, Any] | None = None


class ToolCall(_Model):
    tool_call_id: str
    function_name: str
    arguments: dict[str, Any]


class ObservationResult(_Model):
    source_call_id: str | None = None
    content: str | None = None
    subagent_trajectory_ref: list[dict[str, Any]] | None = None


class Observation(_Model):
    results: list[ObservationResult]


class Metrics(_Model):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None
    cost_usd: float | None = None
    prompt_token_ids: list[int] | None = None
    completion_token_ids: list[int] | None = None
    logprobs: list[float] | None = None
    extra: dict[str, Any] | None = None


class Step(_Model):
    step_id: int = Field(ge=1)
    timestamp: str | None = None
    source: Literal["system", "user", "agent"]
    model_name: str | None = None
    reasoning_effort: str | float | None = None
    message: str
    reasoning_content: str | None = None
    tool_calls: list[ToolCall] | None = None
    observation: Observation | None = None
    metrics: Metrics | None = None
    extra: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _agent_only(self) -> Step:
        if self.source != "agent" and (self.tool_calls or self.metrics or self.model_name or self.reasoning_content):
            raise ValueError(f"step {self.step_id}: tool_calls, metrics, model_name, reasoning are agent-only")
        return self


class FinalMetrics(_Model):
    total_prompt_tokens: int | None = None
    total_completion_tokens: int | None = None
    total_cached_tokens: int | None = None
    total_cost_usd: float | None = None
    total_steps: int | None = None
    extra: dict[str, Any] | None = None


class Trajectory(_Model):
    schema_version: str
    session_id: str
    agent: AgentInfo
    steps: list[Step]
    notes: str | None = None
    final_metrics: FinalMetrics | None = None
    extra: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Trajectory:
        if not self.schema_version.startswith("ATIF-v1."):
            raise ValueError(f"unsupported schema_version {self.schema_version!r}")
        for i, s in enumerate(self.steps, 1):
            if s.step_id != i:
                raise ValueError(f"step_id {s.step_id} at position {i}: ids must run 1, 2, 3, ...")
            ids = {c.tool_call_id for c in s.tool_calls or []}
            for r in s.observation.results if s.observation else []:
                if r.source_call_id is not None and r.source_call_id not in ids:
                    raise ValueError(f"step {i}: observation for unknown tool call {r.source_call_id!r}")
        return self


def validate_atif(data: dict[str, Any]) -> Trajectory:
    """The parsed trajectory, or ValueError naming the first problem (for tests and imports)."""
    try:
        return Trajectory.model_validate(data)
    except ValidationError as e:
        raise ValueError(f"not an ATIF trajectory: {e}") from None


def agent_json(text: str | bytes) -> Any:
    """JSON an agent (or its model) produced. Whatever does not parse is the agent's failure, never the
    harness's: nesting too deep for the parser (a RecursionError, which no caller expects from bad input)
    is a ValueError like bad syntax."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


MAX_TRACED = 1000  # commands taken from a shell trace
MAX_COMMAND = 2000  # characters of one


def shell_trace_calls(trace: bytes) -> list[tuple[str, str, dict[str, Any]]]:
    """A bash xtrace (`set -x`: each command on a line starting with "+", continuation lines after it)
    as (id, "bash", {"command"}) tool calls, the first MAX_TRACED of them."""
    commands: list[str] = []
    for line in trace.decode("utf-8", errors="replace").splitlines():
        if line.startswith("+"):
            if len(commands) == MAX_TRACED:
                break
            commands.append(line.lstrip("+ ")[:MAX_COMMAND])
        elif commands and len(commands[-1]) < MAX_COMMAND:
            commands[-1] = (commands[-1] + "\n" + line)[:MAX_COMMAND]
    return [(f"traced_{i}", "bash", {"command": c}) for i, c in enumerate(commands, 1)]


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class TrajectoryBuilder:
    """Appends steps as a run goes, numbering them and summing the metrics into final_metrics."""

    def __init__(self, agent: str, version: str, model: str | None, session_id: str | None = None):
        self.agent = AgentInfo(name=agent, version=version, model_name=model)
        self.session_id = session_id or str(uuid.uuid4())
        self.steps: list[Step] = []
        self.notes: list[str] = []

    def _add(self, **kw: Any) -> Step:
        step = Step(step_id=len(self.steps) + 1, timestamp=now(), **kw)
        self.steps.append(step)
        return step

    def system(self, message: str) -> Step:
        return self._add(source="system", message=message)

    def user(self, message: str) -> Step:
        return self._add(source="user", message=message)

    def agent_turn(
        self,
        message: str,
        tool_calls: list[tuple[str, str, dict[str, Any]]] = (),  # type: ignore[assignment]
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
        cost_usd: float | None = None,
        reasoning: str | None = None,
    ) -> Step:
        """One model response; its tool calls are (id, name, arguments); observe() adds their results."""
        calls = [ToolCall(tool_call_id=i, function_name=n, arguments=a) for i, n, a in tool_calls] or None
        metrics = Metrics(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cost_usd=cost_usd)
        return self._add(
            source="agent",
            message=message,
            tool_calls=calls,
            metrics=metrics,
            model_name=self.agent.model_name,
            reasoning_content=reasoning,
        )

    def observe(self, step: Step, call_id: str | None, content: str) -> None:
        if step.observation is None:
            step.observation = Observation(results=[])
        step.observation.results.append(ObservationResult(source_call_id=call_id, content=content))

    def build(self) -> dict[str, Any]:
        """The record, marked as swr's own (`extra.recorded_by`): what the harness saw, never a file the agent
        wrote; `swr export sft` takes nothing else as training data."""

        def total(attr: str) -> Any:
            vals = [getattr(s.metrics, attr) for s in self.steps if s.metrics and getattr(s.metrics, attr) is not None]
            return sum(vals) if vals else None

        fm = FinalMetrics(
            total_prompt_tokens=total("prompt_tokens") or 0,
            total_completion_tokens=total("completion_tokens") or 0,
            total_cost_usd=total("cost_usd"),
            total_steps=len(self.steps),
        )
        t = Trajectory(
            schema_version=SCHEMA_VERSION,
            session_id=self.session_id,
            agent=self.agent,
            steps=self.steps,
            notes="; ".join(self.notes) or None,
            final_metrics=fm,
            extra={RECORDED_BY: SWR_RECORD},
        )
        return t.model_dump(mode="json", exclude_none=True)
