"""Task kinds are plug-ins (issue 24): a fourth kind, tests/kind_example ("echo"), registered through SWR_KINDS or
an entry point of the group `swr.kinds`, goes through build, tasks, grade, run (oracle and nop), results, report
and Harbor export (and Harbor's judge) with no change to those commands; outside src/swr/kinds/ no code tests a
task's class or compares a task's kind name."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, SWR

from swr.core.layout import HarborTaskPaths, ReleasePaths

TESTS = Path(__file__).resolve().parent
KIND = "kind_example:KIND"
ECHO = """name = "reverse-lines"
family = "echo"
domain = "software-formal-systems"
summary = "Print each line reversed"
public = ["abc", "hello"]
hidden = ["swr", "plug-in kinds", "racecar!"]
"""


def _env(**extra: str) -> dict[str, str]:
    """The CLI's environment: tests/ importable (the example kind's package), SWR_KINDS as given."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST") and k != "SWR_KINDS"}
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(TESTS), extra.pop("PYTHONPATH", ""), env.get("PYTHONPATH", "")])
    )
    return {**env, **extra}


def swr_with(env: dict[str, str], *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SWR, *args], capture_output=True, text=True, env=env, timeout=timeout)


def _one_line_exit_2(res: subprocess.CompletedProcess[str], *words: str) -> None:
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stdout + res.stderr
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr, res.stderr
    assert all(w in res.stderr for w in words), res.stderr


def _candidate(d: Path, body: str) -> Path:
    d.mkdir(parents=True)
    (d / "run").write_text(f"#!/bin/sh\n{body}\n")
    (d / "run").chmod(0o755)
    return d


@pytest.fixture(scope="module")
def echo_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One echo source beside the good-linear workflow, built by one `swr build` (one variant)."""
    base = tmp_path_factory.mktemp("echo")
    (base / "src" / "rev").mkdir(parents=True)
    (base / "src" / "rev" / "echo.toml").write_text(ECHO)
    res = swr_with(
        _env(SWR_KINDS=KIND),
        "build",
        str(base / "src"),
        str(FIXTURES / "good-linear"),
        "--out",
        str(base / "rel"),
        "--variants",
        "1",
        "--jobs",
        "2",
    )
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    return base / "rel"


def test_build_and_tasks_take_a_plugin_kind(echo_release: Path) -> None:
    summary = json.loads(ReleasePaths(echo_release).summary.read_text())
    assert [e["name"] for e in summary["echoes"]] == ["reverse-lines"]  # the kind's own summary key
    assert [w["name"] for w in summary["workflows"]] == ["good-linear"] and summary["gates"]["workflows_built"] == 1
    assert summary["tasks"] == ["good-linear-v1", "reverse-lines"]
    res = swr_with(_env(SWR_KINDS=KIND), "tasks", str(echo_release), "--json")
    assert res.returncode == 0, res.stderr
    rows = {r["id"]: r for r in json.loads(res.stdout)}
    assert (rows["reverse-lines"]["kind"], rows["reverse-lines"]["public"], rows["reverse-lines"]["hidden"]) == (
        "echo",
        2,
        3,
    )
    assert rows["good-linear-v1"]["kind"] == "workflow"


@pytest.mark.parametrize("backend", ["bwrap", "podman"])
def test_grade_runs_the_plugin_grader_in_the_sandbox(echo_release: Path, tmp_path: Path, backend: str) -> None:
    task = str(ReleasePaths(echo_release).task("reverse-lines").root)
    env = _env(SWR_KINDS=KIND)
    right = "exec python3 -c 'import sys; print(sys.stdin.readline().rstrip(chr(10))[::-1])'"
    good = swr_with(env, "grade", task, str(_candidate(tmp_path / "good", right)), "--sandbox", backend)
    assert good.returncode == 0 and "PASS 3/3" in good.stdout, good.stdout + good.stderr
    bad = swr_with(env, "grade", task, str(_candidate(tmp_path / "bad", "cat")), "--json", "--sandbox", backend)
    v = json.loads(bad.stdout)
    assert bad.returncode == 1 and (v["kind"], v["pass"], v["score"], v["label"]) == (
        "echo",
        False,
        "0/3",
        "wrong_output",
    )


def test_run_results_and_report_take_a_plugin_kind(echo_release: Path, tmp_path: Path) -> None:
    env, jobs = _env(SWR_KINDS=KIND), str(tmp_path / "jobs")
    for agent in ("oracle", "nop"):
        res = swr_with(
            env, "run", str(echo_release), "-a", agent, "-i", "reverse-*", "--jobs-dir", jobs, "--job", agent
        )
        assert res.returncode == 0, res.stdout + res.stderr
    res = swr_with(env, "results", "oracle", "nop", "--jobs-dir", jobs, "--json")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    cells = got["matrix"]["reverse-lines"]
    assert (cells["oracle/none"]["passed"], cells["oracle/none"]["score"]) == (True, "3/3")
    assert (cells["nop/none"]["passed"], cells["nop/none"]["label"]) == (False, "missing_candidate")
    assert [t["kind"] for t in got["tasks"]] == ["echo"]
    res = swr_with(env, "report", "oracle", "nop", "--jobs-dir", jobs, "--out", str(tmp_path / "report"))
    assert res.returncode == 0, res.stderr
    assert "reverse-lines" in (tmp_path / "report" / "index.html").read_text()


def test_harbor_export_and_its_judge_take_a_plugin_kind(echo_release: Path, tmp_path: Path) -> None:
    env = _env(SWR_KINDS=KIND)
    res = swr_with(env, "export", "harbor", str(echo_release), "--out", str(tmp_path / "h"), "--json")
    assert res.returncode == 0, res.stderr
    assert {r["task"]: r["kind"] for r in json.loads(res.stdout)} == {
        "good-linear-v1": "workflow",
        "reverse-lines": "echo",
    }
    hp = HarborTaskPaths(tmp_path / "h" / "reverse-lines")
    assert 'swr_kind = "echo"' in hp.toml.read_text() and "hidden_cases = 3" in hp.toml.read_text()
    assert (hp.workspace / "public" / "strings.json").is_file() and not (hp.workspace / "private").exists()
    (tmp_path / "empty").mkdir()
    for solution, reward in ((hp.oracle, 1.0), (tmp_path / "empty", 0.0)):  # what test.sh runs, on this host
        logs = tmp_path / f"logs-{reward}"
        logs.mkdir()
        judge = subprocess.run(
            [sys.executable, "-m", "swr.export.harbor_judge", str(hp.task_copy), str(solution), str(logs)],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert judge.returncode == 0, judge.stderr
        assert json.loads((logs / "reward.json").read_text())["reward"] == reward


def test_without_its_registration_a_plugin_task_is_one_line_naming_the_kind(echo_release: Path) -> None:
    _one_line_exit_2(swr_with(_env(), "tasks", str(echo_release)), "task.toml", "kind", "'echo'")


def test_a_bad_registration_is_one_line(echo_release: Path) -> None:
    _one_line_exit_2(
        swr_with(_env(SWR_KINDS="no_such_module:KIND"), "tasks", str(echo_release)), "no_such_module:KIND", "SWR_KINDS"
    )


def test_an_entry_point_registers_a_kind(echo_release: Path, tmp_path: Path) -> None:
    """A distribution's entry point in the group `swr.kinds` (a dist-info on the path, as pip installs one)."""
    info = tmp_path / "site" / "swr_echo_kind-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: swr-echo-kind\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[swr.kinds]\necho = {KIND}\n")
    res = swr_with(_env(PYTHONPATH=str(tmp_path / "site")), "tasks", str(echo_release), "--json")
    assert res.returncode == 0, res.stderr
    assert {r["id"]: r["kind"] for r in json.loads(res.stdout)}["reverse-lines"] == "echo"


