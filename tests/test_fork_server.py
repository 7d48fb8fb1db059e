"""The fork server (swr.kinds.workflow.fork_pool): fresh executions from one sandboxed parent that imported the reference's
modules once. Its children must give what a new sandboxed process gives, share nothing with each other,
and stay under the same limits; all of it through the real bubblewrap sandbox."""

from __future__ import annotations

import filecmp
import json
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import CATALOG, FIXTURES, assert_nothing_left

from swr.assemble import BuildOptions, build
from swr.kinds.workflow import fork_pool as forkserver
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.fork_pool import ForkPool, ForkServer, preload_of
from swr.kinds.workflow.reference import SECOND_ENV, Runner, limits_for, write_oracle
from swr.kinds.workflow.scenario import sample_scenario
from swr.kinds.workflow.spec import load_spec
from swr.sandbox import WORKDIR, Job, Mount, run

PROBE = """
import json, os, random, subprocess, sys, threading, time
import numpy as np

s = json.load(sys.stdin)
mode = s["mode"]
time.sleep(s.get("wait", 0))  # long enough for whatever an earlier child left behind to act
seen = {
    "global": getattr(np, "SWR_MARK", None), "env": os.environ.get("SWR_MARK"),
    "path": [p for p in sys.path if "swr-mark" in p],
    "files": sorted(p for p in ("/tmp/mark", "mark", "/dev/shm/mark", "/tmp/late", "/tmp/grand", "sub")
                    if os.path.exists(p)),
    "fds": sorted(os.listdir("/proc/self/fd")), "cwd": os.getcwd(), "argv": sys.argv, "name": __name__,
    "file": __file__, "path0": sys.path[0],
    "procs": sorted(p for p in os.listdir("/proc") if p.isdigit() and p != str(os.getpid())),
    "threads": threading.active_count(), "state": open(os.path.join(os.getcwd(), "state.txt")).read(),
    "rand": [random.random(), float(np.random.random())], "lazy": "wave" in sys.modules,
}
if mode == "mutate":  # every kind of state a child could try to hand to the next one
    np.SWR_MARK = 1
    os.environ["SWR_MARK"] = "1"
    sys.path.append("/swr-mark")
    for p in ("/tmp/mark", "mark", "/dev/shm/mark"):
        open(p, "w").write("x")
    os.makedirs("sub/deeper")
    os.set_inheritable(os.open("/tmp/mark", os.O_RDONLY), True)
    threading.Thread(target=lambda: (time.sleep(0.3), open("/tmp/late", "w").write("x")), daemon=True).start()
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.3); open('/tmp/grand', 'w').write('x')"],
                     start_new_session=True)
    os.chdir("/tmp")
elif mode == "lazy":  # a library's import on first use, out of the preload's sight
    __import__("wave")
elif mode == "spawner":  # a lazily imported module that starts a thread (found on $PYTHONPATH)
    __import__("spawner")
elif mode == "touch":
    open("state.txt", "a").write("changed by a child")
elif mode == "memory":
    hog = b"x" * (600 << 20)
elif mode == "loop":
    while True:
        pass
elif mode == "segv":
    os.kill(os.getpid(), 11)
elif mode == "raise":
    raise RuntimeError("the reference failed")
elif mode == "exit":
    sys.exit(3)
elif mode == "disk":
    for i in range(3):  # each file under the file-size limit, together past the disk cap
        open(os.path.join(os.environ["SWR_ARTIFACTS"], f"part{i}"), "wb").write(b"x" * (600 << 10))
elif mode == "killserver":  # its parent: the fork server, or bwrap's init (which ignores it) in a new process
    os.kill(os.getppid(), 9)
    time.sleep(0.2)
json.dump(seen, sys.stdout)
"""


@pytest.fixture
def probe(tmp_path: Path) -> Path:
    d = tmp_path / "probe"
    d.mkdir()
    (d / "run.py").write_text(PROBE)
    (d / "state.txt").write_text("as shipped")
    (d / "state.txt").chmod(0o666)
    (d / "workflow.toml").write_text(
        textwrap.dedent("""\
        name = "fork-probe"
        family = "fixtures"
        domain = "data-document"
        summary = "Reports what state it sees; some modes try to leave state behind or break a limit."
        command = ["python3", "run.py"]
        timeout_s = 4

        [inputs.mode]
        type = "categorical"
        choices = ["observe", "mutate"]

        [limits]
        memory_mb = 400
        """)
    )
    return d


