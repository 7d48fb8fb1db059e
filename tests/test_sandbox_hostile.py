"""Hostile candidates graded through the real bubblewrap sandbox.

Acceptance point: reading the private files (walking the file system, via /proc, via env), a socket
to a listener on the host's loopback, a bounded fork bomb, a 3 GiB allocation, an endless loop,
writing into /tmp and $HOME of the host, 100 MiB on stdout — each fails with the right label,
leaks nothing, leaves no process behind, and grading returns promptly.

Every candidate is a real candidate directory graded with `swr.grade.grade`; where a test needs to
see everything the candidate printed (the verdict keeps only a stderr tail), it also runs one
scenario through `swr.grade.execute`, the same code path grade() uses.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import socket
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from conftest import assert_disk_is_bounded, assert_no_process_left, write_candidate
from swr.grade import execute, grade
from swr.sandbox import cgroups
from swr.sandbox.base import STDERR_CAP

JOBS = 2  # grade()'s default


# ----------------------------------------------------------------------------------------- helpers

def limited(task, **kw):
    """A copy of the task with tightened limits."""
    return dataclasses.replace(task, limits=dataclasses.replace(task.limits, **kw))


def timed_grade(task, cand: Path, sandbox) -> tuple[dict[str, Any], float]:
    t0 = time.monotonic()
    v = grade(task, cand, sandbox, jobs=JOBS)
    return v, time.monotonic() - t0


def wall_bound(task) -> float:
    """Generous: every scenario may use its whole time limit plus 5 s of set-up and teardown."""
    n = len(task.hidden) + len(task.public)
    return (task.limits.time_s + 5) * math.ceil(n / JOBS) + 10


def scenarios(v: dict[str, Any], n: int = 6) -> list[dict[str, Any]]:
    assert len(v["scenarios"]) == n, v  # 3 hidden + 3 public unless trimmed
    return v["scenarios"]


def assert_exec_failure(v: dict[str, Any], limit: str | None, n: int = 6) -> None:
    assert v["pass"] is False and v["label"] == "execution_failure", v["labels"]
    assert v["labels"] == ["execution_failure"]
    for s in scenarios(v, n):
        assert s["label"] == "execution_failure"
        assert s["limit"] == limit, (s["limit"], s["detail"], s["stderr_tail"][-500:])


def own_run_cgroups() -> list[Path]:
    """This process's per-run cgroups, except those of idle launchers (made ahead for the next runs)."""
    lay = cgroups.layout()
    if lay is None:
        return []
    left = []
    for d in {lay.pids, lay.memory}:
        for cg in d.glob(f"run-{os.getpid()}-*"):
            try:
                pids = (cg / "cgroup.procs").read_text().split()
                idle = len(pids) == 1 and Path(f"/proc/{pids[0]}/cmdline").read_bytes().endswith(b"\0swr-launch\0")
            except OSError:
                continue  # removed meanwhile
            if not idle:
                left.append(cg)
    return left


@pytest.fixture(autouse=True)
def no_leftover_cgroups():
    yield
    deadline = time.monotonic() + 2
    while own_run_cgroups() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not own_run_cgroups(), "per-run cgroups were not removed"


def secrets_of(task) -> list[str]:
    """Strings that would reveal hidden targets or where the task lives on the host."""
    out = [str(task.root), str(task.root.resolve()), str(task.root.parent.parent)]  # .../release
    for ex in task.hidden:
        out.append(json.dumps(ex.output["y"]))  # `z` echoes the inputs, which the candidate is given
        out.append((task.root / "private" / "hidden" / str(ex.index) / "output.json").read_text().strip())
    return out


def wrong_answer_py() -> str:
    """Python lines printing an input-dependent, wrong, well-formed answer (a semantic failure)."""
    return 'json.dump({"y": 1e6 + S["a"], "z": [1e6 + S["b"], 0.0], "report": REPORT}, sys.stdout)\n'


def marker() -> str:
    return f"swrmark{uuid.uuid4().hex}"


# ---------------------------------------------------------------------------- private files, env

