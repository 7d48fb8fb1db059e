"""Third-party agents. A command agent is a shell template run inside swr's sandbox with the workspace
mounted read-write; presets wrap Claude Code, Codex CLI and OpenHands. Those CLIs talk to their model
themselves, so they get network (the one thing beyond a candidate): their own network namespace whose
only way out is a per-run egress proxy to their model endpoint (--base-url, else the preset's API), and
only the API key their preset names is copied into their otherwise cleared environment.

mini-swe-agent is different: it is a Python library, so it runs here on the host (trusted: only the
model call leaves the machine) and every shell command it issues goes through swr's sandbox without
network. That keeps the model's commands as confined as a candidate's, which a CLI preset cannot."""

from __future__ import annotations

import json
import os
import platform
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.core.layout import INSTRUCTION, WorkspacePaths
from swr.core.layout import TRAJECTORY as OWN_TRAJECTORY
from swr.sandbox import WORKDIR, GiB, Limits, MiB, Mount, RunResult, run, tree
from swr.sandbox.egress import RELAY_FAILED, RELAY_FAILED_MSG, EgressProxy, endpoint, through_relay

from ..trajectory import Metrics, TrajectoryBuilder, agent_json, shell_trace_calls
from .base import Context, InfraError, Outcome, agent_job
from .llm import swr_version, truncate

LOGS = "/sandbox/logs"  # the agent's own logs; outside the workspace, so not in the diff
TRACE = "commands.log"  # the generic preset's bash trace, in LOGS
TRACE_CAP = 4 << 20
TRACING = '{ exec {SWR_TRACE_FD}>>"$SWR_LOGS/' + TRACE + '"; } 2>/dev/null && BASH_XTRACEFD=$SWR_TRACE_FD && set -x\n'


@dataclass(frozen=True)
class Preset:
    template: str  # bash, run in the workspace; reads SWR_* variables (never formatted: no quoting bugs)
    network: bool = True  # to its model endpoint only, through an egress proxy
    secrets: tuple[str, ...] = ()  # host environment variables copied in
    base_url_vars: tuple[str, ...] = ()  # variables that receive --base-url
    api: str | None = None  # the endpoint without --base-url


PRESETS: dict[str, Preset] = {
    # Claude Code: `npm install -g @anthropic-ai/claude-code` (node and `claude` under /usr); ANTHROPIC_API_KEY.
    # No telemetry or update checks; the output cap reaches the model through its own variable.
    "claude-code": Preset(
        "export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1; "
        '[ -n "$SWR_MAX_OUTPUT_TOKENS" ] && export CLAUDE_CODE_MAX_OUTPUT_TOKENS="$SWR_MAX_OUTPUT_TOKENS"; '
        'claude -p "$(cat instruction.md)" ${SWR_MODEL:+--model "$SWR_MODEL"} --max-turns "$SWR_MAX_TURNS" '
        "--output-format stream-json --verbose --dangerously-skip-permissions",
        secrets=("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"),
        base_url_vars=("ANTHROPIC_BASE_URL",),
        api="https://api.anthropic.com",
    ),
    # Codex CLI: `npm install -g @openai/codex`; OPENAI_API_KEY. Its own sandbox is off: swr's is the boundary.
    "codex": Preset(
        "codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "
        '${SWR_MODEL:+-m "$SWR_MODEL"} "$(cat instruction.md)"',
        secrets=("OPENAI_API_KEY",),
        base_url_vars=("OPENAI_BASE_URL",),
        api="https://api.openai.com/v1",
    ),
    # OpenHands headless: `pip install openhands-ai` into swr's environment; LLM_API_KEY, local runtime.
    "openhands": Preset(
        'RUNTIME=local LLM_MODEL="$SWR_MODEL" WORKSPACE_BASE="$PWD" SANDBOX_VOLUMES="$PWD:$PWD:rw" '
        'python3 -m openhands.core.main -t "$(cat instruction.md)" -i "$SWR_MAX_TURNS"',
        secrets=("LLM_API_KEY",),
        base_url_vars=("LLM_BASE_URL",),
        api="https://api.openai.com/v1",
    ),
}


