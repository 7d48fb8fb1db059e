"""Hostile candidates graded through the real sandboxes: one suite, every attack on every backend.

Acceptance point: reading the private files (walking the file system, via /proc, via env), a socket
to a listener on the host's loopback, a bounded fork bomb, a 3 GiB allocation, an endless loop,
writing into /tmp and $HOME of the host, 100 MiB on stdout — each fails with the right label,
leaks nothing, leaves no process (nor cgroup, nor container) behind, and grading returns promptly.

The `backend` fixture (conftest.py) runs each test on bubblewrap and on rootful podman; what
legitimately differs between them is data (`EXPECT`), not a second copy of a test. No skips: where a
backend cannot run, its tests fail saying how CI installs it. Podman-only tests live in
test_sandbox_podman.py; bwrap's leftover cgroups and podman's leftover containers are checked after
every test by the fixture. The candidates' scripts are in hostile_scripts.py.

Every candidate is a real candidate directory graded with `swr.kinds.workflow.grading.grade`; where a test needs to
see everything the candidate printed (the verdict keeps only a stderr tail), it also runs one
scenario through `swr.kinds.workflow.grading.execute`, the same code path grade() uses.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import socket
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from conftest import assert_disk_is_bounded, assert_no_process_left, write_candidate
from hostile_scripts import (
    CLOSED_PIPES,
    DAEMON,
    ENDLESS,
    ESCAPES_EXPECTED,
    FORK_BOMB,
    NET,
    PROBE,
    WRITER,
    Listeners,
    assert_x32_killed,
    escapes_py,
    wrong_answer_py,
)

from swr.kinds.verdict import dump_verdict
from swr.kinds.workflow.grading import execute, grade
from swr.sandbox import WORKDIR, Job, Limits, Mount, Sandbox, run
from swr.sandbox.base import STDERR_CAP

JOBS = 2  # grade()'s default
CORRECT = (
    "import json, sys\nS = json.load(sys.stdin)\n"
    "json.dump({'y': 2 * S['a'] + S['b'], 'z': [S['a'], S['b']]}, sys.stdout)\n"
)


@dataclasses.dataclass(frozen=True)
class Expect:
    """What legitimately differs between backends; every other expectation is the same on both."""

    extra_env: frozenset[str]  # variables the runtime itself sets
    max_pids: int  # processes a candidate sees in its new PID namespace
    init: tuple[str, ...]  # one of these is in the command line of every process it sees
    grace_s: float  # how long a killed run's processes may take to disappear from the host
    given_writable: bool  # the files it was given (root's, here) are writable in its copy-on-write view


EXPECT = {
    # bwrap's init, the candidate (and a child); the view is an overlay of the root-owned files, so the
    # sandbox user (host uid 65534) may add files to it but not change root's
    "bwrap": Expect(frozenset(), 3, ("bwrap", "./run"), 1.0, False),
    # podman always sets HOSTNAME=sandbox; the candidate is pid 1; container teardown is slower; its
    # view is a private copy given to the sandbox user
    "podman": Expect(frozenset({"HOSTNAME"}), 2, ("./run",), 2.0, True),
}


# ----------------------------------------------------------------------------------------- helpers


def limited(task, **kw):
    """A copy of the task with tightened limits."""
    return dataclasses.replace(task, limits=dataclasses.replace(task.limits, **kw))


def timed_grade(task, cand: Path, sandbox: Sandbox) -> tuple[dict[str, Any], float]:
    t0 = time.monotonic()
    v = grade(task, cand, sandbox, jobs=JOBS)
    return v, time.monotonic() - t0


def wall_bound(task) -> float:
    """Generous: every scenario may use its whole time limit plus 5 s of set-up and teardown."""
    n = len(task.hidden) + len(task.public)
    return (task.limits.time_s + 5) * math.ceil(n / JOBS) + 10


def scenarios(v: dict[str, Any], n: int = 6) -> list[dict[str, Any]]:
    assert len(v.scenarios) == n, v  # 3 hidden + 3 public unless trimmed
    return v.scenarios


def assert_label(v: dict[str, Any], label: str) -> None:
    assert v.label == label and v.labels == [label], v.labels


def assert_exec_failure(v: dict[str, Any], limit: str | None, n: int = 6) -> None:
    assert v.passed is False
    assert_label(v, "execution_failure")
    for s in scenarios(v, n):
        assert s.label == "execution_failure"
        assert s.limit == limit, (s.limit, s.detail, s.stderr_tail[-500:])


def first_line(s: dict[str, Any]) -> Any:
    """The JSON report a probe writes as the first line of its stderr."""
    return json.loads(s.stderr_tail.splitlines()[0])


def secrets_of(task) -> list[str]:
    """Strings that would reveal hidden targets or where the task lives on the host."""
    out = [str(task.root), str(task.root.resolve()), str(task.root.parent.parent)]  # .../release
    for ex in task.hidden:
        out.append(json.dumps(ex.output["y"]))  # `z` echoes the inputs, which the candidate is given
        out.append((task.root / "private" / "hidden" / str(ex.index) / "output.json").read_text().strip())
    return out


def marker() -> str:
    return f"swrmark{uuid.uuid4().hex}"


# ------------------------------------------------------------------------------------------ normal


def test_correct_candidate_passes(linear_task, backend, tmp_path):
    v, wall = timed_grade(linear_task, write_candidate(tmp_path / "good", CORRECT), backend)
    assert v.passed is True, (v.labels, [s.detail for s in v.scenarios])
    assert all(s.exit_code == 0 and s.limit is None for s in scenarios(v))
    assert wall < wall_bound(linear_task)


# ---------------------------------------------------------------------------- private files, env


def probe_candidate(root: Path, task, full: bool) -> Path:
    script = PROBE.replace("__FULL__", repr(full)).replace("__ROOT__", repr(str(task.root)))
    return write_candidate(root, script + wrong_answer_py())


ALLOWED_ENV = {
    "PATH",
    "HOME",
    "LANG",
    "LC_ALL",
    "TMPDIR",
    "PYTHONHASHSEED",
    "PYTHONDONTWRITEBYTECODE",
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "SWR_ARTIFACTS",
    "SWR_WORKDIR",
    "PWD",
    "OPENBLAS_CORETYPE",
    "OPENBLAS_L2_SIZE",
}
HIDDEN = {"root": False, "private": False, "hidden": False, "root_via_proc1": False, "release": False}


def test_private_files_env_and_proc_do_not_leak(linear_task, backend, tmp_path, monkeypatch):
    secret = f"s3cret-{uuid.uuid4().hex}"
    monkeypatch.setenv("SWR_TEST_SECRET", secret)
    task, exp = linear_task, EXPECT[backend.name]
    allowed = ALLOWED_ENV | exp.extra_env
    assert (task.root / "private" / "hidden").is_dir()  # the files exist on the host, under this path
    leaks = [*secrets_of(task), secret, "SWR_TEST_SECRET"]

    # 1. graded normally: the quick walk (everything but the read-only system trees) on every scenario
    v, wall = timed_grade(task, probe_candidate(tmp_path / "quick", task, full=False), backend)
    assert_label(v, "numeric_mismatch")
    assert all(s.exit_code == 0 and s.limit is None for s in scenarios(v))
    tails = "".join(s.stderr_tail for s in scenarios(v))  # (mismatches legitimately show references)
    for s in leaks:
        assert s not in tails, f"candidate found {s!r}"
    assert secret not in dump_verdict(v) and "SWR_TEST_SECRET" not in dump_verdict(v)
    for s in scenarios(v):
        seen = first_line(s)
        assert seen["visible"] == HIDDEN, seen
        assert seen["found"] == [] and seen["walked"] > 10 and seen["uid"] == 65534, seen
        assert len(seen["pids"]) <= exp.max_pids, seen["pids"]  # a new PID namespace: nothing of the host
        env = json.loads(s.stderr_tail.split("\nenv:", 1)[1].splitlines()[0])
        assert set(env) <= allowed, set(env) - allowed
    assert wall < wall_bound(task)

    # 2. one scenario with everything it printed: the full walk of "/" (including /usr and the venv)
    ex = execute(
        limited(task, time_s=120),
        probe_candidate(tmp_path / "full", task, full=True),
        task.hidden[0].scenario,
        backend,
        tmp_path / "full-files",
    )
    assert ex.returncode == 0 and ex.limit is None, ex.stderr[-2000:]
    text = ex.stdout.decode() + ex.stderr.decode()
    for s in leaks:
        assert s not in text, f"candidate found {s!r}"
    report = json.loads(ex.stdout)["report"]
    assert report["walked"] > 10_000  # it really walked the visible tree
    assert report["visible"] == HIDDEN and report["uid"] == 65534, report["visible"]
    assert not [p for p in report["files"] if "/private/" in p or os.path.basename(p) in ("output.json", "gates.json")]
    # a new PID namespace: only the sandbox's init and the candidate itself, no host process
    assert len(report["pids"]) <= exp.max_pids, report["pids"]
    for pid in report["pids"]:
        cmd = report["proc"][f"{pid}/cmdline"]
        assert any(name in cmd for name in exp.init), cmd
    # a cleared environment, for the candidate and for every process it can see
    assert set(report["env"]) <= allowed, set(report["env"]) - allowed
    assert report["env"]["HOME"] != str(Path.home())
    for pid in report["pids"]:
        names = {kv.split("=", 1)[0] for kv in report["proc"][f"{pid}/environ"].split("\0") if kv}
        assert names <= allowed, names - allowed
    # the launcher must not hand the grader's working directory to the sandbox
    assert not any(
        f"PWD={os.getcwd()}" in report["proc"][f"{pid}/environ"] for pid in report["pids"] if os.getcwd() != "/"
    )


# --------------------------------------------------------------------------------------- network


def test_no_network_to_host_loopback(linear_task, backend, tmp_path):
    lis = Listeners()
    try:
        # the listeners work from the host: a control connection is seen
        with socket.create_connection(("127.0.0.1", lis.tcp.getsockname()[1]), timeout=2):
            pass
        deadline = time.monotonic() + 2
        while not lis.got and time.monotonic() < deadline:
            time.sleep(0.02)
        assert lis.got == ["AF_INET connection"]
        lis.got.clear()

        script = (
            NET.replace("__TCP__", str(lis.tcp.getsockname()[1]))
            .replace("__UDP__", str(lis.udp.getsockname()[1]))
            .replace("__ABSTRACT__", repr(lis.abstract_name))
        )
        cand = write_candidate(tmp_path / "net", script + "REPORT = None\n" + wrong_answer_py())
        v, wall = timed_grade(linear_task, cand, backend)
        time.sleep(0.3)  # let a late datagram arrive, if any
    finally:
        lis.close()
    assert lis.got == [], f"the sandbox reached the host: {lis.got}"
    assert_label(v, "numeric_mismatch")
    for s in scenarios(v):
        rep = first_line(s)
        for name in ("tcp_loopback", "tcp_localhost", "abstract_unix", "tcp_external"):
            assert rep[name] != "connected", (name, rep[name])
        # its own loopback, or none: nothing listens there
        assert rep["tcp_loopback"].startswith("ConnectionRefusedError") or "unreachable" in rep["tcp_loopback"], rep
    assert wall < wall_bound(linear_task)


# ------------------------------------------------------------------ namespaces and socket families


def test_no_new_namespace_and_no_socket_family_but_unix_and_inet(linear_task, backend, tmp_path):
    """The seccomp filter, the same on every backend: a new namespace of any kind (unshare, clone's
    CLONE_NEW* flags, clone3) and every socket family but unix/inet/inet6 (vsock reaches the host) and
    netlink's route protocol are refused with the filter's errno, through libc and raw calls alike, and
    so is another ABI's socket call (i386, x32); forks, threads, subprocesses and those sockets keep working."""
    cand = write_candidate(tmp_path / "escapes", escapes_py() + wrong_answer_py())
    v, wall = timed_grade(limited(linear_task, time_s=30), cand, backend)
    assert_label(v, "numeric_mismatch")
    for s in scenarios(v):
        rep = first_line(s)
        i386, x32 = rep.pop("i386_vsock"), rep.pop("x32_vsock")
        assert rep == ESCAPES_EXPECTED, rep
        if i386 != "n/a":  # killed by the filter (SIGSYS), or by a kernel without the i386 ABI (SIGSEGV)
            assert i386["returncode"] in (-31, -11) and i386["stdout"] == "", i386
        assert_x32_killed(x32)
    assert wall < wall_bound(linear_task)