PROBE = r'''
import json, os, sys
S = json.load(sys.stdin)
FULL = __FULL__
ROOT = __ROOT__  # the task's host path: a hostile candidate may well guess it
NEEDLES = ("private", "hidden", "output.json", "gates.json", "release", "task.toml", "good-linear",
           "scenario.json")
skip = {"/proc", "/sys", "/dev"} | (set() if FULL else {"/usr", sys.prefix, sys.base_prefix})
REPORT = {"files": {}, "proc": {}, "pids": [], "env": dict(os.environ), "walked": 0}
for top, dirs, files in os.walk("/"):
    if top in skip:
        dirs[:] = []
        continue
    for name in dirs + files:
        REPORT["walked"] += 1
        p = os.path.join(top, name)
        if any(k in name for k in NEEDLES) and os.path.isfile(p):
            try:
                with open(p, errors="replace") as f:
                    REPORT["files"][p] = f.read(2000)
            except OSError as e:
                REPORT["files"][p] = repr(e)
    if REPORT["walked"] > 500_000:
        break
for pid in sorted(os.listdir("/proc")):
    if not pid.isdigit():
        continue
    REPORT["pids"].append(int(pid))
    for f in ("cmdline", "environ", "cwd", "mountinfo"):
        try:
            if f == "cwd":
                REPORT["proc"][pid + "/cwd"] = os.readlink("/proc/%s/cwd" % pid)
            else:
                with open("/proc/%s/%s" % (pid, f), "rb") as fh:
                    REPORT["proc"][pid + "/" + f] = fh.read().decode(errors="replace")
        except OSError as e:
            REPORT["proc"][pid + "/" + f] = repr(e)
    try:
        REPORT["proc"][pid + "/root"] = sorted(os.listdir("/proc/%s/root" % pid))
    except OSError as e:
        REPORT["proc"][pid + "/root"] = repr(e)
# booleans only: never echo the guessed path itself
REPORT["root_visible"] = os.path.exists(ROOT)
REPORT["private_visible"] = os.path.exists(os.path.join(ROOT, "private"))
REPORT["hidden_visible"] = os.path.exists(os.path.join(ROOT, "private", "hidden", "0", "output.json"))
REPORT["root_via_proc1"] = os.path.exists("/proc/1/root" + ROOT)
REPORT["release_visible"] = os.path.exists(os.path.dirname(os.path.dirname(ROOT)))
sys.stderr.write(json.dumps({k: REPORT[k] for k in REPORT if k.endswith("visible") or k == "root_via_proc1"}))
sys.stderr.write("\nenv:" + json.dumps(REPORT["env"]) + "\n")
'''


def probe_candidate(root: Path, task, full: bool) -> Path:
    script = PROBE.replace("__FULL__", repr(full)).replace("__ROOT__", repr(str(task.root)))
    return write_candidate(root, script + wrong_answer_py())


ALLOWED_ENV = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE",
               "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "SWR_ARTIFACTS", "SWR_WORKDIR",
               "PWD", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"}