@pytest.fixture
def runners(sandbox):
    made: list[Runner] = []

    def make(directory: Path, fork: bool | None = True) -> Runner:
        made.append(Runner(load_spec(directory), sandbox, fork=fork))
        return made[-1]

    yield make
    for r in made:
        r.close()


def seen(res) -> dict:
    assert res.ok, (res.returncode, res.limit, res.stderr[-2000:])
    return json.loads(res.stdout)


def test_preload_reads_top_level_imports_and_follows_local_modules(tmp_path: Path):
    (tmp_path / "run.py").write_text(
        "import json\nimport helper\ntry:\n    from numpy import linalg\n"
        "except ImportError:\n    pass\ndef main(s):\n    import scipy\n"
    )
    (tmp_path / "helper.py").write_text("import decimal, run\nfrom . import x\n")
    assert preload_of(tmp_path / "run.py", (tmp_path,)) == [["json", []], ["numpy", ["linalg"]], ["decimal", []]]


def test_no_state_passes_from_one_child_to_the_next(runners, probe):
    """A child that sets a module global and an env var, leaves files in /tmp, the workdir and /dev/shm, an
    open fd, a thread and a detached process: the next child on the same server sees none of it."""
    r = runners(probe)
    before = seen(r.run_fresh({"mode": "observe"}))
    pool = r.forks[("fresh",)]
    assert pool is not None and len(pool.all) == 1
    server = pool.all[0]
    assert server.info["preloaded"][-1] == "numpy"
    mutated = seen(r.run_fresh({"mode": "mutate"}))
    after = seen(r.run_fresh({"mode": "observe", "wait": 1.0}))
    assert pool.all == [server]  # cleaned up after, not replaced
    rands = [before.pop("rand"), mutated.pop("rand"), after.pop("rand")]
    assert after == before
    assert before["files"] == [] and before["global"] is None and before["name"] == "__main__"
    assert before["argv"] == ["run.py"] and before["fds"] == ["0", "1", "2", "3"]  # 3: listdir's own
    assert len({x for pair in rands for x in pair}) == 6  # each child draws fresh random states
    fresh = seen(runners(probe, fork=False).run_fresh({"mode": "observe"}))
    assert {k: v for k, v in fresh.items() if k not in ("rand", "procs")} == {
        k: v for k, v in before.items() if k != "procs"
    }  # what a new process sees, but the server in /proc


def test_the_server_learns_what_the_first_child_imported_on_first_use(runners, probe):
    """A program's lazy import is paid once per server: after the first child that succeeds the server imports
    the modules it imported (modules only), and that child's stderr is its own, without the list it told."""
    r = runners(probe)
    first = r.run_fresh({"mode": "lazy"})
    assert seen(first)["lazy"] is False and first.stderr == b""
    second = r.run_fresh({"mode": "observe"})
    assert seen(second)["lazy"] is True and second.stderr == b""
    fresh = seen(runners(probe, fork=False).run_fresh({"mode": "observe"}))
    assert fresh["lazy"] is False  # a new process has not imported it: only the server's children have
    assert r.forks[("fresh",)].all[0].info["preloaded"][-1] == "numpy"  # one server throughout


def test_a_server_whose_learned_imports_start_threads_retires_and_its_pool_stops_learning(runners, probe):
    """fork copies only the calling thread: a module imported on first use that starts a thread cannot be
    learned. The server that learned it retires; the servers after it learn nothing (children import it)."""
    (probe / "lib").mkdir()
    (probe / "lib" / "spawner.py").write_text(
        "import threading, time\nthreading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
    )
    env = {"PYTHONPATH": f"{WORKDIR}/lib"}
    r = runners(probe)
    first = r.run_fresh({"mode": "spawner"}, env)
    seen(first)  # the child that told it is fine: only the server would fork from a threaded state
    pool = r.forks[("fresh", ("PYTHONPATH", env["PYTHONPATH"]))]
    assert pool is not None and pool.learn is False and pool.all == []  # retired, and learning is off
    seen(r.run_fresh({"mode": "spawner"}, env))
    [server] = pool.all
    seen(r.run_fresh({"mode": "observe"}, env))
    assert pool.all == [server]  # it learned nothing, so it had no reason to retire


