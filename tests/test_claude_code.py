"""The real Claude Code CLI through the `claude-code` command-agent preset: in swr's sandbox (network
on, as the preset asks), against a local Anthropic-Messages endpoint that replays a scripted model.

No skip: CI installs the CLI (`make agents`: `npm install -g @anthropic-ai/claude-code`)."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from test_agents import RIGHT, only

from swr.harness.agents import Budget
from swr.harness.run import JobConfig, run_dir, run_job
from swr.harness.trajectory import validate_atif
from swr.sandbox import WORKDIR

OUTPUT_TOKENS = 11


def sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


class AnthropicScripted:
    """/v1/messages replaying one step per agent-loop request (those offering the Bash tool); side
    requests (titles, summaries) get a short text. Streams when asked, as the CLI does."""

    def __init__(self, steps: list[list[tuple[Any, ...]]]):
        self.steps, self.main, self.side = steps, [], []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if "count_tokens" in self.path:
                    return self.send(json.dumps({"input_tokens": 100}).encode(), "application/json")
                looped = any(t.get("name") == "Bash" for t in body.get("tools", []))
                (outer.main if looped else outer.side).append(body)
                step = outer.steps[min(len(outer.main), len(outer.steps)) - 1] if looped else [("text", "ok")]
                blocks = [
                    {"type": "text", "text": s[1]}
                    if s[0] == "text"
                    else {"type": "tool_use", "id": f"toolu_{len(outer.main)}_{i}", "name": s[1], "input": s[2]}
                    for i, s in enumerate(step)
                ]
                stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
                message = {
                    "id": f"msg_{len(outer.main)}",
                    "type": "message",
                    "role": "assistant",
                    "model": body["model"],
                    "stop_reason": None,
                    "stop_sequence": None,
                }
                if not body.get("stream"):
                    whole = {
                        **message,
                        "content": blocks,
                        "stop_reason": stop,
                        "usage": {"input_tokens": 100, "output_tokens": OUTPUT_TOKENS},
                    }
                    return self.send(json.dumps(whole).encode(), "application/json")
                self.send(b"".join(outer.events(message, blocks, stop)), "text/event-stream")

            def send(self, raw: bytes, kind: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @staticmethod
    def events(message: dict[str, Any], blocks: list[dict[str, Any]], stop: str) -> Iterator[bytes]:
        yield sse(
            "message_start",
            {
                "type": "message_start",
                "message": {**message, "content": [], "usage": {"input_tokens": 100, "output_tokens": 1}},
            },
        )
        for i, b in enumerate(blocks):
            if b["type"] == "text":
                start, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": b["text"]}
            else:
                start, delta = {**b, "input": {}}, {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}
            yield sse("content_block_start", {"type": "content_block_start", "index": i, "content_block": start})
            yield sse("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta})
            yield sse("content_block_stop", {"type": "content_block_stop", "index": i})
        yield sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": OUTPUT_TOKENS},
            },
        )
        yield sse("message_stop", {"type": "message_stop"})

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def anthropic() -> Iterator[Any]:
    servers: list[AnthropicScripted] = []
    yield lambda steps: servers.append(AnthropicScripted(steps)) or servers[-1]
    for s in servers:
        s.close()


def texts(obj: Any) -> str:
    """Every string inside a request's messages, joined: what the model was shown."""
    if isinstance(obj, str):
        return obj
    if isinstance(obj, dict):
        return "\n".join(texts(v) for v in obj.values())
    if isinstance(obj, list):
        return "\n".join(texts(v) for v in obj)
    return ""


def test_real_claude_code_drives_a_graded_run(
    linear_release: Path, tmp_path: Path, anthropic: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert shutil.which("claude"), "Claude Code is not installed: npm install -g @anthropic-ai/claude-code"
    srv = anthropic(
        [
            [("tool", "Write", {"file_path": f"{WORKDIR}/solution/run", "content": RIGHT})],
            [("tool", "Bash", {"command": "chmod +x solution/run && ./feedback --json", "description": "check"})],
            [("text", "solution/run passes the public examples.")],
        ]
    )
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-scripted")
    cfg = JobConfig(
        release=linear_release,
        agent="claude-code",
        model="claude-scripted",
        include=("good-linear-v1",),
        jobs_dir=tmp_path / "jobs",
        concurrency=1,
        budget=Budget(max_output_tokens=2048),
        agent_options={"base_url": srv.url},
    )
    rec = only(run_job(cfg))
    assert rec.status == "done" and rec.passed, (rec.error, rec.verdict, rec.cheats)
    assert len(srv.main) == 3 and {r["model"] for r in srv.main} == {"claude-scripted"}
    assert {r["max_tokens"] for r in srv.main} == {2048}  # the output cap reached the endpoint
    shown = texts(srv.main[-1]["messages"])
    assert '"pass": true' in shown and "good-linear" in texts(srv.main[0]["messages"])  # feedback ran, instruction sent
    assert rec.turns == 3 and rec.output_tokens == 3 * OUTPUT_TOKENS and rec.input_tokens > 0 and rec.cost
    traj = validate_atif(json.loads(run_dir(cfg, rec.key).trajectory.read_text()))
    agent = [s for s in traj.steps if s.source == "agent"]
    assert traj.agent.name == "claude-code" and len(agent) == 3  # the CLI's own messages, not a summary
    assert [c.function_name for s in agent for c in s.tool_calls or []] == ["Write", "Bash"]
    assert agent[1].observation and '"pass": true' in (agent[1].observation.results[0].content or "")
    assert traj.final_metrics and traj.final_metrics.total_completion_tokens == rec.output_tokens