def test_private_files_env_and_proc_do_not_leak(linear_task, sandbox, tmp_path, monkeypatch):
    secret = f"s3cret-{uuid.uuid4().hex}"
    monkeypatch.setenv("SWR_TEST_SECRET", secret)
    task = linear_task
    assert (task.root / "private" / "hidden").is_dir()  # the files exist on the host, under this path
    leaks = [*secrets_of(task), secret, "SWR_TEST_SECRET"]

    # 1. graded normally: the quick walk (everything but the read-only system trees) on every scenario
    v, wall = timed_grade(task, probe_candidate(tmp_path / "quick", task, full=False), sandbox)
    assert v["label"] == "numeric_mismatch" and v["labels"] == ["numeric_mismatch"], v["labels"]
    assert all(s["exit_code"] == 0 and s["limit"] is None for s in scenarios(v))
    tails = "".join(s["stderr_tail"] for s in scenarios(v))  # (mismatches legitimately show references)
    for s in leaks:
        assert s not in tails, f"candidate found {s!r}"
    for s in scenarios(v):
        seen = json.loads(s["stderr_tail"].splitlines()[0])
        assert seen == {"root_visible": False, "private_visible": False, "hidden_visible": False,
                        "root_via_proc1": False, "release_visible": False}, seen
    assert wall < wall_bound(task)

    # 2. one scenario with everything it printed: the full walk of "/" (including /usr and the venv)
    ex = execute(limited(task, time_s=120), probe_candidate(tmp_path / "full", task, full=True),
                 task.hidden[0].scenario, sandbox, tmp_path / "full-files")
    assert ex.returncode == 0 and ex.limit is None, ex.stderr[-2000:]
    text = ex.stdout.decode() + ex.stderr.decode()
    for s in leaks:
        assert s not in text, f"candidate found {s!r}"
    report = json.loads(ex.stdout)["report"]
    assert report["walked"] > 10_000  # it really walked the visible tree
    assert not report["root_visible"] and not report["private_visible"] and not report["hidden_visible"]
    assert not report["root_via_proc1"] and not report["release_visible"]
    assert not [p for p in report["files"] if "/private/" in p or os.path.basename(p) in ("output.json", "gates.json")]
    # a new PID namespace: only bwrap's init and the candidate itself, no host process
    assert len(report["pids"]) <= 3, report["pids"]
    for pid in report["pids"]:
        cmd = report["proc"][f"{pid}/cmdline"]
        assert "bwrap" in cmd or "./run" in cmd, cmd
    # a cleared environment, for the candidate and for every process it can see
    assert set(report["env"]) <= ALLOWED_ENV, set(report["env"]) - ALLOWED_ENV
    assert report["env"]["HOME"] != str(Path.home())
    for pid in report["pids"]:
        names = {kv.split("=", 1)[0] for kv in report["proc"][f"{pid}/environ"].split("\0") if kv}
        assert names <= ALLOWED_ENV, names - ALLOWED_ENV
    # the launcher must not hand the grader's working directory to the sandbox
    assert not any(f"PWD={os.getcwd()}" in report["proc"][f"{pid}/environ"] for pid in report["pids"]
                   if os.getcwd() != "/")


# --------------------------------------------------------------------------------------- network

NET = r'''
import json, socket, sys
S = json.load(sys.stdin)
REPORT = {}
for name, fam, kind, addr in [
        ("tcp_loopback", socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", __TCP__)),
        ("tcp_localhost", socket.AF_INET, socket.SOCK_STREAM, ("localhost", __TCP__)),
        ("abstract_unix", socket.AF_UNIX, socket.SOCK_STREAM, "\0" + __ABSTRACT__),
        ("tcp_external", socket.AF_INET, socket.SOCK_STREAM, ("1.1.1.1", 53)),
        ("udp_loopback", socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", __UDP__))]:
    c = socket.socket(fam, kind)
    c.settimeout(1.5)
    try:
        if kind == socket.SOCK_DGRAM:
            c.sendto(b"exfiltrated", addr)
            REPORT[name] = "sent"
        else:
            c.connect(addr)
            c.sendall(b"exfiltrated")
            REPORT[name] = "connected"
    except OSError as e:
        REPORT[name] = type(e).__name__ + ": " + str(e)
    finally:
        c.close()
sys.stderr.write(json.dumps(REPORT) + "\n")
'''


class Listeners:
    """A TCP listener on 127.0.0.1, a UDP socket on 127.0.0.1 and an abstract unix socket."""

    def __init__(self) -> None:
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.abstract_name = f"swr-test-{uuid.uuid4().hex}"
        self.unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.unix.bind("\0" + self.abstract_name)
        self.unix.listen()
        self.got: list[str] = []
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._serve, args=(s,), daemon=True)
                        for s in (self.tcp, self.udp, self.unix)]
        for t in self.threads:
            t.start()

    def _serve(self, s: socket.socket) -> None:
        s.settimeout(0.1)
        while not self.stop.is_set():
            try:
                if s.type == socket.SOCK_DGRAM:
                    data, _ = s.recvfrom(1024)
                    self.got.append(f"udp {data!r}")
                else:
                    conn, _ = s.accept()
                    self.got.append(f"{s.family.name} connection")
                    conn.close()
            except (TimeoutError, socket.timeout):
                continue
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=2)
        for s in (self.tcp, self.udp, self.unix):
            s.close()