# ------------------------------------------------------------------------------ resource limits


def test_bounded_fork_bomb_hits_pids_limit_and_is_cleaned_up(linear_task, backend, tmp_path):
    mark = marker()
    cand = write_candidate(tmp_path / "forkbomb", FORK_BOMB.replace("__MARK__", repr(mark)) + wrong_answer_py())
    task = limited(linear_task, time_s=10)
    v, wall = timed_grade(task, cand, backend)
    assert_exec_failure(v, "pids")
    for s in scenarios(v):
        n = int(s.stderr_tail.split("forked ")[1].split()[0])
        assert 0 < n < task.limits.pids  # stopped by the pids cgroup, not by the 10,000 cap
    assert_no_process_left(mark, grace_s=EXPECT[backend.name].grace_s)
    assert wall < wall_bound(task)


def test_three_gib_allocation_hits_memory_limit(linear_task, backend, tmp_path):
    cand = write_candidate(
        tmp_path / "hog",
        "import json, sys\nS = json.load(sys.stdin)\nb = b'x' * (3 << 30)\nREPORT = len(b)\n" + wrong_answer_py(),
    )
    # touching 2 GiB takes ~5 s on this VM (slow first-touch page faults): grade three scenarios, not six
    task = dataclasses.replace(
        limited(linear_task, time_s=30), hidden=linear_task.hidden[:2], public=linear_task.public[:1]
    )
    assert task.limits.memory_bytes == 2 << 30  # the default limit
    v, wall = timed_grade(task, cand, backend)
    assert_exec_failure(v, "memory", n=3)
    assert wall < wall_bound(task)


