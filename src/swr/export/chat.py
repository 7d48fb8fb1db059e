"""ATIF trajectories as OpenAI chat messages for SFT: cut after the final passing solution, with every
tool call paired to its result, so the rows load in HF `datasets` and TRL as they are (docs/export.md)."""

from __future__ import annotations

import json
from typing import Any

from swr.harness.trajectory import Step, ToolCall, Trajectory

from .program import final_solution_step

Message = dict[str, Any]


def _arguments(args: dict[str, Any]) -> str:
    """A tool call's arguments as the JSON string the OpenAI format carries (an unparseable one was kept as
    {"raw": text} by the agent: the text itself)."""
    if set(args) == {"raw"} and isinstance(args["raw"], str):
        return args["raw"]
    return json.dumps(args, ensure_ascii=False, sort_keys=True)


def _call_key(call: ToolCall) -> tuple[str, str]:
    return call.function_name, _arguments(call.arguments)


def step_messages(step: Step) -> list[Message]:
    """One ATIF step as chat messages: a system/user message, or an assistant message and one tool message per
    tool call that has a result. Calls without a result are dropped, and so are results without a call."""
    if step.source != "agent":
        return [{"role": step.source, "content": step.message}]
    results: dict[str, str] = {}
    for r in step.observation.results if step.observation else []:
        if r.source_call_id is not None and r.source_call_id not in results:
            results[r.source_call_id] = r.content or ""
    calls = [c for c in step.tool_calls or [] if c.tool_call_id in results]
    calls = list({c.tool_call_id: c for c in calls}.values())  # one call per id: OpenAI pairs by id
    kept: list[ToolCall] = []
    for c in calls:  # a call repeating the one before it: only the later (its result is what came next)
        if kept and _call_key(kept[-1]) == _call_key(c):
            kept[-1] = c
        else:
            kept.append(c)
    calls = kept
    if not calls and not step.message.strip():
        return []  # an empty turn carries nothing to learn
    msg: Message = {"role": "assistant", "content": step.message, "weight": 1}
    if calls:
        msg["tool_calls"] = [
            {
                "id": c.tool_call_id,
                "type": "function",
                "function": {"name": c.function_name, "arguments": _arguments(c.arguments)},
            }
            for c in calls
        ]
    tools = [{"role": "tool", "tool_call_id": c.tool_call_id, "content": results[c.tool_call_id]} for c in calls]
    return [msg, *tools]


def to_messages(traj: Trajectory) -> list[Message] | None:
    """The conversation up to and including the final passing solution step (its tool results too), or None
    when no step wrote or ran the program. Assistant messages carry `weight: 1` (the loss mask); others none."""
    end = final_solution_step(traj)
    if end is None:
        return None
    messages: list[Message] = []
    for step in traj.steps[: end + 1]:
        messages += step_messages(step)
    return _merge_consecutive(drop_duplicates(messages))


def _events(messages: list[Message]) -> list[list[Message]]:
    """The conversation as events: a system or user message alone, or an assistant message with its results."""
    events: list[list[Message]] = []
    for m in messages:
        if m["role"] == "tool" and events:
            events[-1].append(m)
        else:
            events.append([m])
    return events


def _same_event(a: list[Message], b: list[Message]) -> bool:
    """Equal but for call ids and results: same role, same content, same calls (name, arguments) in order."""

    def calls(m: Message) -> list[tuple[str, str]]:
        return [(c["function"]["name"], c["function"]["arguments"]) for c in m.get("tool_calls", [])]

    return a[0]["role"] == b[0]["role"] and a[0]["content"] == b[0]["content"] and calls(a[0]) == calls(b[0])


def drop_duplicates(messages: list[Message]) -> list[Message]:
    """Of consecutive duplicate events (`_same_event`) only the last is kept, its tool results with it: a
    command re-sent after a transient error keeps the result the agent went on from."""
    out: list[list[Message]] = []
    for event in _events(messages):
        if out and _same_event(out[-1], event):
            out[-1] = event
        else:
            out.append(event)
    return [m for event in out for m in event]


def _merge_consecutive(messages: list[Message]) -> list[Message]:
    """Adjacent system or user messages joined into one (a dropped empty turn may leave two side by side), so
    roles alternate as chat templates expect."""
    out: list[Message] = []
    for m in messages:
        if out and m["role"] in ("system", "user") and out[-1]["role"] == m["role"]:
            out[-1] = {**out[-1], "content": out[-1]["content"] + "\n\n" + m["content"]}
        else:
            out.append(m)
    return out


def tool_schemas(traj: Trajectory, messages: list[Message]) -> list[dict[str, Any]]:
    """The tools the agent was offered: the built-in agent's own definitions; for another agent, a schema
    per tool name its calls used (name and an open object of arguments)."""
    if traj.agent.name == "openai":
        from swr.harness.agents.llm import TOOLS

        return TOOLS
    names = sorted({c["function"]["name"] for m in messages for c in m.get("tool_calls", [])})
    return [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}} for n in names]