def test_no_network_to_host_loopback(linear_task, sandbox, tmp_path):
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

        script = (NET.replace("__TCP__", str(lis.tcp.getsockname()[1]))
                  .replace("__UDP__", str(lis.udp.getsockname()[1]))
                  .replace("__ABSTRACT__", repr(lis.abstract_name)))
        cand = write_candidate(tmp_path / "net", script + 'REPORT = None\n' + wrong_answer_py())
        v, wall = timed_grade(linear_task, cand, sandbox)
        time.sleep(0.3)  # let a late datagram arrive, if any
    finally:
        lis.close()
    assert lis.got == [], f"the sandbox reached the host: {lis.got}"
    assert v["label"] == "numeric_mismatch", v["labels"]
    for s in scenarios(v):
        rep = json.loads(s["stderr_tail"].splitlines()[0])
        for name in ("tcp_loopback", "tcp_localhost", "abstract_unix", "tcp_external"):
            assert rep[name] != "connected", (name, rep[name])
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
REPORT = forked
'''


def test_bounded_fork_bomb_hits_pids_limit_and_is_cleaned_up(linear_task, sandbox, tmp_path):
    mark = marker()
    cand = write_candidate(tmp_path / "forkbomb", FORK_BOMB.replace("__MARK__", repr(mark)) + wrong_answer_py())
    task = limited(linear_task, time_s=10)
    v, wall = timed_grade(task, cand, sandbox)
    assert_exec_failure(v, "pids")
    for s in scenarios(v):
        n = int(s["stderr_tail"].split("forked ")[1].split()[0])
        assert 0 < n < task.limits.pids  # stopped by the pids cgroup, not by the 10,000 cap
    assert_no_process_left(mark)
    assert wall < wall_bound(task)


def test_three_gib_allocation_hits_memory_limit(linear_task, sandbox, tmp_path):
    cand = write_candidate(tmp_path / "hog", "import json, sys\nS = json.load(sys.stdin)\n"
                                            "b = b'x' * (3 << 30)\nREPORT = len(b)\n" + wrong_answer_py())
    # touching 2 GiB takes ~5 s on this VM (slow first-touch page faults): grade three scenarios, not six
    task = dataclasses.replace(limited(linear_task, time_s=30), hidden=linear_task.hidden[:2],
                               public=linear_task.public[:1])
    assert task.limits.memory_bytes == 2 << 30  # the default limit
    v, wall = timed_grade(task, cand, sandbox)
    assert_exec_failure(v, "memory", n=3)
    assert wall < wall_bound(task)


ENDLESS = r'''
import os, subprocess, sys
M = __MARK__
subprocess.Popen([M, "60"], executable="/bin/sleep", env={"SWR_MARK": M})
sys.stdout.write('{"y": ')
sys.stdout.flush()
while True:
    pass
'''


def test_endless_loop_times_out_promptly(linear_task, sandbox, tmp_path):
    mark = marker()
    cand = write_candidate(tmp_path / "loop", ENDLESS.replace("__MARK__", repr(mark)))
    task = limited(linear_task, time_s=2)
    v, wall = timed_grade(task, cand, sandbox)
    assert_exec_failure(v, "timeout")
    for s in scenarios(v):
        assert s["wall_s"] < task.limits.time_s + 3
    assert wall < wall_bound(task)  # (2 + 5) * 3 + 10 s; in practice about 6 s
    assert_no_process_left(mark)


CLOSED_PIPES = r'''
import os
os.close(0); os.close(1); os.close(2)
while True:
    pass