def test_a_plugin_may_not_replace_a_built_in_kind(echo_release: Path, tmp_path: Path) -> None:
    """A kind decides how its tasks are graded: a plug-in (SWR_KINDS or an entry point, e.g. a dist-info an agent
    leaves on a path the judge reads) that names itself "workflow" would re-grade every workflow task by its own
    rules. It is refused, whichever way it is registered."""
    (tmp_path / "evil.py").write_text(
        "from swr.kinds.workflow.kind import KIND as REAL\nclass Evil(type(REAL)):\n    pass\nKIND = Evil()\n"
    )
    _one_line_exit_2(
        swr_with(_env(SWR_KINDS="evil:KIND", PYTHONPATH=str(tmp_path)), "tasks", str(echo_release)),
        "'workflow'",
        "already registered",
        "SWR_KINDS",
    )
    info = tmp_path / "site" / "evil-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evil\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[swr.kinds]\nworkflow = evil:KIND\n")
    _one_line_exit_2(
        swr_with(_env(PYTHONPATH=os.pathsep.join([str(tmp_path), str(tmp_path / "site")])), "tasks", str(echo_release)),
        "'workflow'",
        "already registered",
        "entry point workflow",
    )


def test_a_bad_source_of_a_plugin_kind_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "src" / "rev").mkdir(parents=True)
    (tmp_path / "src" / "rev" / "echo.toml").write_text(
        ECHO.replace('hidden = ["swr", "plug-in kinds", "racecar!"]', "hidden = []")
    )
    res = swr_with(_env(SWR_KINDS=KIND), "build", str(tmp_path / "src"), "--out", str(tmp_path / "rel"))
    _one_line_exit_2(res, "echo.toml", "hidden")
    assert not (tmp_path / "rel").exists()


KIND_NAMES = {"workflow", "engine", "revival"}


def _kind_branches(path: Path) -> list[str]:
    """isinstance on a task or task-file class, and comparisons with a kind's name, in one module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
            names = [getattr(n, "id", getattr(n, "attr", "")) for n in ast.walk(node.args[1])]
            if any(re.search(r"Task(File)?$", n) for n in names):
                found.append(f"{path}:{node.lineno}: isinstance on {', '.join(names)}")
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                values = [c.value for c in ast.walk(side) if isinstance(c, ast.Constant)]
                if KIND_NAMES & {v for v in values if isinstance(v, str)}:
                    found.append(f"{path}:{node.lineno}: compares with a kind's name")
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "getattr" and len(node.args) >= 2:
            if isinstance(node.args[1], ast.Constant) and node.args[1].value in KIND_NAMES:
                found.append(f"{path}:{node.lineno}: getattr of a kind's field")
    return found


def test_no_code_outside_kinds_branches_on_a_task_kind() -> None:
    src = ROOT / "src" / "swr"
    found = [f for p in sorted(src.rglob("*.py")) if not p.is_relative_to(src / "kinds") for f in _kind_branches(p)]
    assert found == []


def test_the_branch_finder_finds_each_form(tmp_path: Path) -> None:
    mod = tmp_path / "m.py"
    mod.write_text(
        "isinstance(t, RevivalTask)\nisinstance(m, (kinds.EngineTaskFile, int))\nif k == 'revival': pass\n"
        "x = kind not in ('workflow', 'engine')\ngetattr(m, 'revival', None)\nisinstance(x, str)\n"
    )
    assert [f.split(": ", 1)[0].rsplit(":", 1)[1] for f in _kind_branches(mod)] == ["1", "2", "3", "4", "5"]