def test_endless_loop_times_out_promptly(linear_task, backend, tmp_path):
    mark = marker()
    cand = write_candidate(tmp_path / "loop", ENDLESS.replace("__MARK__", repr(mark)))
    task = limited(linear_task, time_s=2)
    v, wall = timed_grade(task, cand, backend)
    assert_exec_failure(v, "timeout")
    for s in scenarios(v):
        assert s.wall_s < task.limits.time_s + 3
    assert wall < wall_bound(task)  # (2 + 5) * 3 + 10 s; in practice about 6 s
    assert_no_process_left(mark, grace_s=EXPECT[backend.name].grace_s)


def test_endless_loop_with_closed_stdio_still_times_out(linear_task, backend, tmp_path):
    cand = write_candidate(tmp_path / "closed", CLOSED_PIPES)
    task = limited(linear_task, time_s=2)
    v, wall = timed_grade(task, cand, backend)
    assert_exec_failure(v, "timeout")
    assert wall < wall_bound(task)


def test_100_mib_on_stdout_hits_output_limit_and_is_bounded(linear_task, backend, tmp_path):
    cand = write_candidate(
        tmp_path / "flood",
        "import sys\nchunk = b'x' * (1 << 20)\nfor _ in range(100):\n    sys.stdout.buffer.write(chunk)\n",
    )
    task = limited(linear_task, time_s=20)
    v, wall = timed_grade(task, cand, backend)
    assert_exec_failure(v, "output")
    assert len(dump_verdict(v)) < 256 * 1024  # the verdict carries no stdout
    ex = execute(task, cand, task.hidden[0].scenario, backend, tmp_path / "files")
    assert ex.limit == "output"
    assert task.limits.stdout_bytes < len(ex.stdout) <= task.limits.stdout_bytes + 64 * 1024
    assert wall < wall_bound(task)