'''


def test_endless_loop_with_closed_stdio_still_times_out(linear_task, sandbox, tmp_path):
    cand = write_candidate(tmp_path / "closed", CLOSED_PIPES)
    task = limited(linear_task, time_s=2)
    v, wall = timed_grade(task, cand, sandbox)
    assert_exec_failure(v, "timeout")
    assert wall < wall_bound(task)


def test_100_mib_on_stdout_hits_output_limit_and_is_bounded(linear_task, sandbox, tmp_path):
    cand = write_candidate(tmp_path / "flood", "import sys\nchunk = b'x' * (1 << 20)\n"
                                              "for _ in range(100):\n    sys.stdout.buffer.write(chunk)\n")
    task = limited(linear_task, time_s=20)
    v, wall = timed_grade(task, cand, sandbox)
    assert_exec_failure(v, "output")
    assert len(json.dumps(v)) < 256 * 1024  # the verdict carries no stdout
    ex = execute(task, cand, task.hidden[0].scenario, sandbox, tmp_path / "files")
    assert ex.limit == "output"
    assert task.limits.stdout_bytes < len(ex.stdout) <= task.limits.stdout_bytes + 64 * 1024
    assert wall < wall_bound(task)


def test_writes_to_the_host_are_capped_per_file_and_in_total(linear_task, sandbox, tmp_path):
    assert_disk_is_bounded(linear_task, sandbox, tmp_path)


def test_100_mib_on_stderr_is_capped_and_does_not_block(linear_task, sandbox, tmp_path):
    """stderr is for diagnosis only: it is drained and capped, and a correct answer still passes."""
    cand = write_candidate(tmp_path / "chatty", (
        "import json, sys\nS = json.load(sys.stdin)\nchunk = b'e' * (1 << 20)\n"
        "for _ in range(100):\n    sys.stderr.buffer.write(chunk)\n"
        "json.dump({'y': 2 * S['a'] + S['b'], 'z': [S['a'], S['b']]}, sys.stdout)\n"))
    v, wall = timed_grade(linear_task, cand, sandbox)
    assert v["pass"] is True, v["labels"]
    ex = execute(linear_task, cand, linear_task.hidden[0].scenario, sandbox, tmp_path / "files")
    assert ex.returncode == 0 and len(ex.stderr) <= STDERR_CAP + 64 * 1024
    assert wall < wall_bound(linear_task)


# ------------------------------------------------------------------------- writes, daemons, system

WRITER = r'''
import json, os, sys
S = json.load(sys.stdin)
M = __MARK__
REPORT = {}
targets = {
    "tmp": "/tmp/" + M,
    "home": os.path.join(os.environ.get("HOME", "/nonexistent"), M),
    "root_home": "/root/" + M,
    "host_home": os.path.join(__HOST_HOME__, M),
    "host_tmp_cand": os.path.join(__HOST_CAND__, M),
    "venv": os.path.join(sys.prefix, M),
    "venv_site": os.path.join(sys.prefix, "lib", "python%d.%d" % sys.version_info[:2], "site-packages", M + ".pth"),
    "base_python": os.path.join(sys.base_prefix, M),
    "usr": "/usr/" + M,
    "etc": "/etc/" + M,
    "workdir": os.path.join(os.getcwd(), M),
    "run_itself": os.path.join(os.getcwd(), "run"),
}
for name, path in targets.items():
    try:
        if name == "run_itself":
            with open(path, "a") as f:
                f.write("\n# tampered\n")
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(M)
        REPORT[name] = "written"
    except OSError as e:
        REPORT[name] = "%s(%s)" % (type(e).__name__, os.strerror(e.errno) if e.errno else e)
sys.stderr.write(json.dumps(REPORT) + "\n")
'''


def test_writes_never_reach_the_host(linear_task, sandbox, tmp_path):
    mark = marker()
    cand_dir = tmp_path / "writer"
    script = (WRITER.replace("__MARK__", repr(mark)).replace("__HOST_HOME__", repr(str(Path.home())))
              .replace("__HOST_CAND__", repr(str(cand_dir))))
    cand = write_candidate(cand_dir, script + wrong_answer_py())
    run_before = (cand / "run").read_bytes()
    v, wall = timed_grade(linear_task, cand, sandbox)
    assert v["label"] == "numeric_mismatch", v["labels"]
    for s in scenarios(v):
        rep = json.loads(s["stderr_tail"].splitlines()[0])
        # the read-only system and Python environment refuse every write
        for name in ("venv", "venv_site", "base_python", "usr"):
            assert rep[name] != "written" and "Error" in rep[name], (name, rep[name])
    host = [Path("/tmp") / mark, Path.home() / mark, Path("/root") / mark, cand_dir / mark,
            Path(os.environ.get("HOME", "/root")) / mark, Path(sys.prefix) / mark, Path(sys.base_prefix) / mark,
            Path("/usr") / mark, Path("/etc") / mark, Path(os.environ.get("TMPDIR", "/tmp")) / mark]
    assert not [p for p in host if p.exists()], "a sandboxed write reached the host"
    assert not list(Path(sys.prefix).rglob(f"{mark}*"))
    assert (cand / "run").read_bytes() == run_before  # the candidate dir is a copy-on-write view
    assert wall < wall_bound(linear_task)


DAEMON = r'''
import json, os, sys
S = json.load(sys.stdin)
M = __MARK__
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        if __CLOSE__:
            fd = os.open("/dev/null", os.O_RDWR)
            for i in (0, 1, 2):
                os.dup2(fd, i)
        os.execve("/bin/sleep", [M, "60"], {"SWR_MARK": M})  # keeps the inherited pipes open
    os._exit(0)
