"""The built-in tool-calling agent for any OpenAI-compatible chat endpoint, in the spirit of mini-swe-agent:
one loop, four tools, every shell command run in swr's sandbox (no network). Only this trusted host
process talks to the model; the model's commands never see the network, the host or the private task."""

from __future__ import annotations

import os
import time
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from swr import kinds
from swr.core.errors import SwrError
from swr.core.layout import INSTRUCTION
from swr.kinds import AgentBrief
from swr.sandbox import WORKDIR, Limits, MiB, run, tree
from swr.sandbox.base import hand_over

from ..trajectory import TrajectoryBuilder, agent_json
from .base import Context, InfraError, Outcome, agent_job

# The kind's part (goal, feedback, protected) comes from the task's agent_brief(): a revival has no solution/run.
SYSTEM = """You are a software engineer working in a shell, in the directory {workdir}.
{goal}
Tools: bash (run a command; no network), write_file (create a file, path relative to {workdir}),
feedback ({feedback}), finish (stop when you are done).
Do not edit {protected}."""


def system_prompt(brief: AgentBrief) -> str:
    return SYSTEM.format(workdir=WORKDIR, goal=brief.goal, feedback=brief.feedback, protected=brief.protected)


def tools(brief: AgentBrief) -> list[dict[str, Any]]:
    """The four tools; what feedback and finish do is the task's kind's to say."""
    return [
        {
            "type": "function",
            "function": {
                "name": "bash",
                "description": "Run a bash command in the workspace (no network). Returns exit code and output.",
                "parameters": {
                    "type": "object",
                    "properties": {"command": {"type": "string"}},
                    "required": ["command"],
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "write_file",
                "description": "Write a text file (path relative to the workspace). "
                "A file starting with #! is made executable.",
                "parameters": {
                    "type": "object",
                    "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                    "required": ["path", "content"],
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "feedback",
                "description": f"{brief.feedback[:1].upper()}{brief.feedback[1:]}; returns the verdict as JSON.",
                "parameters": {"type": "object", "properties": {}},
            },
        },
        {
            "type": "function",
            "function": {
                "name": "finish",
                "description": f"Stop working; {brief.finish}.",
                "parameters": {"type": "object", "properties": {}},
            },
        },
    ]


TOOLS = tools(kinds.WORKFLOW_BRIEF)  # a workflow task's (what swr.export.chat shows for the built-in agent)


def swr_version() -> str:
    try:
        return version("swr")
    except PackageNotFoundError:
        return "0"


def truncate(text: str, limit: int) -> str:
    """Head and tail of a long output, so the model sees both the start and the error at the end."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - limit} characters elided ...]\n{text[-half:]}"


def sandbox_command(ctx: Context, argv: list[str], time_s: float) -> str:
    """Run argv in the sandbox with the workspace mounted read-write; exit code plus output as text."""
    job = agent_job(ctx, argv, Limits(time_s=max(1.0, time_s), stdout_bytes=8 * MiB))
    res = run(ctx.sandbox, job, b"")
    out = res.stdout.decode(errors="replace")
    err = res.stderr.decode(errors="replace")
    head = f"exit code: {res.returncode}" + (f" (killed: {res.limit} limit)" if res.limit else "")
    return head + ("\n" + out if out else "") + ("\n[stderr]\n" + err if err else "")


class OpenAIAgent:
    """Options: base_url, request_timeout (s, default 60), max_retries (client retries, default 2),
    command_timeout (s per bash call, default 120), output_chars (default 10000), temperature,
    price_in/price_out (USD per million tokens, for cost)."""

    name = "openai"

    def __init__(self, options: dict[str, Any]):
        self.base_url = options.get("base_url") or os.environ.get("OPENAI_BASE_URL")
        self.request_timeout = float(options.get("request_timeout", 60.0))
        self.max_retries = int(options.get("max_retries", 2))
        self.command_timeout = float(options.get("command_timeout", 120.0))
        self.output_chars = int(options.get("output_chars", 10000))
        self.temperature = options.get("temperature")
        self.price = (float(options.get("price_in", 0.0)), float(options.get("price_out", 0.0)))

    def solve(self, ctx: Context) -> Outcome:
        import openai

        if not ctx.model:
            raise SwrError("the openai agent needs a model (-m/--model)", field="--model")
        client = openai.OpenAI(
            base_url=self.base_url,
            api_key=os.environ.get("OPENAI_API_KEY", "none"),
            timeout=self.request_timeout,
            max_retries=self.max_retries,
        )
        b, out = ctx.budget, Outcome()
        traj = TrajectoryBuilder(self.name, swr_version(), ctx.model)
        brief = ctx.task.agent_brief()
        system = system_prompt(brief)
        task = ctx.workspace.start[INSTRUCTION].decode()
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}, {"role": "user", "content": task}]
        traj.system(system)
        traj.user(task)
        start, done = time.monotonic(), False
        while not done:
            elapsed = time.monotonic() - start
            if b.max_turns is not None and out.turns >= b.max_turns:
                out.limit = "turn_limit"
            elif ctx.stop.is_set() or (b.time_limit_s is not None and elapsed >= b.time_limit_s):
                out.limit = "time_limit"
            elif b.token_limit is not None and out.input_tokens + out.output_tokens >= b.token_limit:
                out.limit = "token_limit"
            if out.limit:
                break
            left = None if b.time_limit_s is None else b.time_limit_s - elapsed
            resp = self._call(client, ctx, messages, out, left)
            if resp is None:
                break
            done = self._act(ctx, resp, messages, traj, out, start)
        out.trajectory = traj.build()
        return out

    def _call(self, client: Any, ctx: Context, messages: list[dict[str, Any]], out: Outcome, left: float | None) -> Any:
        """One model call; endpoint trouble is an InfraError, except a late 4xx (e.g. context overflow)."""
        import openai

        kw: dict[str, Any] = {
            "model": ctx.model,
            "messages": messages,
            "tools": tools(ctx.task.agent_brief()),
            "timeout": self.request_timeout if left is None else min(self.request_timeout, left),
        }
        if ctx.budget.max_output_tokens is not None:
            kw["max_tokens"] = ctx.budget.max_output_tokens
        if self.temperature is not None:
            kw["temperature"] = float(self.temperature)
        try:
            resp = client.chat.completions.create(**kw)
        except (
            openai.APIConnectionError,
            openai.InternalServerError,
            openai.RateLimitError,
            openai.AuthenticationError,
            openai.PermissionDeniedError,
            openai.NotFoundError,
        ) as e:
            raise InfraError(f"endpoint {self.base_url}: {type(e).__name__}: {e}") from None
        except openai.APIStatusError as e:
            if e.status_code >= 500 or out.turns == 0:  # a first call rejected: the setup, not the model
                raise InfraError(f"endpoint {self.base_url}: HTTP {e.status_code}: {e}") from None
            out.notes.append({"kind": "endpoint_error", "status": e.status_code, "message": str(e)[:500]})
            return None
        if not getattr(resp, "choices", None):
            raise InfraError(f"endpoint {self.base_url}: a response without choices")
        out.turns += 1
        return resp

    def _act(
        self,
        ctx: Context,
        resp: Any,
        messages: list[dict[str, Any]],
        traj: TrajectoryBuilder,
        out: Outcome,
        start: float,
    ) -> bool:
        """Record one response and run its tool calls; True once the model calls finish."""
        usage, cap = resp.usage, ctx.budget.max_output_tokens
        tin = int(getattr(usage, "prompt_tokens", 0) or 0)
        tout = int(getattr(usage, "completion_tokens", 0) or 0)
        out.input_tokens += tin
        out.output_tokens += tout
        cost = (tin * self.price[0] + tout * self.price[1]) / 1e6
        out.cost += cost
        if cap is not None and tout > cap and not any(n.get("setting") == "max_output_tokens" for n in out.notes):
            out.notes.append(
                {"kind": "ignored_setting", "setting": "max_output_tokens", "requested": cap, "observed": tout}
            )
        msg = resp.choices[0].message
        calls = list(msg.tool_calls or [])
        parsed = [(c.id, c.function.name, _arguments(c.function.arguments)) for c in calls]
        step = traj.agent_turn(
            msg.content or "",
            [(i, n, a if isinstance(a, dict) else {"raw": a}) for i, n, a in parsed],
            tin,
            tout,
            cost if any(self.price) else None,
        )
        messages.append(
            {
                "role": "assistant",
                "content": msg.content or "",
                **({"tool_calls": [c.model_dump(exclude_none=True) for c in calls]} if calls else {}),
            }
        )
        if not calls:
            nudge = ctx.task.agent_brief().nudge
            messages.append({"role": "user", "content": nudge})
            traj.user(nudge)
            return False
        done = False
        for call_id, name, args in parsed:
            if done:
                result = "not run: finish was called earlier in this response"
            else:
                result, done = self._tool(ctx, name, args, out, start)
            result = truncate(result, self.output_chars)
            messages.append({"role": "tool", "tool_call_id": call_id, "content": result})
            traj.observe(step, call_id, result)
        return done

    def _tool(self, ctx: Context, name: str, args: Any, out: Outcome, start: float) -> tuple[str, bool]:
        if ctx.stop.is_set():
            return "not run: the run's time is up", True
        if not isinstance(args, dict):
            return f"error: the arguments are not a JSON object: {str(args)[:200]}", False
        left = self.command_timeout
        if ctx.budget.time_limit_s is not None:
            left = min(left, ctx.budget.time_limit_s - (time.monotonic() - start))
        if name == "bash":
            if not isinstance(args.get("command"), str):
                return "error: bash needs a string `command`", False
            return sandbox_command(ctx, ["/bin/bash", "-lc", args["command"]], left), False
        if name == "write_file":
            return self._write(ctx, args, out), False
        if name == "feedback":
            return sandbox_command(ctx, ["./feedback", "--json"], left), False
        if name == "finish":
            return "finished", True
        return f"error: unknown tool {name!r}; use bash, write_file, feedback or finish", False

    def _write(self, ctx: Context, args: dict[str, Any], out: Outcome) -> str:
        """Write a regular file inside the workspace only: a path that leaves it is refused and recorded;
        a link, FIFO or device in the way is refused (opened without following or blocking)."""
        path, content = args.get("path"), args.get("content")
        if not isinstance(path, str) or not isinstance(content, str):
            return "error: write_file needs string `path` and `content`"
        rel = path[len(WORKDIR) + 1 :] if path.startswith(WORKDIR + "/") else path
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        if rel.startswith("/") or not parts or ".." in parts or ".git" in parts or "\0" in rel:
            out.notes.append({"kind": "workspace_escape", "tool": "write_file", "path": path})
            return f"error: {path!r} is outside the workspace"
        try:
            mode = 0o755 if content.startswith("#!") else 0o644
            made = tree.write_in(ctx.workspace.root, parts, content.encode(), mode)
        except OSError as e:
            return f"error: cannot write {'/'.join(parts)}: {e.strerror or e}"
        hand_over(made)  # the sandbox user's, like the rest of the workspace
        return f"wrote {len(content)} characters to {'/'.join(parts)}"


def _arguments(raw: str | None) -> Any:
    try:
        return agent_json(raw or "{}")
    except ValueError:  # bad syntax, or nested too deeply: the model's failure, the call gets the raw text
        return raw