def test_writes_to_the_host_are_capped_per_file_and_in_total(linear_task, backend, tmp_path):
    assert_disk_is_bounded(linear_task, backend, tmp_path)


def test_100_mib_on_stderr_is_capped_and_does_not_block(linear_task, backend, tmp_path):
    """stderr is for diagnosis only: it is drained and capped, and a correct answer still passes."""
    cand = write_candidate(
        tmp_path / "chatty",
        (
            "import json, sys\nS = json.load(sys.stdin)\nchunk = b'e' * (1 << 20)\n"
            "for _ in range(100):\n    sys.stderr.buffer.write(chunk)\n"
            "json.dump({'y': 2 * S['a'] + S['b'], 'z': [S['a'], S['b']]}, sys.stdout)\n"
        ),
    )
    v, wall = timed_grade(linear_task, cand, backend)
    assert v.passed is True, v.labels
    ex = execute(linear_task, cand, linear_task.hidden[0].scenario, backend, tmp_path / "files")
    assert ex.returncode == 0 and len(ex.stderr) <= STDERR_CAP + 64 * 1024
    assert wall < wall_bound(linear_task)


# ------------------------------------------------------------------------- writes, daemons, system


def test_writes_never_reach_the_host(linear_task, backend, tmp_path):
    mark = marker()
    cand_dir = tmp_path / "writer"
    script = (
        WRITER.replace("__MARK__", repr(mark))
        .replace("__HOST_HOME__", repr(str(Path.home())))
        .replace("__HOST_CAND__", repr(str(cand_dir)))
    )
    cand = write_candidate(cand_dir, script + wrong_answer_py())
    run_before = (cand / "run").read_bytes()
    v, wall = timed_grade(linear_task, cand, backend)
    assert_label(v, "numeric_mismatch")
    for s in scenarios(v):
        rep = first_line(s)
        # the read-only system, /etc and Python environment refuse every write
        for name in ("venv", "venv_site", "base_python", "usr", "etc"):
            assert rep[name] != "written" and "Error" in rep[name], (name, rep[name])
        # the sandbox's own scratch space works: its /tmp, a copy-on-write work dir, the artifacts dir
        assert rep["tmp"] == rep["workdir"] == rep["artifacts"] == "written", rep
        assert (rep["run_itself"] == "written") == EXPECT[backend.name].given_writable, rep
    host = [
        Path("/tmp") / mark,
        Path.home() / mark,
        Path("/root") / mark,
        cand_dir / mark,
        Path(os.environ.get("HOME", "/root")) / mark,
        Path(sys.prefix) / mark,
        Path(sys.base_prefix) / mark,
        Path("/usr") / mark,
        Path("/etc") / mark,
        Path(os.environ.get("TMPDIR", "/tmp")) / mark,
    ]
    assert not [p for p in host if p.exists()], "a sandboxed write reached the host"
    assert not list(Path(sys.prefix).rglob(f"{mark}*"))
    assert (cand / "run").read_bytes() == run_before  # the candidate dir is a copy-on-write view
    assert wall < wall_bound(linear_task)


