"""Model-driven agents against a scripted OpenAI-compatible server on the loopback: the agent loop, the
real sandbox, grading, the store and the trajectory are all real; only the model's words are replayed."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, swr

from swr.harness.agents import Budget
from swr.harness.run import JobConfig, run_dir, run_job
from swr.harness.store import RunRecord
from swr.harness.trajectory import validate_atif

WRONG = "#!/usr/bin/env python3\nimport json, sys\ns = json.load(sys.stdin)\nprint(json.dumps({'y': s['a'] + s['b'], 'z': [s['a'], s['b']]}))\n"
RIGHT = WRONG.replace("s['a'] + s['b']", "2 * s['a'] + s['b']")


class Scripted:
    """A chat/completions endpoint replaying one reply per request: ("tool", name, args) lists, or an
    HTTP status, or "hang". Every request body is kept for the assertions."""

    def __init__(self, replies: list[Any], completion_tokens: int = 11):
        self.replies = replies
        self.completion_tokens = completion_tokens
        self.requests: list[dict[str, Any]] = []
        self.release = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(body)
                reply = outer.replies[min(len(outer.requests), len(outer.replies)) - 1]
                if reply == "hang":
                    outer.release.wait(60)
                    return
                if isinstance(reply, int):
                    data, status = {"error": {"message": "scripted failure", "type": "server_error"}}, reply
                else:
                    data, status = outer.completion(body, reply), 200
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def completion(self, body: dict[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
        n = len(self.requests)
        tool_calls = [
            {"id": f"call_{n}_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for i, (name, args) in enumerate(calls)
        ]
        prompt = sum(len(str(m.get("content") or "")) for m in body["messages"]) // 4
        return {
            "id": f"chatcmpl-{n}",
            "object": "chat.completion",
            "created": 1700000000,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {"role": "assistant", "content": f"step {n}", "tool_calls": tool_calls},
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": self.completion_tokens,
                "total_tokens": prompt + self.completion_tokens,
            },
        }

    def tool_results(self) -> list[str]:
        """What the agent told the model its tools returned, in order."""
        last = self.requests[-1]["messages"]
        return [m["content"] for m in last if m["role"] == "tool"]

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[Scripted] = []

    def start(replies: list[Any], **kw: Any) -> Scripted:
        servers.append(Scripted(replies, **kw))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def job(release: Path, tmp: Path, agent: str, url: str, **kw: Any) -> JobConfig:
    opts = {"base_url": url, **kw.pop("options", {})}
    return JobConfig(
        release=release,
        agent=agent,
        model="scripted-model",
        include=("good-linear-v1",),
        jobs_dir=tmp / "jobs",
        concurrency=1,
        agent_options=opts,
        **kw,
    )


def only(records: list[RunRecord]) -> RunRecord:
    assert len(records) == 1, records
    return records[0]


OPENAI_SCRIPT = [
    [("bash", {"command": "cat instruction.md; ls public/examples"})],
    [("write_file", {"path": "solution/run", "content": WRONG})],
    [("feedback", {})],
    [("write_file", {"path": "solution/run", "content": RIGHT})],
    [("bash", {"command": "./feedback --json"})],
    [("finish", {})],
]


WORKFLOW_SYSTEM = """You are a software engineer working in a shell, in the directory /sandbox/work.
Read instruction.md and public/ there. Build an executable program solution/run that reads one JSON
scenario on stdin and prints one JSON object on stdout, reproducing the reference behaviour.
Tools: bash (run a command; no network), write_file (create a file, path relative to /sandbox/work),
feedback (grade solution/ on the public examples), finish (stop when you are done).
Do not edit instruction.md, task.toml, feedback or public/."""
WORKFLOW_TOOLS = {
    "bash": "Run a bash command in the workspace (no network). Returns exit code and output.",
    "write_file": "Write a text file (path relative to the workspace). A file starting with #! is made executable.",
    "feedback": "Grade solution/ on the public examples; returns the verdict as JSON.",
    "finish": "Stop working; solution/run is graded on hidden scenarios.",
}


def test_openai_agent_fixes_its_solution_and_passes(linear_release: Path, tmp_path: Path, serve: Any) -> None:
    srv = serve(OPENAI_SCRIPT)
    cfg = job(linear_release, tmp_path, "openai", srv.url)
    rec = only(run_job(cfg))
    assert rec.status == "done" and rec.passed and rec.label == "pass", (rec.error, rec.verdict)
    assert rec.turns == len(OPENAI_SCRIPT) and rec.output_tokens == 11 * len(OPENAI_SCRIPT) and rec.input_tokens > 0
    assert all(r["max_tokens"] == cfg.budget.max_output_tokens for r in srv.requests)
    assert not any(n.get("kind") == "ignored_setting" for n in rec.cheats)
    ls, _wrote, first, _, second = srv.tool_results()
    assert "good-linear" in ls and "exit code: 0" in ls
    system = srv.requests[0]["messages"][0]
    assert system == {"role": "system", "content": WORKFLOW_SYSTEM}  # the kind's brief left a workflow's as it was
    assert {t["function"]["name"]: t["function"]["description"] for t in srv.requests[0]["tools"]} == WORKFLOW_TOOLS
    assert json.loads(first.split("\n", 1)[1])["pass"] is False and "numeric_mismatch" in first
    assert json.loads(second.split("\n", 1)[1])["pass"] is True
    d = run_dir(cfg, rec.key)
    traj = validate_atif(json.loads(d.trajectory.read_text()))
    assert traj.schema_version == "ATIF-v1.4" and traj.agent.name == "openai"
    assert [s.source for s in traj.steps[:2]] == ["system", "user"] and len(traj.steps) == 2 + len(OPENAI_SCRIPT)
    assert traj.final_metrics and traj.final_metrics.total_completion_tokens == rec.output_tokens
    assert traj.steps[4].observation and "numeric_mismatch" in (traj.steps[4].observation.results[0].content or "")
    diff = d.diff.read_text()
    assert "b/solution/run" in diff and "2 * s['a']" in diff
    from swr.harness.store import Store

    store = Store(cfg.jobs_dir)
    try:
        stored = only(store.runs(cfg.name))
    finally:
        store.close()
    assert (stored.turns, stored.input_tokens, stored.output_tokens) == (rec.turns, rec.input_tokens, rec.output_tokens)
    assert only(run_job(cfg)).key == rec.key and len(srv.requests) == len(OPENAI_SCRIPT)  # resumed, not rerun


def test_prices_from_the_command_line_give_each_run_its_cost(linear_release: Path, tmp_path: Path, serve: Any) -> None:
    srv = serve(OPENAI_SCRIPT)
    args = [
        "run",
        str(linear_release),
        "-a",
        "openai",
        "-m",
        "scripted-model",
        "--base-url",
        srv.url,
        "-i",
        "good-linear-v1",
        "--jobs-dir",
        str(tmp_path),
        "--job",
        "priced",
    ]
    res = swr(*args, "--ak", "price_in=2", "--ak", "price_out=10.5")
    assert res.returncode == 0, res.stderr
    from swr.harness.store import Store

    store = Store(tmp_path)
    try:
        rec = only(store.runs("priced"))
    finally:
        store.close()
    assert rec.passed and rec.cost == pytest.approx((rec.input_tokens * 2 + rec.output_tokens * 10.5) / 1e6)
    bad = swr(*args, "--ak", "price_in")
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "--ak" in bad.stderr, bad.stderr


def test_write_file_refuses_to_leave_the_workspace(linear_release: Path, tmp_path: Path, serve: Any) -> None:
    srv = serve(
        [
            [("write_file", {"path": "../../escaped", "content": "x"})],
            [("write_file", {"path": "/tmp/abs", "content": "x"})],
            [("finish", {})],
        ]
    )
    rec = only(run_job(job(linear_release, tmp_path, "openai", srv.url)))
    assert rec.status == "done" and not rec.passed and rec.label == "missing_candidate"
    assert all("outside the workspace" in r for r in srv.tool_results())
    assert [n["path"] for n in rec.cheats if n["kind"] == "workspace_escape"] == ["../../escaped", "/tmp/abs"]
    assert not any(tmp_path.rglob("escaped"))


def test_endpoint_500_is_an_infrastructure_failure_and_retried(
    linear_release: Path, tmp_path: Path, serve: Any
) -> None:
    srv = serve([500])
    rec = only(run_job(job(linear_release, tmp_path, "openai", srv.url, retries=2, options={"max_retries": 0})))
    assert rec.status == "infra_failure" and rec.passed is None and "500" in (rec.error or "")
    assert rec.tries == 3 and len(srv.requests) == 3


def test_hanging_endpoint_times_out_as_infrastructure_failure(linear_release: Path, tmp_path: Path, serve: Any) -> None:
    srv = serve(["hang"])
    cfg = job(linear_release, tmp_path, "openai", srv.url, retries=0, options={"max_retries": 0, "request_timeout": 1})
    rec = only(run_job(cfg))
    assert rec.status == "infra_failure" and "Timeout" in (rec.error or "") and rec.tries == 1


def test_turn_budget_runs_out_and_ignored_output_cap_is_noted(linear_release: Path, tmp_path: Path, serve: Any) -> None:
    srv = serve([[("bash", {"command": "echo thinking"})]], completion_tokens=50)
    cfg = job(linear_release, tmp_path, "openai", srv.url, budget=Budget(max_turns=3, max_output_tokens=20))
    rec = only(run_job(cfg))
    assert rec.status == "done" and not rec.passed and rec.label == "turn_limit" and "turn_limit" in rec.labels
    assert rec.turns == 3 and len(srv.requests) == 3 and all(r["max_tokens"] == 20 for r in srv.requests)
    assert {"kind": "ignored_setting", "setting": "max_output_tokens", "requested": 20, "observed": 50} in rec.cheats


def test_token_budget_stops_the_run(linear_release: Path, tmp_path: Path, serve: Any) -> None:
    srv = serve([[("bash", {"command": "true"})]], completion_tokens=400)
    cfg = job(linear_release, tmp_path, "openai", srv.url, budget=Budget(token_limit=1000, max_output_tokens=500))
    rec = only(run_job(cfg))
    assert rec.label == "token_limit" and rec.input_tokens + rec.output_tokens >= 1000 and rec.turns < 5


REVIVAL = "periodictable-numpy2"
PORT = (
    "sed -i 's/np\\.NaN/np.nan/' solution/periodictable/nsf.py && "
    "sed -i 's/numpy\\.NaN/numpy.nan/' solution/periodictable/xsf.py"
)


@pytest.fixture(scope="module")
def revival_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One dependency-rot revival (periodictable on NumPy 2) built alone with `swr build`."""
    base = tmp_path_factory.mktemp("revival")
    res = swr("build", str(ROOT / "revivals" / REVIVAL), "--out", str(base / "rel"), timeout=1800)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return base / "rel"