class CommandAgent:
    """Any agent CLI: option `command` (bash template), `network` (default true: --base-url, and only
    that, is reachable), `secrets` (variable names to pass in). The command sees SWR_MODEL, SWR_BASE_URL,
    SWR_MAX_TURNS, SWR_MAX_OUTPUT_TOKENS, SWR_TIME_LIMIT and SWR_LOGS; an ATIF file it writes to
    $SWR_LOGS/trajectory.json is kept."""

    def __init__(self, name: str, preset: Preset, options: dict[str, Any]):
        self.name = name
        self.preset = preset
        self.base_url = options.get("base_url")
        try:
            self.endpoint = endpoint(self.base_url, preset.api) if preset.network else None
        except ValueError as e:
            raise SwrError(f"agent {name}: {e}", field="--base-url") from None

    def solve(self, ctx: Context) -> Outcome:
        b = ctx.budget
        logs = WorkspacePaths(ctx.workspace.root).logs
        logs.mkdir(parents=True, exist_ok=True)
        env = {
            "SWR_MODEL": ctx.model or "",
            "SWR_BASE_URL": self.base_url or "",
            "SWR_MAX_TURNS": str(b.max_turns or 1000),
            "SWR_MAX_OUTPUT_TOKENS": str(b.max_output_tokens or ""),
            "SWR_TIME_LIMIT": str(b.time_limit_s or ""),
            "SWR_LOGS": LOGS,
        }
        env |= {k: os.environ[k] for k in self.preset.secrets if k in os.environ}
        limits = Limits(time_s=b.time_limit_s or 1800.0, memory_bytes=4 * GiB, pids=1024, stdout_bytes=64 * MiB)
        res, egress_notes = self._run(ctx, env, limits, logs)
        tree.write_file(logs, "stdout.txt", res.stdout)  # the agent had this directory: no link followed
        tree.write_file(logs, "stderr.txt", res.stderr)
        stderr = res.stderr.decode(errors="replace")
        if res.returncode == 127 and res.limit is None:
            raise InfraError(f"agent {self.name}: command not found in the sandbox: {stderr[-300:]}")
        if res.returncode == RELAY_FAILED and res.limit is None and RELAY_FAILED_MSG in stderr:
            raise InfraError(f"agent {self.name}: {stderr[-300:]}")
        out = Outcome(limit="time_limit" if res.limit == "timeout" else None, notes=egress_notes)
        if res.returncode not in (0, None):
            out.notes.append({"kind": "agent_exit", "code": res.returncode, "stderr": stderr[-500:]})
        stdout = res.stdout.decode(errors="replace")
        self._usage(stdout, out)
        out.trajectory = self._trajectory(ctx, logs, stdout, out)
        return out

    def _run(self, ctx: Context, env: dict[str, str], limits: Limits, logs: Path) -> tuple[RunResult, list[Any]]:
        """The template in the sandbox, its model endpoint (and nothing else) reachable through a
        per-run egress proxy; with the proxy's refusals as notes. Unsandboxed, the host's network."""
        ep = self.endpoint if ctx.sandbox.name != "none" else None
        url = ep.sandbox_url() if ep and self.base_url else self.base_url
        if url:
            env = env | {k: url for k in (*self.preset.base_url_vars, "SWR_BASE_URL")}
        argv = ["/bin/bash", "-c", self.preset.template]
        with EgressProxy(ep) if ep else nullcontext() as proxy:
            job = agent_job(
                ctx,
                through_relay(argv) if proxy else argv,
                limits,
                extra_mounts=(Mount(logs.resolve(), LOGS, "rw"),),
                env=env | (ep.agent_env() if ep else {}),
                egress=proxy.socket if proxy else None,
            )
            res = run(ctx.sandbox, job, b"")
        return res, proxy.notes() if proxy else []  # closed: every refusal is counted

    def _usage(self, stdout: str, out: Outcome) -> None:
        """Claude Code's result line (its last) carries turns, tokens and cost; others report none."""
        try:
            data = agent_json(stdout.strip().splitlines()[-1]) if stdout.strip() else None
        except ValueError:
            return
        if isinstance(data, dict) and data.get("type") == "result":
            usage = data.get("usage") or {}
            out.turns = int(data.get("num_turns") or 0)
            out.input_tokens = int(usage.get("input_tokens") or 0) + int(usage.get("cache_read_input_tokens") or 0)
            out.output_tokens = int(usage.get("output_tokens") or 0)
            out.cost = float(data.get("total_cost_usd") or 0.0)

    def _trajectory(self, ctx: Context, logs: Path, stdout: str, out: Outcome) -> dict[str, Any]:
        """What swr saw: its shell trace (the generic preset), the CLI's stream-json, or its output; the same
        calls go to anti-cheat. An ATIF file the agent wrote to $SWR_LOGS is never the record (it could claim
        anything): it stays with the run's logs as an attachment, named in a note."""
        t = TrajectoryBuilder(self.name, swr_version(), ctx.model)
        t.user(ctx.workspace.start[INSTRUCTION].decode(errors="replace"))
        traced = shell_trace_calls(tree.read_file(logs, TRACE, TRACE_CAP) or b"")
        if traced:
            t.agent_turn("the commands the agent's shell ran, traced by swr", traced)
        if not stream_steps(t, stdout, out):
            t.agent_turn(truncate(stdout, 20000), prompt_tokens=out.input_tokens, completion_tokens=out.output_tokens)
            t.notes.append(f"summary of a command agent's run; its own log is in {logs.name}/ next to this file")
        seen = t.build()
        out.observed = [c for s in seen["steps"] for c in s.get("tool_calls") or []]
        if os.path.lexists(logs / OWN_TRAJECTORY):
            out.notes.append(
                {
                    "kind": "agent_trajectory",
                    "path": f"{logs.name}/{OWN_TRAJECTORY}",
                    "trusted": False,
                    "why": "written by the agent; the record is what swr saw",
                }
            )
        return seen