@pytest.mark.parametrize("close_stdio", [False, True], ids=["holds-pipes", "detached"])
def test_daemon_is_killed_with_the_run(linear_task, backend, tmp_path, close_stdio):
    """A correct candidate that leaves a daemon behind: passes, promptly, and the daemon dies."""
    mark = marker()
    cand = write_candidate(
        tmp_path / "daemon", DAEMON.replace("__MARK__", repr(mark)).replace("__CLOSE__", repr(close_stdio))
    )
    v, wall = timed_grade(linear_task, cand, backend)
    assert v.passed is True, (v.labels, [s.detail for s in v.scenarios])
    for s in scenarios(v):
        assert s.wall_s < 5  # not held until the 10 s timeout by the daemon's copy of the pipes
    assert_no_process_left(mark, grace_s=EXPECT[backend.name].grace_s)
    assert wall < wall_bound(linear_task)


# ---------------------------------------------------------------------------- missing candidate


@pytest.mark.parametrize("kind", ["no-dir", "no-run", "not-executable", "run-is-dir"])
def test_missing_candidate(linear_task, backend, tmp_path, kind):
    cand = tmp_path / "cand"
    if kind != "no-dir":
        cand.mkdir()
    if kind == "not-executable":
        (cand / "run").write_text("#!/bin/sh\necho '{}'\n")
        (cand / "run").chmod(0o644)
    elif kind == "run-is-dir":
        (cand / "run").mkdir()
    elif kind == "no-run":
        (cand / "solve.py").write_text("print('{}')\n")
    v = grade(linear_task, cand, backend)
    assert v.passed is False and v.label == "missing_candidate"
    assert v.labels == ["missing_candidate"] and v.scenarios == [] and v.r_hid == 0.0
    assert v.detail