def test_openai_agent_tells_a_revival_task_what_a_revival_is(revival_release: Path, tmp_path: Path, serve: Any) -> None:
    """A revival task has no solution/run and no JSON scenario: the system message and the tools say what
    the revival kind asks (repair the project in solution/, its hidden tests and probes grade it, feedback
    runs the public tests), asked of the task's kind. The model's port then passes."""
    srv = serve([[], [("bash", {"command": PORT})], [("feedback", {})], [("finish", {})]])
    cfg = JobConfig(
        release=revival_release,
        agent="openai",
        model="scripted-model",
        jobs_dir=tmp_path / "jobs",
        concurrency=1,
        agent_options={"base_url": srv.url},
    )
    rec = only(run_job(cfg))
    system = srv.requests[0]["messages"][0]["content"]
    assert "reads one JSON" not in system and "solution/run that" not in system, system
    assert "solution/ holds a Python project" in system and "Repair it in place" in system, system
    assert "Python 3.12" in system and "hidden verifier runs the\nproject's own tests" in system, system
    assert "feedback (run the project's public tests on solution/ in the target environment)" in system, system
    tools = {t["function"]["name"]: t["function"]["description"] for t in srv.requests[0]["tools"]}
    assert tools["feedback"].startswith("Run the project's public tests") and "public examples" not in tools["feedback"]
    assert "hidden tests and probes" in tools["finish"] and "solution/run" not in tools["finish"]
    nudge = srv.requests[1]["messages"][-1]
    assert nudge == {
        "role": "user",
        "content": "Use the tools: repair the project in solution/, check it with feedback, then call finish.",
    }
    ported, fed = srv.tool_results()[:2]
    assert "exit code: 0" in ported and json.loads(fed.split("\n", 1)[1])["pass"] is True, fed
    assert rec.status == "done" and rec.passed, (rec.label, rec.error)