class SandboxEnvironment:
    """A mini-swe-agent Environment whose commands run in swr's sandbox (workspace rw, no network)."""

    def __init__(self, ctx: Context, timeout: float):
        self.ctx = ctx
        self.timeout = timeout
        self.config: dict[str, Any] = {"cwd": WORKDIR, "timeout": timeout}

    def execute(self, action: dict[str, Any], cwd: str = "", *, timeout: int | None = None) -> dict[str, Any]:
        from minisweagent.exceptions import Submitted

        cmd = action.get("command", "")
        job = agent_job(
            self.ctx,
            ["/bin/bash", "-c", "exec 2>&1\n" + cmd],
            Limits(time_s=float(timeout or self.timeout), stdout_bytes=8 * MiB),
        )
        res = run(self.ctx.sandbox, job, b"")
        text = res.stdout.decode(errors="replace")
        info = f"killed: {res.limit} limit" if res.limit else ""
        output = {
            "output": text,
            "returncode": -1 if res.returncode is None else res.returncode,
            "exception_info": info,
        }
        lines = text.lstrip().splitlines(keepends=True)
        if lines and lines[0].strip() == "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" and res.returncode == 0:
            raise Submitted(
                {
                    "role": "exit",
                    "content": "".join(lines[1:]),
                    "extra": {"exit_status": "Submitted", "submission": "".join(lines[1:])},
                }
            )
        return output

    def get_template_vars(self, **kwargs: Any) -> dict[str, Any]:
        return {**self.config, **platform.uname()._asdict(), **kwargs}

    def serialize(self) -> dict[str, Any]:
        return {"info": {"config": {"environment": self.config, "environment_type": "swr.SandboxEnvironment"}}}