def test_a_watched_directory_lists_a_filesystem_mounted_in_it_without_walking_it(tmp_path):
    """/dev/shm is a filesystem of its own inside /dev: like the venv bound under the sandbox's /tmp when swr
    lives under /tmp, it is listed and not walked (the walk after every child cost a second per child)."""
    from swr.kinds.workflow import fork_server as forkserve

    probe = Path("/dev/shm") / f"swr-walk-{tmp_path.name}"
    probe.write_text("x")
    try:
        seen_dev = forkserve.manifest("/dev")
        assert "shm" in seen_dev and not any(k.startswith("shm/") for k in seen_dev)
        assert probe.name in forkserve.manifest("/dev/shm")  # a watched root itself is walked
    finally:
        probe.unlink()


def test_closing_the_runner_leaves_no_server_and_no_stray(sandbox, probe):
    r = Runner(load_spec(probe), sandbox, workers=2, fork=True)
    try:
        seen(r.run_fresh({"mode": "mutate"}))  # leaves a detached process behind, for a moment
        seen(r.run_fresh({"mode": "observe"}, SECOND_ENV))
        assert len(r.forks) == 2
    finally:
        r.close()
    assert_nothing_left(sandbox)  # every server's run cgroup is empty and gone


def test_a_child_that_changes_an_older_file_retires_its_server(runners, probe):
    r = runners(probe)
    first = seen(r.run_fresh({"mode": "observe"}))
    server = r.forks[("fresh",)].all[0]
    seen(r.run_fresh({"mode": "touch"}))
    again = seen(r.run_fresh({"mode": "observe"}))
    assert r.forks[("fresh",)].all != [server]
    assert again["state"] == first["state"] == "as shipped"  # the next child runs on an unchanged copy


def test_limits_apply_to_the_child_and_spare_the_server(runners, probe, sandbox, tmp_path):
    r = runners(probe)
    job = r.job([])
    server = ForkServer(sandbox, job, ["run.py"], preload_of(probe / "run.py", (probe,)))
    try:
        for n, mode in enumerate(["loop", "observe"]):  # the deadline: the child is killed, the server serves on
            res = server.call(json.dumps({"mode": mode}).encode(), tmp_path / f"t{n}")
            assert res.limit == ("timeout" if mode == "loop" else None) and not server.dead
        res = server.call(json.dumps({"mode": "memory"}).encode(), tmp_path / "m")
        assert (res.limit, res.returncode) == ("memory", None)
        assert server.h.proc.poll() is None  # the OOM killer took the child, not the server
        assert server.dead  # but its cgroup remembers the breach: the pool starts another
    finally:
        server.close()
    assert r.run_fresh({"mode": "memory"}).limit == "memory"
    assert seen(r.run_fresh({"mode": "observe"}))["files"] == []


def test_the_disk_cap_applies_to_a_child_as_to_a_process(sandbox, probe):
    spec = load_spec(probe)
    lim = replace(limits_for(spec), disk_bytes=1 << 20)
    forked, plain = (Runner(spec, sandbox, limits=lim, fork=f) for f in (True, False))
    try:
        got, want = forked.run_fresh({"mode": "disk"}), plain.run_fresh({"mode": "disk"})
        assert got.limit == want.limit == "disk" and forked.forks[("fresh",)] is not None
        assert seen(forked.run_fresh({"mode": "observe"}))["files"] == []
    finally:
        forked.close()
        plain.close()


@pytest.mark.parametrize("mode", ["segv", "raise", "exit"])
def test_a_crashing_child_fails_its_scenario_like_a_fresh_process(runners, probe, mode):
    forked, plain = runners(probe), runners(probe, fork=False)
    got, want = forked.run_fresh({"mode": mode}), plain.run_fresh({"mode": mode})
    assert forked.forks[("fresh",)] is not None and plain.forks == {}
    assert (got.returncode, got.limit, got.stdout) == (want.returncode, want.limit, want.stdout) != (0, None, b"")
    if mode == "raise":
        assert b"RuntimeError: the reference failed" in got.stderr
    assert seen(forked.run_fresh({"mode": "observe"}))["files"] == []  # the next scenario runs