@pytest.fixture(scope="module")
def engine_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One engine (statistics) built alone with `swr build`."""
    base = tmp_path_factory.mktemp("engine")
    res = swr("build", str(ROOT / "engines" / "statistics"), "--out", str(base / "rel"), timeout=1800)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return base / "rel"


def test_openai_agent_tells_an_engine_task_about_its_specification(
    engine_release: Path, tmp_path: Path, serve: Any
) -> None:
    """An engine task: the system message names the specification and its worked examples, feedback runs the
    examples and finish hands solution/run to the hidden verifier (not "the public examples" of a workflow)."""
    srv = serve([[("feedback", {})], [("finish", {})]])
    cfg = JobConfig(
        release=engine_release,
        agent="openai",
        model="scripted-model",
        jobs_dir=tmp_path / "jobs",
        concurrency=1,
        agent_options={"base_url": srv.url},
    )
    rec = only(run_job(cfg))
    # ./feedback in the workspace, which holds task.toml but no private engine.toml, runs the examples
    (shown,) = srv.tool_results()
    assert '"kind": "engine"' in shown and shown.count("missing_candidate") == 3 and "not found" not in shown, shown
    system = srv.requests[0]["messages"][0]["content"]
    assert "public/spec.md specifies an engine" in system and "scenario" not in system, system
    tools = {t["function"]["name"]: t["function"]["description"] for t in srv.requests[0]["tools"]}
    assert tools["feedback"].startswith("Run solution/run on the three worked examples"), tools
    assert "hidden verifier" in tools["finish"], tools
    assert rec.status == "done" and not rec.passed and rec.label == "missing_candidate", (rec.label, rec.error)


MINI_SCRIPT = [
    [("bash", {"command": "cat instruction.md | head -20"})],
    [("bash", {"command": f"mkdir -p solution && cat > solution/run <<'EOF'\n{WRONG}EOF\nchmod +x solution/run"})],
    [("bash", {"command": "./feedback --json"})],
    [("bash", {"command": f"cat > solution/run <<'EOF'\n{RIGHT}EOF\n./feedback --json"})],
    [("bash", {"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"})],
]


def test_real_mini_swe_agent_drives_a_graded_run(linear_release: Path, tmp_path: Path, serve: Any) -> None:
    """The real mini-swe-agent loop and LiteLLM client on the host; its commands in swr's sandbox."""
    pytest.importorskip("minisweagent")
    srv = serve(MINI_SCRIPT)
    cfg = job(linear_release, tmp_path, "mini-swe-agent", srv.url)
    rec = only(run_job(cfg))
    assert rec.status == "done" and rec.label in ("pass", "numeric_mismatch"), (rec.error, rec.verdict)
    assert rec.verdict and rec.verdict.scenarios, "a verdict from grading"
    assert rec.passed and rec.turns == len(MINI_SCRIPT) and rec.output_tokens == 11 * len(MINI_SCRIPT)
    assert all(r["max_tokens"] == cfg.budget.max_output_tokens for r in srv.requests)
    outputs = srv.tool_results()
    assert "numeric_mismatch" in outputs[2] and '\\"pass\\": true' in outputs[3]
    traj = validate_atif(json.loads(run_dir(cfg, rec.key).trajectory.read_text()))
    assert traj.agent.name == "mini-swe-agent" and sum(s.source == "agent" for s in traj.steps) == len(MINI_SCRIPT)