class MiniSweAgent:
    """mini-swe-agent (`pip install mini-swe-agent`) through its Python API: DefaultAgent with its stock
    mini.yaml prompts, LitellmModel (model `openai/<model>` at --base-url unless the name has a
    provider), and SandboxEnvironment. Options: base_url, request_timeout, command_timeout."""

    name = "mini-swe-agent"

    def __init__(self, options: dict[str, Any]):
        self.base_url = options.get("base_url")
        self.request_timeout = float(options.get("request_timeout", 60.0))
        self.command_timeout = float(options.get("command_timeout", 120.0))

    def solve(self, ctx: Context) -> Outcome:
        os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import
        import litellm
        import minisweagent
        import openai
        import yaml
        from minisweagent.agents.default import DefaultAgent
        from minisweagent.models.litellm_model import LitellmModel

        b = ctx.budget
        cfg = yaml.safe_load((Path(minisweagent.__file__).parent / "config" / "mini.yaml").read_text())
        model_name = ctx.model or "default"
        if self.base_url and "/" not in model_name:
            model_name = f"openai/{model_name}"
        kwargs = {**cfg["model"].get("model_kwargs", {}), "timeout": self.request_timeout, "num_retries": 0}
        if self.base_url:
            kwargs |= {"api_base": self.base_url, "api_key": os.environ.get("OPENAI_API_KEY", "none")}
        if b.max_output_tokens is not None:
            kwargs["max_tokens"] = b.max_output_tokens
        model = LitellmModel(
            model_name=model_name,
            model_kwargs=kwargs,
            cost_tracking="ignore_errors",
            observation_template=cfg["model"]["observation_template"],
            format_error_template=cfg["model"]["format_error_template"],
        )
        # endpoint trouble ends the run at once: swr records and retries it as an infrastructure failure
        model.abort_exceptions = [
            *model.abort_exceptions,
            litellm.exceptions.APIConnectionError,
            litellm.exceptions.Timeout,
            litellm.exceptions.InternalServerError,
            litellm.exceptions.ServiceUnavailableError,
            litellm.exceptions.RateLimitError,
        ]
        agent_cfg = {k: v for k, v in cfg["agent"].items() if k in ("system_template", "instance_template")}
        agent = DefaultAgent(
            model,
            SandboxEnvironment(ctx, self.command_timeout),
            **agent_cfg,
            step_limit=b.max_turns or 0,
            cost_limit=0,
            wall_time_limit_seconds=int(b.time_limit_s or 0),
        )
        task = WorkspacePaths(ctx.workspace.root).instruction.read_text()
        notes: list[dict[str, Any]] = []
        try:
            status = agent.run(task).get("exit_status", "")
        except litellm.exceptions.ContextWindowExceededError as e:  # the model's own run outgrew its context
            status, notes = "ContextWindowExceeded", [{"kind": "endpoint_error", "message": str(e)[:500]}]
        except (
            openai.APIConnectionError,
            openai.InternalServerError,
            openai.RateLimitError,
            openai.AuthenticationError,
            openai.PermissionDeniedError,
            openai.NotFoundError,
            litellm.exceptions.APIError,
            litellm.exceptions.ServiceUnavailableError,
        ) as e:
            raise InfraError(f"endpoint {self.base_url}: {type(e).__name__}: {e}") from None
        out = Outcome(
            turns=agent.n_calls,
            cost=agent.cost,
            notes=notes,
            limit={"LimitsExceeded": "turn_limit", "TimeExceeded": "time_limit"}.get(status),
        )
        out.trajectory = self._atif(ctx, agent.messages, out, minisweagent.__version__)
        return out

    def _atif(self, ctx: Context, messages: list[dict[str, Any]], out: Outcome, version: str) -> dict[str, Any]:
        """mini-swe-agent's OpenAI-style messages as ATIF steps; tool results attach to their call's step."""
        cap = ctx.budget.max_output_tokens
        t = TrajectoryBuilder(self.name, version, ctx.model)
        last = None
        for m in messages:
            role, content = m.get("role"), m.get("content") or ""
            content = content if isinstance(content, str) else json.dumps(content)
            if role == "system":
                t.system(content)
            elif role == "assistant":
                usage = ((m.get("extra") or {}).get("response") or {}).get("usage") or {}
                tin, tout = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
                out.input_tokens += tin
                out.output_tokens += tout
                if cap is not None and tout > cap and not any(n.get("setting") for n in out.notes):
                    out.notes.append(
                        {"kind": "ignored_setting", "setting": "max_output_tokens", "requested": cap, "observed": tout}
                    )
                calls = [
                    (c["id"], c["function"]["name"], _args(c["function"].get("arguments")))
                    for c in m.get("tool_calls") or []
                ]
                last = t.agent_turn(content, calls, tin, tout)
            elif role == "tool" and last is not None:
                t.observe(last, m.get("tool_call_id"), content)
            elif role == "exit":
                t.notes.append(f"exit: {(m.get('extra') or {}).get('exit_status', '')}")
            else:
                t.user(content)
        return t.build()