os.wait()
json.dump({"y": 2 * S["a"] + S["b"], "z": [S["a"], S["b"]]}, sys.stdout)
'''


@pytest.mark.parametrize("close_stdio", [False, True], ids=["holds-pipes", "detached"])
def test_daemon_is_killed_with_the_run(linear_task, sandbox, tmp_path, close_stdio):
    """A correct candidate that leaves a daemon behind: passes, promptly, and the daemon dies."""
    mark = marker()
    cand = write_candidate(tmp_path / "daemon", DAEMON.replace("__MARK__", repr(mark))
                           .replace("__CLOSE__", repr(close_stdio)))
    v, wall = timed_grade(linear_task, cand, sandbox)
    assert v["pass"] is True, (v["labels"], [s["detail"] for s in v["scenarios"]])
    for s in scenarios(v):
        assert s["wall_s"] < 5  # not held until the 10 s timeout by the daemon's copy of the pipes
    assert_no_process_left(mark)
    assert wall < wall_bound(linear_task)


# ---------------------------------------------------------------------------- missing candidate

@pytest.mark.parametrize("kind", ["no-dir", "no-run", "not-executable", "run-is-dir"])
def test_missing_candidate(linear_task, sandbox, tmp_path, kind):
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
    v = grade(linear_task, cand, sandbox)
    assert v["pass"] is False and v["label"] == "missing_candidate"
    assert v["labels"] == ["missing_candidate"] and v["scenarios"] == [] and v["r_hid"] == 0.0
    assert v["detail"]


def test_broken_interpreter_is_an_execution_failure_not_missing(linear_task, sandbox, tmp_path):
    cand = write_candidate(tmp_path / "badshebang", "print('{}')\n", shebang="/nonexistent/python3")
    v = grade(limited(linear_task, time_s=5), cand, sandbox)
    assert v["label"] == "execution_failure"
    assert all(s["exit_code"] not in (0, None) and s["limit"] is None for s in scenarios(v))


# ------------------------------------------------------------------------------------- plumbing

def test_odd_argv_and_env_reach_the_sandbox_intact(sandbox, tmp_path):
    """Newlines, quotes and non-ASCII in argv and env (these take the launcher-less path)."""
    from swr.sandbox import WORKDIR, Job, Mount, run

    weird = ["two\nlines", "it's \"quoted\" $HOME `x`", "ünï", ""]
    prog = "import json, os, sys; print(json.dumps([sys.argv[1:], os.environ['SWR_X']]))"
    for argv_extra in (weird, ["plain"]):
        job = Job([sys.executable, "-c", prog, *argv_extra], Mount(tmp_path, WORKDIR),
                  env={"SWR_X": "a\nb 'c' $d"})
        res = run(sandbox, job, b"")
        assert res.ok, res.stderr
        assert json.loads(res.stdout) == [argv_extra, "a\nb 'c' $d"]


def test_sandbox_init_cmdline_hides_host_paths_and_etc_is_read_only(sandbox, tmp_path):
    from swr.sandbox import WORKDIR, Job, Mount, run

    prog = ("import json, os; print(json.dumps([open('/proc/1/cmdline').read(), "
            "os.access('/etc/passwd', os.W_OK) or os.access('/etc', os.W_OK)]))")  # one line: the launcher path
    res = run(sandbox, Job([sys.executable, "-c", prog], Mount(tmp_path, WORKDIR, "overlay")), b"")
    assert res.ok, res.stderr
    cmdline, etc_writable = json.loads(res.stdout)
    assert str(tmp_path) not in cmdline  # the mount options went through --args, not argv
    assert etc_writable is False
