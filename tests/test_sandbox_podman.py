"""The podman backend for real: hostile candidates graded with `swr.grade.grade` in rootful podman.

No mocks and no skips: the CI installs podman (`apt-get install -y --no-install-recommends podman runc`);
where podman is missing or cannot start a container, every test here fails saying so.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from conftest import assert_disk_is_bounded, assert_no_process_left, write_candidate

from swr.errors import SandboxUnavailable
from swr.grade import execute, grade
from swr.sandbox import WORKDIR, Job, Limits, Mount, get_sandbox, run

JOBS = 2
APT = "apt-get install -y --no-install-recommends podman runc"


@pytest.fixture(scope="module")
def podman():
    try:
        return get_sandbox("podman")
    except SandboxUnavailable as e:
        pytest.fail(f"the podman sandbox is unavailable: {e} (CI: {APT})")


def own_containers(sb) -> list[str]:
    res = sb.client("ps", "--all", "--filter", f"name=^swr-{os.getpid()}-", "--format", "{{.Names}}")
    assert res.returncode == 0, res.stderr
    return res.stdout.decode().split()


def own_cgroups() -> list[Path]:
    return [d for d in Path("/sys/fs/cgroup").glob(f"*/swr-podman/run-{os.getpid()}-*")]


@pytest.fixture(autouse=True)
def nothing_left(podman):
    yield
    assert own_containers(podman) == [], "containers were not removed"
    assert own_cgroups() == [], "per-run parent cgroups were not removed"


def limited(task, **kw):
    return dataclasses.replace(task, limits=dataclasses.replace(task.limits, **kw))


def timed_grade(task, cand: Path, sb):
    t0 = time.monotonic()
    v = grade(task, cand, sb, jobs=JOBS)
    return v, time.monotonic() - t0


def wall_bound(task) -> float:
    n = len(task.hidden) + len(task.public)
    return (task.limits.time_s + 5) * math.ceil(n / JOBS) + 10


def assert_exec_failure(v, limit: str, n: int = 6) -> None:
    assert v["pass"] is False and v["labels"] == ["execution_failure"], v["labels"]
    assert len(v["scenarios"]) == n
    for s in v["scenarios"]:
        assert s["label"] == "execution_failure"
        assert s["limit"] == limit, (s["limit"], s["detail"], s["stderr_tail"][-500:])


def marker() -> str:
    return f"swrmark{uuid.uuid4().hex}"


WRONG = 'json.dump({"y": 1e6 + S["a"], "z": [1e6 + S["b"], 0.0]}, sys.stdout)\n'
CORRECT = ("import json, sys\nS = json.load(sys.stdin)\n"
           "json.dump({'y': 2 * S['a'] + S['b'], 'z': [S['a'], S['b']]}, sys.stdout)\n")


# ----------------------------------------------------------------------------------------- normal

def test_correct_candidate_passes(linear_task, podman, tmp_path):
    v, wall = timed_grade(linear_task, write_candidate(tmp_path / "good", CORRECT), podman)
    assert v["pass"] is True, (v["labels"], [s["detail"] for s in v["scenarios"]])
    assert wall < wall_bound(linear_task)


def test_command_line_carries_the_design_flags(podman, tmp_path):
    argv = podman.argv(Job([sys.executable, "-c", "pass"], Mount(tmp_path, WORKDIR, "overlay")))
    line = " ".join(argv)
    for flag in ("--network none", "--read-only", "--pids-limit 256", "--memory", "--cap-drop ALL",
                 "--security-opt no-new-privileges", "--user 65534", "--rm", "--ulimit nofile=1024:1024",
                 f"{tmp_path}:{WORKDIR}:O"):
        assert flag in line, flag


# ------------------------------------------------------------------------------- private files

PROBE = r'''
import json, os, sys
S = json.load(sys.stdin)
ROOT = __ROOT__
skip = {"/proc", "/sys", "/dev", "/usr", sys.prefix, sys.base_prefix}
found, walked = [], 0
for top, dirs, files in os.walk("/"):
    if top in skip:
        dirs[:] = []
        continue
    for name in dirs + files:
        walked += 1
        if name in ("output.json", "gates.json", "task.toml") or name == "private":
            found.append(os.path.join(top, name))
R = {"root": os.path.exists(ROOT), "private": os.path.exists(os.path.join(ROOT, "private")),
     "release": os.path.exists(os.path.dirname(os.path.dirname(ROOT))), "found": found, "walked": walked,
     "env": sorted(os.environ), "uid": os.getuid(), "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit())}
sys.stderr.write(json.dumps(R) + "\n")
'''

ALLOWED_ENV = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE",
               "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "SWR_ARTIFACTS", "SWR_WORKDIR",
               "PWD", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "HOSTNAME"}  # podman always sets HOSTNAME=sandbox


def test_private_files_and_env_do_not_leak(linear_task, podman, tmp_path, monkeypatch):
    monkeypatch.setenv("SWR_TEST_SECRET", f"s3cret-{uuid.uuid4().hex}")
    task = linear_task
    assert (task.root / "private" / "hidden").is_dir()
    cand = write_candidate(tmp_path / "probe", PROBE.replace("__ROOT__", repr(str(task.root))) + WRONG)
    v, wall = timed_grade(task, cand, podman)
    assert v["labels"] == ["numeric_mismatch"], v["labels"]
    for s in v["scenarios"]:
        r = json.loads(s["stderr_tail"].splitlines()[0])
        assert (r["root"], r["private"], r["release"], r["found"]) == (False, False, False, []), r
        assert r["walked"] > 10 and r["uid"] == 65534
        assert set(r["env"]) <= ALLOWED_ENV, set(r["env"]) - ALLOWED_ENV
        assert len(r["pids"]) <= 2, r["pids"]  # a new PID namespace: the candidate (and nothing of the host)
    assert os.environ["SWR_TEST_SECRET"] not in json.dumps(v)
    assert wall < wall_bound(task)


# ------------------------------------------------------------------------------------- network

NET = r'''
import json, socket, sys
S = json.load(sys.stdin)
R = {}
for name, addr in [("tcp_loopback", ("127.0.0.1", __TCP__)), ("tcp_external", ("1.1.1.1", 53))]:
    c = socket.socket()
    c.settimeout(1.5)
    try:
        c.connect(addr)
        R[name] = "connected"
    except OSError as e:
        R[name] = type(e).__name__ + ": " + str(e)
    finally:
        c.close()
sys.stderr.write(json.dumps(R) + "\n")
'''


def test_no_network_to_host_loopback(linear_task, podman, tmp_path):
    srv = socket.create_server(("127.0.0.1", 0))
    srv.settimeout(0.1)
    got: list[str] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
                got.append("connection")
                conn.close()
            except TimeoutError:
                continue
            except OSError:
                return

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        with socket.create_connection(("127.0.0.1", srv.getsockname()[1]), timeout=2):
            pass
        deadline = time.monotonic() + 2
        while not got and time.monotonic() < deadline:
            time.sleep(0.02)
        assert got == ["connection"]  # the listener works from the host
        got.clear()
        cand = write_candidate(tmp_path / "net", NET.replace("__TCP__", str(srv.getsockname()[1])) + WRONG)
        v, wall = timed_grade(linear_task, cand, podman)
    finally:
        stop.set()
        t.join(timeout=2)
        srv.close()
    assert got == [], "the sandbox reached the host"
    assert v["labels"] == ["numeric_mismatch"], v["labels"]
    for s in v["scenarios"]:
        r = json.loads(s["stderr_tail"].splitlines()[0])
        assert r["tcp_loopback"].startswith("ConnectionRefusedError") or "unreachable" in r["tcp_loopback"], r
        assert r["tcp_external"] != "connected", r
    assert wall < wall_bound(linear_task)


# ------------------------------------------------------------------------------ resource limits

FORK_BOMB = r'''
import json, os, sys
S = json.load(sys.stdin)
M = __MARK__
forked = 0
for _ in range(10_000):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        try:
            os.execve("/bin/sleep", [M, "60"], {"SWR_MARK": M})
        finally:
            os._exit(0)
    forked += 1
sys.stderr.write("forked %d\n" % forked)
'''


def test_fork_bomb_hits_pids_limit(linear_task, podman, tmp_path):
    mark = marker()
    cand = write_candidate(tmp_path / "bomb", FORK_BOMB.replace("__MARK__", repr(mark)) + WRONG)
    task = limited(linear_task, time_s=10)
    v, wall = timed_grade(task, cand, podman)
    assert_exec_failure(v, "pids")
    for s in v["scenarios"]:
        n = int(s["stderr_tail"].split("forked ")[1].split()[0])
        assert 0 < n < task.limits.pids
    assert_no_process_left(mark, grace_s=2.0)  # container teardown is slower
    assert wall < wall_bound(task)


def test_three_gib_allocation_hits_memory_limit(linear_task, podman, tmp_path):
    cand = write_candidate(tmp_path / "hog", "import json, sys\nS = json.load(sys.stdin)\nb = b'x' * (3 << 30)\n" + WRONG)
    task = dataclasses.replace(limited(linear_task, time_s=30), hidden=linear_task.hidden[:2],
                               public=linear_task.public[:1])
    assert task.limits.memory_bytes == 2 << 30
    v, wall = timed_grade(task, cand, podman)
    assert_exec_failure(v, "memory", n=3)
    assert wall < wall_bound(task)


ENDLESS = r'''
import subprocess, sys
M = __MARK__
subprocess.Popen([M, "60"], executable="/bin/sleep", env={"SWR_MARK": M})
sys.stdout.write('{"y": ')
sys.stdout.flush()
while True:
    pass
'''


def test_endless_loop_times_out_and_is_killed(linear_task, podman, tmp_path):
    mark = marker()
    cand = write_candidate(tmp_path / "loop", ENDLESS.replace("__MARK__", repr(mark)))
    task = limited(linear_task, time_s=2)
    v, wall = timed_grade(task, cand, podman)
    assert_exec_failure(v, "timeout")
    for s in v["scenarios"]:
        assert s["wall_s"] < task.limits.time_s + 3
    assert_no_process_left(mark, grace_s=2.0)  # container teardown is slower
    assert wall < wall_bound(task)


def test_100_mib_on_stdout_hits_output_limit(linear_task, podman, tmp_path):
    cand = write_candidate(tmp_path / "flood", "import sys\nchunk = b'x' * (1 << 20)\n"
                                              "for _ in range(100):\n    sys.stdout.buffer.write(chunk)\n")
    task = limited(linear_task, time_s=20)
    v, wall = timed_grade(task, cand, podman)
    assert_exec_failure(v, "output")
    assert len(json.dumps(v)) < 256 * 1024
    ex = execute(task, cand, task.hidden[0].scenario, podman, tmp_path / "files")
    assert ex.limit == "output"
    assert task.limits.stdout_bytes < len(ex.stdout) <= task.limits.stdout_bytes + 64 * 1024
    assert wall < wall_bound(task)


# ----------------------------------------------------------------------------------------- writes

def test_writes_to_the_host_are_capped_per_file_and_in_total(linear_task, podman, tmp_path):
    assert_disk_is_bounded(linear_task, podman, tmp_path)


WRITER = r'''
import json, os, sys
S = json.load(sys.stdin)
M = __MARK__
R = {}
targets = {"tmp": "/tmp/" + M, "host_tmp_cand": os.path.join(__HOST_CAND__, M), "venv": os.path.join(sys.prefix, M),
           "base_python": os.path.join(sys.base_prefix, M), "usr": "/usr/" + M, "etc": "/etc/" + M,
           "workdir": os.path.join(os.getcwd(), M), "artifacts": os.path.join(os.environ["SWR_ARTIFACTS"], M)}
for name, path in targets.items():
    try:
        with open(path, "w") as f:
            f.write(M)
        R[name] = "written"
    except OSError as e:
        R[name] = type(e).__name__
try:
    with open("run", "a") as f:
        f.write("\n# tampered\n")
    R["run_itself"] = "written"
except OSError as e:
    R["run_itself"] = type(e).__name__
sys.stderr.write(json.dumps(R) + "\n")
'''


def test_writes_never_reach_the_host(linear_task, podman, tmp_path):
    mark = marker()
    cand_dir = tmp_path / "writer"
    cand = write_candidate(cand_dir, WRITER.replace("__MARK__", repr(mark))
                           .replace("__HOST_CAND__", repr(str(cand_dir))) + WRONG)
    before = (cand / "run").read_bytes()
    v, wall = timed_grade(linear_task, cand, podman)
    assert v["labels"] == ["numeric_mismatch"], v["labels"]
    for s in v["scenarios"]:
        r = json.loads(s["stderr_tail"].splitlines()[0])
        for name in ("venv", "base_python", "usr", "etc"):
            assert r[name] != "written", (name, r)
        # the sandbox's own scratch space works: its /tmp, a copy-on-write work dir, the artifacts dir
        assert r["tmp"] == r["workdir"] == r["run_itself"] == r["artifacts"] == "written", r
    host = [Path("/tmp") / mark, cand_dir / mark, Path(sys.prefix) / mark, Path(sys.base_prefix) / mark,
            Path("/usr") / mark, Path("/etc") / mark]
    assert not [p for p in host if p.exists()], "a sandboxed write reached the host"
    assert (cand / "run").read_bytes() == before
    assert wall < wall_bound(linear_task)


def test_artifacts_and_stdin_round_trip(podman, tmp_path):
    art = tmp_path / "art"
    art.mkdir()
    prog = ("import os, sys; data = sys.stdin.read(); "
            "open(os.path.join(os.environ['SWR_ARTIFACTS'], 'out.txt'), 'w').write(data[::-1]); print(len(data))")
    res = run(podman, Job([sys.executable, "-c", prog], Mount(tmp_path, WORKDIR, "overlay"), Limits(time_s=20),
                          artifacts=art), b"abc" * 100_000)
    assert res.ok, res.stderr
    assert res.stdout.strip() == b"300000"
    assert (art / "out.txt").read_text() == ("abc" * 100_000)[::-1]


def test_overhead_against_bwrap(podman, tmp_path):
    """Per-run cost of a trivial job (informational bound: podman stays under 5 s a run here)."""
    job = Job([sys.executable, "-c", "pass"], Mount(tmp_path, WORKDIR, "overlay"), Limits(time_s=30))
    times = {}
    for name, sb in (("podman", podman), ("bwrap", get_sandbox("bwrap"))):
        run(sb, job, b"")  # warm
        t0 = time.monotonic()
        for _ in range(3):
            assert run(sb, job, b"").ok
        times[name] = (time.monotonic() - t0) / 3
    print(f"per-run wall: podman {times['podman']:.3f} s, bwrap {times['bwrap']:.3f} s")
    assert times["podman"] < 5


def test_podman_is_installed_where_ci_expects_it():
    """Fails (not skips) with the install line when podman is missing."""
    res = subprocess.run(["podman", "--version"], capture_output=True, text=True, check=False)
    assert res.returncode == 0, f"podman missing: CI must run `{APT}`"