def test_mini_swe_agent_endpoint_error_is_an_infrastructure_failure(
    linear_release: Path, tmp_path: Path, serve: Any
) -> None:
    """mini-swe-agent's own retry loop is cut short: swr's retry policy owns endpoint failures."""
    pytest.importorskip("minisweagent")
    srv = serve([503])
    rec = only(run_job(job(linear_release, tmp_path, "mini-swe-agent", srv.url, retries=1)))
    assert rec.status == "infra_failure" and rec.tries == 2 and len(srv.requests) == 2, rec.error


def test_validate_atif_rejects_malformed_trajectories() -> None:
    good = {
        "schema_version": "ATIF-v1.4",
        "session_id": "s",
        "agent": {"name": "a", "version": "1"},
        "steps": [
            {"step_id": 1, "source": "user", "message": "hi"},
            {
                "step_id": 2,
                "source": "agent",
                "message": "",
                "tool_calls": [{"tool_call_id": "c", "function_name": "bash", "arguments": {}}],
                "observation": {"results": [{"source_call_id": "c", "content": "ok"}]},
            },
        ],
    }
    validate_atif(good)
    bad_ids = {**good, "steps": [{**good["steps"][0], "step_id": 2}]}
    bad_source = {**good, "steps": [{"step_id": 1, "source": "tool", "message": ""}]}
    bad_ref = {
        **good,
        "steps": [
            good["steps"][0],
            {**good["steps"][1], "observation": {"results": [{"source_call_id": "nope", "content": ""}]}},
        ],
    }
    for bad in (bad_ids, bad_source, bad_ref, {**good, "schema_version": "v9"}, {k: good[k] for k in ("steps",)}):
        with pytest.raises(ValueError):
            validate_atif(bad)