def test_broken_interpreter_is_an_execution_failure_not_missing(linear_task, backend, tmp_path):
    cand = write_candidate(tmp_path / "badshebang", "print('{}')\n", shebang="/nonexistent/python3")
    v = grade(limited(linear_task, time_s=5), cand, backend)
    assert v.label == "execution_failure"
    assert all(s.exit_code not in (0, None) and s.limit is None for s in scenarios(v))


# ------------------------------------------------------------------------------------- plumbing


def test_odd_argv_and_env_reach_the_sandbox_intact(backend, tmp_path):
    """Newlines, quotes and non-ASCII in argv and env (under bwrap these take the launcher-less path)."""
    weird = ["two\nlines", 'it\'s "quoted" $HOME `x`', "ünï", ""]
    prog = "import json, os, sys; print(json.dumps([sys.argv[1:], os.environ['SWR_X']]))"
    for argv_extra in (weird, ["plain"]):
        job = Job([sys.executable, "-c", prog, *argv_extra], Mount(tmp_path, WORKDIR), env={"SWR_X": "a\nb 'c' $d"})
        res = run(backend, job, b"")
        assert res.ok, res.stderr
        assert json.loads(res.stdout) == [argv_extra, "a\nb 'c' $d"]


def test_sandbox_init_cmdline_hides_host_paths_and_etc_is_read_only(backend, tmp_path):
    prog = (
        "import json, os; print(json.dumps([open('/proc/1/cmdline').read(), "
        "os.access('/etc/passwd', os.W_OK) or os.access('/etc', os.W_OK)]))"
    )  # one line: the launcher path
    res = run(backend, Job([sys.executable, "-c", prog], Mount(tmp_path, WORKDIR, "overlay")), b"")
    assert res.ok, res.stderr
    cmdline, etc_writable = json.loads(res.stdout)
    assert str(tmp_path) not in cmdline  # the mount options went through --args, not argv
    assert etc_writable is False


def test_artifacts_and_stdin_round_trip(backend, tmp_path):
    art = tmp_path / "art"
    art.mkdir()
    prog = (
        "import os, sys; data = sys.stdin.read(); "
        "open(os.path.join(os.environ['SWR_ARTIFACTS'], 'out.txt'), 'w').write(data[::-1]); print(len(data))"
    )
    res = run(
        backend,
        Job([sys.executable, "-c", prog], Mount(tmp_path, WORKDIR, "overlay"), Limits(time_s=20), artifacts=art),
        b"abc" * 100_000,
    )
    assert res.ok, res.stderr
    assert res.stdout.strip() == b"300000"
    assert (art / "out.txt").read_text() == ("abc" * 100_000)[::-1]


def test_threads_asking_for_the_cgroup_layout_at_once_all_get_it() -> None:
    """The first builds' threads start sandboxes together: each must find the per-run cgroups (a thread that
    lost the probe race got None, and its processes ran without pids and memory limits)."""
    import threading

    from swr.sandbox import cgroups

    want = cgroups.layout()
    assert want is not None  # this machine (and CI) has writable cgroups
    for _ in range(20):
        cgroups._layout.cache_clear()
        start, got = threading.Barrier(8), []
        threads = [threading.Thread(target=lambda: (start.wait(), got.append(cgroups.layout()))) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert got == [want] * 8