def _args(raw: Any) -> dict[str, Any]:
    try:
        val = agent_json(raw) if isinstance(raw, str) else raw
    except ValueError:
        return {"raw": raw}
    return val if isinstance(val, dict) else {"raw": val}


def command_agent(name: str, options: dict[str, Any]) -> CommandAgent:
    if name == "command":
        if not options.get("command"):
            from swr.core.errors import SwrError

            raise SwrError("agent `command` needs the agent option `command` (a bash template)", field="--agent")
        secrets = tuple(options.get("secrets") or ())
        template = TRACING + options["command"]  # its commands, for the trajectory and anti-cheat
        return CommandAgent(name, Preset(template, bool(options.get("network", True)), secrets), options)
    return CommandAgent(name, PRESETS[name], options)


def stream_steps(t: TrajectoryBuilder, stdout: str, out: Outcome) -> bool:
    """Claude Code's stream-json, one message per line, as ATIF steps: each assistant message with its
    tool calls, each tool result as the observation of its call. False if stdout is not that."""
    first, events = len(t.steps), []
    for line in stdout.splitlines():
        try:
            events.append(agent_json(line))
        except ValueError:
            continue
    calls: dict[str, Any] = {}
    for ev in (e for e in events if isinstance(e, dict) and e.get("type") in ("assistant", "user")):
        content = (ev.get("message") or {}).get("content") or []
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        if ev["type"] == "assistant":
            text = "\n".join(b.get("text", "") for b in blocks if b.get("type") == "text")
            uses = [(b["id"], b["name"], b.get("input") or {}) for b in blocks if b.get("type") == "tool_use"]
            step = t.agent_turn(text, uses)
            calls |= {u[0]: step for u in uses}
        for b in blocks:
            if b.get("type") == "tool_result" and b.get("tool_use_id") in calls:
                body = b.get("content") or []
                parts = [c.get("text", "") for c in body if isinstance(c, dict)] if isinstance(body, list) else []
                text = body if isinstance(body, str) else "\n".join(parts)
                t.observe(calls[b["tool_use_id"]], b["tool_use_id"], truncate(text, 20000))
    agent_steps = [s for s in t.steps[first:] if s.source == "agent"]
    if not agent_steps:
        return False
    agent_steps[-1].metrics = Metrics(
        prompt_tokens=out.input_tokens, completion_tokens=out.output_tokens, cost_usd=out.cost
    )
    t.notes.append("from the CLI's stream-json; the run's token and cost totals are on the last agent step")
    return True