def test_a_child_that_kills_its_server_is_rerun_per_process(runners, probe):
    r = runners(probe)
    assert seen(r.run_fresh({"mode": "observe"}))["procs"] == ["1", "2"]  # bwrap's init and the fork server
    server = r.forks[("fresh",)].all[0]
    assert seen(r.run_fresh({"mode": "killserver"}))["procs"] == ["1"]  # a new process: no server beside it
    assert server.h.proc.poll() is not None and r.forks[("fresh",)].all == []
    assert seen(r.run_fresh({"mode": "observe"}))["procs"] == ["1", "2"]  # and a new server for the next


def test_off_switch(runners, probe, monkeypatch):
    monkeypatch.setenv("SWR_FORK_SERVER", "0")
    r = runners(probe, fork=None)  # the default: the environment decides
    seen(r.run_fresh({"mode": "observe"}))
    assert not forkserver.enabled() and r.forks == {}


@pytest.mark.parametrize("rel", ["earth-space-sciences/pvlib/clearsky-poa", "data-document/statsmodels/regression-glm"])
def test_oracle_outputs_equal_per_process_on_catalog_workflows(rel, sandbox, tmp_path):
    """Gate 6's executions: the oracle candidate per process, and the same from a fork server."""
    spec = load_spec(CATALOG / rel)
    cand = write_oracle(spec, spec.directory, tmp_path / "candidate")
    lim = Runner(spec, sandbox, fork=False).limits
    module = spec.entry.split(":")[0]  # type: ignore[union-attr]
    pool = ForkPool(
        sandbox, Job([], Mount(cand, WORKDIR, "overlay"), lim), ["./run"], preload_of(cand / f"{module}.py", (cand,))
    )
    try:
        for i in range(3):
            stdin = (json.dumps(sample_scenario(spec, 0, 1 + i, i)) + "\n").encode()
            (tmp_path / f"p{i}").mkdir()
            (tmp_path / f"f{i}").mkdir()
            job = Job(["./run"], Mount(cand, WORKDIR, "overlay"), lim, artifacts=tmp_path / f"p{i}")
            want = run(sandbox, job, stdin)
            got = pool.run(stdin, tmp_path / f"f{i}")
            assert got is not None and want.ok and got.ok, (got and got.stderr[-2000:], want.stderr[-2000:])
            assert got.stdout == want.stdout
        assert pool.broken is None and len(pool.all) == 1
    finally:
        pool.close()


def test_command_workflow_both_runs_equal_per_process(runners):
    """A catalog `command` workflow: the determinism gate's two runs, forked and per process."""
    d = CATALOG / "software-formal-systems/networkx/graph-metrics"
    forked, plain = runners(d), runners(d, fork=False)
    for i in range(2):
        sc = sample_scenario(forked.spec, 0, 1, i)
        for env in (None, SECOND_ENV):
            got, want = forked.run_fresh(sc, env), plain.run_fresh(sc, env)
            assert got.ok and got.stdout == want.stdout
    assert set(forked.forks) == {("fresh",), ("fresh", ("PYTHONHASHSEED", "1"))}


def test_build_with_fork_server_is_byte_identical(tmp_path, monkeypatch):
    """Gate 6, the command workflows' runs and the entry workflows' warm second runs served by fork servers
    give the very release built without."""
    served, warmed = [], []
    real = ForkPool.run

    def counted(self, stdin, files, warm=False):
        res = real(self, stdin, files, warm)
        served.append(res is not None)
        warmed.append(warm)
        return res

    monkeypatch.setattr(ForkPool, "run", counted)
    flows = [FIXTURES / "good-linear", FIXTURES / "good-artifacts"]
    for name, switch in (("on", "1"), ("off", "0")):
        monkeypatch.setenv("SWR_FORK_SERVER", switch)
        opts = BuildOptions(variants=2, public=3, hidden=3, jobs=2, cache=ExecutionCache(tmp_path / f"cache-{name}"))
        assert not [r.failure for r in build(flows, tmp_path / name, opts) if r.failure]
        if name == "on":
            assert served and all(served) and any(warmed) and not all(warmed)
            served.clear()
    assert not served  # off: no fork server at all
    cmp = filecmp.dircmp(tmp_path / "on", tmp_path / "off")
    assert _identical(cmp), "the releases differ"


def _identical(cmp: filecmp.dircmp) -> bool:
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
    return not mismatch and not errors and all(_identical(c) for c in cmp.subdirs.values())
