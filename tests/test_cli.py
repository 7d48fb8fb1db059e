"""The CLI as a user runs it: grade/feedback JSON and exit codes, tasks, check."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import CATALOG, FIXTURES, ROOT, copy_tree, swr, write_candidate

from swr.release import task_dir

CORRECT = "import json, sys\ns = json.load(sys.stdin)\nprint(json.dumps({'y': 2*s['a'] + s['b'], 'z': [s['a'], s['b']]}))\n"
WRONG = "import json, sys\ns = json.load(sys.stdin)\nprint(json.dumps({'y': 2*s['a'] + s['b'] + 1, 'z': [s['a'], s['b']]}))\n"
KEYS = {"task", "pass", "label", "labels", "r_hid", "r_pub", "field_agreement", "scenarios"}


def test_grade_json_pass_exit_0(linear_release: Path, tmp_path: Path) -> None:
    cand = write_candidate(tmp_path / "ok", CORRECT)
    res = swr("grade", str(task_dir(linear_release, "good-linear-v1")), str(cand), "--json")
    assert res.returncode == 0, res.stderr
    v = json.loads(res.stdout)
    assert KEYS <= set(v) and v["pass"] is True and v["label"] == "pass"
    assert v["r_hid"] == 1.0 and v["r_pub"] == 1.0 and v["field_agreement"] == 1.0
    assert sorted(s["split"] for s in v["scenarios"]) == ["hidden"] * 3 + ["public"] * 3


def test_grade_wrong_candidate_exit_1_with_label(linear_release: Path, tmp_path: Path) -> None:
    cand = write_candidate(tmp_path / "wrong", WRONG)
    res = swr("grade", str(task_dir(linear_release, "good-linear-v1")), str(cand), "--json")
    assert res.returncode == 1
    v = json.loads(res.stdout)
    assert v["pass"] is False and v["label"] == "numeric_mismatch" and v["r_hid"] == 0.0
    assert v["field_agreement"] == 2 / 3  # y wrong, z right, on every scenario
    first = v["scenarios"][0]["mismatches"][0]
    assert first["path"] == "y" and first["label"] == "numeric_mismatch"


def test_grade_table_without_json(linear_release: Path, tmp_path: Path) -> None:
    cand = write_candidate(tmp_path / "ok", CORRECT)
    res = swr("grade", str(task_dir(linear_release, "good-linear-v1")), str(cand))
    assert res.returncode == 0 and "PASS" in res.stdout and "hidden" in res.stdout


def test_missing_candidate_is_a_graded_failure(linear_release: Path, tmp_path: Path) -> None:
    (tmp_path / "nothing").mkdir()
    res = swr("grade", str(task_dir(linear_release, "good-linear-v1")), str(tmp_path / "nothing"), "--json")
    assert res.returncode == 1 and json.loads(res.stdout)["label"] == "missing_candidate"


def test_feedback_sees_only_public_scenarios(linear_release: Path, tmp_path: Path) -> None:
    cand = write_candidate(tmp_path / "ok", CORRECT)
    res = swr("feedback", str(task_dir(linear_release, "good-linear-v1")), str(cand), "--json")
    assert res.returncode == 0
    v = json.loads(res.stdout)
    assert {s["split"] for s in v["scenarios"]} == {"public"} and v["r_pub"] == 1.0 and v["r_hid"] is None
    hidden = (task_dir(linear_release, "good-linear-v1") / "private" / "hidden" / "0" / "output.json").read_text()
    assert json.dumps(json.loads(hidden)["y"]) not in res.stdout


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    res = swr("grade", str(tmp_path / "no-such-task"), str(tmp_path))
    assert res.returncode == 2 and "not a task directory" in res.stderr and "Traceback" not in res.stderr
    res = swr("tasks", str(tmp_path))
    assert res.returncode == 2 and "not a release" in res.stderr


def test_tasks_lists_the_release(linear_release: Path) -> None:
    res = swr("tasks", str(linear_release), "--json")
    rows = json.loads(res.stdout)
    assert [r["id"] for r in rows] == ["good-linear-v1", "good-linear-v2"]
    assert rows[0] == {"id": "good-linear-v1", "kind": "workflow", "family": "fixtures", "domain": "data-document",
                       "public": 3, "hidden": 3, "gates": "7/7"}
    assert "good-linear-v2" in swr("tasks", str(linear_release)).stdout


def test_check_passes_a_good_workflow() -> None:
    res = swr("check", str(FIXTURES / "good-entry"), "-n", "2")
    assert res.returncode == 0, res.stderr
    assert "all gates pass" in res.stdout


def test_demo_and_run_take_relative_paths_and_log_progress_off_a_terminal(tmp_path: Path, monkeypatch) -> None:
    """`make demo` passes `--out release`: sandboxed runs start in "/", so a relative path must still reach
    a task's public files (pandoc's templates). With stderr a pipe, a line per finished workflow and task."""
    monkeypatch.setenv("SWR_CACHE", str(tmp_path / "cache"))
    copy_tree(CATALOG / "data-document" / "pandoc" / "markdown-ast", tmp_path / "catalog" / "markdown-ast")
    copy_tree(FIXTURES / "good-linear", tmp_path / "catalog" / "good-linear")
    res = swr("demo", "--catalog", "catalog/markdown-ast", "--catalog", "catalog/good-linear", "--out", "release",
              "--variants", "2", "-n", "2", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "4/4 oracle passes, 0 nop passes" in res.stdout
    lines = res.stderr.splitlines()
    built = [m.groups() for ln in lines if (m := re.fullmatch(r"\[(\d)/2\] (\S+): (.*) \(\d+ s\)", ln))]
    assert sorted(n for n, _, _ in built) == ["1", "2"], lines
    assert sorted((w, what) for _, w, what in built) == [("fixtures/good-linear", "2 tasks"),
                                                         ("pandoc/markdown-ast", "2 tasks")]
    tasks = ["good-linear-v1", "good-linear-v2", "markdown-ast-v1", "markdown-ast-v2"]
    assert [ln for ln in lines if "baselines" in ln] == [
        f"[{i}/4] baselines {t}: oracle pass, nop fail" for i, t in enumerate(tasks, 1)]
    assert sorted(p.name for p in (tmp_path / "release" / "tasks").iterdir()) == tasks
    run = swr("run", "release", "-a", "oracle", "-i", "markdown-ast-*", "--jobs-dir", "jobs", "--job", "rel",
              cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert sorted(run.stderr.splitlines()) == ["markdown-ast-v1 #1: pass", "markdown-ast-v2 #1: pass"]
    assert "2/2 runs passed" in run.stdout and (tmp_path / "jobs").is_dir()


def test_readme_wrap_your_own_walkthrough_passes_check(tmp_path: Path) -> None:
    """The README's "wrap your own software" files, copied as a newcomer would, pass `swr check`."""
    readme = (ROOT / "README.md").read_text()
    for body in re.findall(r"```(?:python|toml)\n(# (my-workflows/\S+)\n.*?)```", readme, re.S):
        dest = tmp_path / body[1]
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(body[0])
    assert sorted(p.name for p in (tmp_path / "my-workflows" / "oscillator").iterdir()) == ["run.py", "workflow.toml"]
    res = swr("check", str(tmp_path / "my-workflows" / "oscillator"), cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "all gates pass: damped-oscillator" in res.stdout


# ---------------------------------------------------------------- issue 22, item 10: what a killed swr leaves

@pytest.fixture
def scratch() -> Iterator[Path]:
    """A temp dir of the test's own (TMPDIR of the swr it starts): what it leaves there is its alone."""
    import tempfile

    d = Path(tempfile.mkdtemp(prefix="swrtest-"))
    d.chmod(0o755)  # the sandbox user goes through it to what swr binds from it
    yield d
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        if line.split()[4].startswith(f"{d}/"):
            from swr.sandbox import capped

            capped.unmount(Path(line.split()[4]))
    shutil.rmtree(d, ignore_errors=True)


SHARED = re.compile(r"^swr-(image|seccomp)-[0-9a-f]+\.(lock|json)$")  # one per image or profile, for every process


def _leftovers(tmp: Path) -> tuple[list[str], list[str]]:
    """The host's mounts under `tmp`, and what is in it (but for what swr shares by content)."""
    mounts = [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()
              if line.split()[4].startswith(f"{tmp}/")]
    return mounts, sorted(p.name for p in tmp.iterdir() if not SHARED.match(p.name))


def _env(tmp: Path) -> dict[str, str]:
    import os

    return {**{k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}, "TMPDIR": str(tmp)}


def _dead_pid() -> int:
    import subprocess

    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


SLEEPER = "import time\ntime.sleep(300)\n"


@pytest.mark.parametrize(("sig", "sandbox"), [("SIGTERM", "bwrap"), ("SIGHUP", "bwrap"), ("SIGINT", "bwrap"),
                                              ("SIGTERM", "podman")])
def test_a_signalled_grade_leaves_no_mount_and_the_next_start_sweeps_a_dead_ones(
        linear_release: Path, tmp_path: Path, scratch: Path, sig: str, sandbox: str) -> None:
    """`swr grade` stopped by a signal mid-run kills its sandboxes (a podman container too), detaches its
    kernel-capped tmpfs and removes its scratch at once; and the leftovers of an swr that could not (a dead
    pid's mounted capped dir and stub dir) are swept by the next swr command, while a live process's are kept."""
    import os
    import signal
    import subprocess
    import time

    from conftest import SWR

    from swr.sandbox import capped

    task = str(task_dir(linear_release, "good-linear-v1"))
    cand = write_candidate(tmp_path / "sleeper", SLEEPER)
    p = subprocess.Popen([SWR, "grade", task, str(cand), "--json", "--sandbox", sandbox], env=_env(scratch),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120  # a guard against a hang, not a measured time
        while not _leftovers(scratch)[0]:  # a run's capped tmpfs is mounted: the candidate is running
            assert p.poll() is None and time.monotonic() < deadline, p.stderr.read() if p.stderr else ""
            time.sleep(0.05)
        p.send_signal(getattr(signal, sig))
        assert p.wait(timeout=120) == 128 + getattr(signal, sig)
    finally:
        p.kill()
        p.wait()
    assert _leftovers(scratch) == ([], [])
    if sandbox == "podman":
        ps = subprocess.run(["podman", "ps", "--all", "--filter", f"name=^swr-{p.pid}-", "--format", "{{.Names}}"],
                            capture_output=True, text=True, check=True)
        assert ps.stdout.split() == []

    dead = _dead_pid()
    stale_mount, stale_dir = scratch / f"swr-cap-{dead}-test", scratch / f"swr-hide-{dead}-test"
    live = scratch / f"swr-hide-{os.getpid()}-test"
    for d in (stale_mount, stale_dir / "pkg", live):
        d.mkdir(parents=True)
    assert capped.mount_tmpfs(stale_mount, 1 << 20)
    assert _leftovers(scratch) == ([str(stale_mount)], sorted([stale_mount.name, stale_dir.name, live.name]))
    (tmp_path / "empty").mkdir()
    res = subprocess.run([SWR, "grade", task, str(tmp_path / "empty")], env=_env(scratch), capture_output=True)
    assert res.returncode == 1, res.stderr  # a missing candidate: the command ran
    assert _leftovers(scratch) == ([], [live.name])


def test_commands_leave_no_scratch_dirs_behind(linear_release: Path, tmp_path: Path, scratch: Path) -> None:
    """Each `swr grade` of a task with a forbidden package (whose sandbox binds stub files over it) removes
    every scratch directory it made: running it again and again leaves the temp dir as it was."""
    import subprocess

    from conftest import SWR

    task = copy_tree(task_dir(linear_release, "good-linear-v1"), tmp_path / "task")
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace("forbidden_packages = []", 'forbidden_packages = ["numpy"]'))
    cand = write_candidate(tmp_path / "ok", CORRECT)
    for _ in range(3):
        res = subprocess.run([SWR, "grade", str(task), str(cand), "--json"], env=_env(scratch), capture_output=True)
        assert res.returncode == 0, res.stderr[-2000:]
        assert _leftovers(scratch) == ([], [])