def test_command_agent_runs_its_template_in_the_sandbox(linear_release: Path, tmp_path: Path) -> None:
    script = f"mkdir -p solution && cat > solution/run <<'EOF'\n{RIGHT}EOF\nchmod +x solution/run && echo built"
    cfg = job(linear_release, tmp_path, "command", "", options={"command": script, "network": False})
    rec = only(run_job(cfg))
    assert rec.status == "done" and rec.passed, (rec.error, rec.verdict)
    d = run_dir(cfg, rec.key)
    traj = validate_atif(json.loads(d.trajectory.read_text()))
    assert traj.agent.name == "command" and "built" in traj.steps[-1].message
    assert (d.logs / "stdout.txt").read_text().strip() == "built" and "b/solution/run" in d.diff.read_text()


CALL_MODEL = """set -e
python3 - <<'EOF'
import json, os, urllib.request
body = json.dumps({"model": os.environ["SWR_MODEL"], "messages": []}).encode()
req = urllib.request.Request(os.environ["SWR_BASE_URL"] + "/chat/completions", data=body,
                             headers={"Content-Type": "application/json"})
print(urllib.request.urlopen(req, timeout=10).read().decode()[:40])
EOF
"""


@pytest.mark.parametrize("network", [True, False])
def test_command_agent_network_is_what_the_preset_asks(
    linear_release: Path, tmp_path: Path, serve: Any, network: bool
) -> None:
    """bwrap shares the host network only with a job that asks: the loopback server is reachable or not."""
    srv = serve([[("finish", {})]])
    script = CALL_MODEL + f"mkdir -p solution && cat > solution/run <<'EOF'\n{RIGHT}EOF\nchmod +x solution/run"
    cfg = job(linear_release, tmp_path, "command", srv.url, options={"command": script, "network": network})
    rec = only(run_job(cfg))
    assert rec.status == "done" and len(srv.requests) == int(network)
    if network:
        assert rec.passed, rec.verdict
    else:
        assert rec.label == "missing_candidate" and [n["kind"] for n in rec.cheats] == ["agent_exit"]


def test_missing_agent_cli_is_an_infrastructure_failure(linear_release: Path, tmp_path: Path) -> None:
    rec = only(run_job(job(linear_release, tmp_path, "codex", "", retries=0)))
    if rec.status == "done":
        pytest.skip("codex is installed here")
    assert rec.status == "infra_failure" and "not found" in (rec.error or "")
