"""Warm workers for `entry` workflows: same results as a fresh process, and a pool that survives
entries that raise, hang, exit, blow a limit, or print to stdout."""

from __future__ import annotations

import json
import os
import textwrap
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import FIXTURES

from swr.kinds.workflow.reference import Runner
from swr.kinds.workflow.scenario import sample_scenario
from swr.kinds.workflow.spec import load_spec

TIMEOUT_S = 2.0


def host_processes_with(marker: str) -> list[int]:
    needle, found = marker.encode(), []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                if needle in Path(f"/proc/{pid}/cmdline").read_bytes():
                    found.append(int(pid))
            except OSError:
                pass
    return found


def wait_until(cond, timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


MODULE = """
import json, os, subprocess, sys, time

CALLS = 0


def main(s):
    global CALLS
    CALLS += 1
    mode = s.get("mode", "ok")
    if mode == "raise":
        raise ValueError("refusing a = %r" % s["a"])
    if mode == "loop":
        while True:
            pass
    if mode == "exit":
        sys.exit(0)
    if mode == "hard-exit":
        os._exit(3)
    if mode == "hog":
        return {"n": len(b"x" * (400 << 20))}
    if mode == "huge":
        return {"blob": "x" * (3 << 20)}
    if mode == "print":
        print("plain garbage on stdout")
        sys.stdout.write('{"partial": ')  # no newline, no flush
        sys.__stdout__.write("via sys.__stdout__\\n")
        sys.__stdout__.flush()
        os.write(1, b'{"ok": true, "output": "{\\\\"forged\\\\": 1}"}\\n')  # a forged protocol line on fd 1
        subprocess.run(["/bin/echo", "from a child process"], check=True)
    return {"y": 2.0 * s["a"] + 1.0, "calls": CALLS}
"""


def entry_workflow(root: Path, module_text: str = MODULE, *, extra_toml: str = "") -> tuple[Path, str]:
    """A throwaway `entry` workflow; its module name is unique, so its workers can be found on the host."""
    mod = f"wmod_{uuid.uuid4().hex[:12]}"
    root.mkdir(parents=True)
    (root / f"{mod}.py").write_text(module_text)
    (root / "workflow.toml").write_text(
        textwrap.dedent(f"""\
        name = "worker-test"
        family = "fixtures"
        domain = "data-document"
        summary = "Throwaway entry workflow for the warm-worker tests."
        entry = "{mod}:main"
        timeout_s = {TIMEOUT_S}

        [inputs.a]
        type = "number"
        min = -10.0
        max = 10.0
        """)
        + extra_toml
    )
    return root, mod


@pytest.fixture
def runner_for(sandbox):
    made: list[Runner] = []

    def make(directory: Path, workers: int = 1) -> Runner:
        r = Runner(load_spec(directory), sandbox, workers=workers)
        made.append(r)
        return r

    yield make
    for r in made:
        r.close()


def out(res) -> dict:
    assert res.ok, (res.returncode, res.limit, res.stderr[-2000:])
    return json.loads(res.stdout)


# ------------------------------------------------------------------------------------- results


def test_warm_results_equal_fresh_results(runner_for):
    spec_dir = FIXTURES / "good-entry"
    r = runner_for(spec_dir, workers=2)
    assert r.pool is not None
    scen = [sample_scenario(r.spec, 11, 1, i) for i in range(12)]
    fresh = [out(r.run_fresh(s)) for s in scen[:4]]
    warm = [out(r.run(s)) for s in scen]
    assert warm[:4] == fresh  # byte-for-byte the same JSON values
    for s, o in zip(scen, warm):
        assert o == {"y": 2.0 * s["a"] + s["b"], "z": [s["a"], s["b"]]}
    # the pool is shared by threads: each result still belongs to its own scenario
    with ThreadPoolExecutor(4) as ex:
        threaded = list(ex.map(lambda s: out(r.run(s)), scen))
    assert threaded == warm
    assert len(r.pool.all) <= 2


def test_a_worker_really_is_reused(runner_for, tmp_path):
    d, _ = entry_workflow(tmp_path / "wf")
    r = runner_for(d)
    calls = [out(r.run({"a": float(i)}))["calls"] for i in range(5)]
    assert calls == [1, 2, 3, 4, 5]  # one warm process served them all
    assert out(r.run_fresh({"a": 1.0}))["calls"] == 1  # run_fresh is always a new process
    assert out(r.run({"a": 1.0})) == {"y": 3.0, "calls": 6}


# ------------------------------------------------------------------------------------- failures


def test_entry_that_raises_fails_that_scenario_only(runner_for, tmp_path):
    d, mod = entry_workflow(tmp_path / "wf")
    r = runner_for(d)
    assert out(r.run({"a": 1.0}))["calls"] == 1
    bad = r.run({"a": -2.5, "mode": "raise"})
    assert not bad.ok and bad.returncode == 1 and bad.limit is None and bad.stdout == b""
    assert b"ValueError: refusing a = -2.5" in bad.stderr
    # the same worker goes on: the failed call was its second
    assert out(r.run({"a": 2.0})) == {"y": 5.0, "calls": 3}
    fresh_bad = r.run_fresh({"a": -2.5, "mode": "raise"})
    assert fresh_bad.returncode == 1 and b"ValueError" in fresh_bad.stderr
    # sys.exit inside the entry is a failure of that scenario, not the end of the worker
    assert r.run({"a": 0.0, "mode": "exit"}).returncode == 1
    assert out(r.run({"a": 2.0}))["calls"] == 5
    assert len(host_processes_with(mod)) > 0


def test_entry_that_loops_forever_times_out_and_the_pool_recovers(runner_for, tmp_path):
    d, mod = entry_workflow(tmp_path / "wf")
    r = runner_for(d)
    assert out(r.run({"a": 1.0}))["calls"] == 1
    t0 = time.monotonic()
    res = r.run({"a": 1.0, "mode": "loop"})
    took = time.monotonic() - t0
    assert res.limit == "timeout" and not res.ok and res.returncode is None
    assert TIMEOUT_S - 0.1 <= took < TIMEOUT_S + 3
    # the hung worker is gone (bwrap, its init and the Python process), no copy of it is left
    assert wait_until(lambda: not host_processes_with(mod)), host_processes_with(mod)
    # the next call gets a new worker and a fresh deadline
    assert out(r.run({"a": 4.0})) == {"y": 9.0, "calls": 1}
    assert out(r.run({"a": 4.0}))["calls"] == 2
    # a fresh run of the looping entry times out too
    assert r.run_fresh({"a": 1.0, "mode": "loop"}).limit == "timeout"
    r.close()
    assert wait_until(lambda: not host_processes_with(mod)), "workers survived Runner.close()"


def test_entry_that_kills_its_worker_is_reported_and_replaced(runner_for, tmp_path):
    d, mod = entry_workflow(tmp_path / "wf")
    r = runner_for(d)
    out(r.run({"a": 1.0}))
    res = r.run({"a": 1.0, "mode": "hard-exit"})
    assert not res.ok and res.limit is None and res.returncode not in (0, None)
    assert out(r.run({"a": 1.0}))["calls"] == 1


def test_worker_limits_memory_and_output(runner_for, tmp_path):
    d, mod = entry_workflow(tmp_path / "wf", extra_toml="\n[limits]\nmemory_mb = 200\nstdout_mb = 1\n")
    r = runner_for(d)
    out(r.run({"a": 1.0}))
    hog = r.run({"a": 1.0, "mode": "hog"})
    assert hog.limit == "memory" and not hog.ok
    assert out(r.run({"a": 1.0}))["calls"] == 1
    huge = r.run({"a": 1.0, "mode": "huge"})
    assert huge.limit == "output" and len(huge.stdout) <= 1 << 20
    assert out(r.run({"a": 1.0}))["calls"] == 1
    r.close()
    assert wait_until(lambda: not host_processes_with(mod))


def test_entry_printing_to_stdout_does_not_corrupt_the_protocol(runner_for, tmp_path):
    d, _ = entry_workflow(tmp_path / "wf")
    r = runner_for(d)
    seen = b""
    for i in range(4):
        res = r.run({"a": float(i), "mode": "print"})
        assert out(res) == {"y": 2.0 * i + 1.0, "calls": 2 * i + 1}
        seen += res.stderr
        plain = r.run({"a": float(i)})
        assert out(plain) == {"y": 2.0 * i + 1.0, "calls": 2 * i + 2}
        seen += plain.stderr
    # what it printed went to stderr (kept for diagnosis; the drain thread may attribute a late chunk
    # to the next call), never into the replies
    wait_until(lambda: False, 0.2)
    seen += r.run({"a": 0.0}).stderr
    for text in (b"plain garbage on stdout", b"via sys.__stdout__", b"forged", b"from a child process"):
        assert seen.count(text) == 4, (text, seen[-2000:])
    assert seen.count(b'{"partial": ') >= 3  # the last one still sits, unflushed, in the entry's buffer
    fresh = r.run_fresh({"a": 3.0, "mode": "print"})
    assert out(fresh) == {"y": 7.0, "calls": 1}


def test_worker_started_by_a_short_lived_thread_outlives_it(runner_for, tmp_path):
    """bwrap's --die-with-parent is PR_SET_PDEATHSIG, which fires when the *thread* that forked it
    exits: a warm worker first used from a thread pool must survive the pool."""
    d, _ = entry_workflow(tmp_path / "wf")
    r = runner_for(d)
    with ThreadPoolExecutor(1) as ex:
        assert out(ex.submit(r.run, {"a": 1.0}).result())["calls"] == 1
    time.sleep(0.3)
    assert out(r.run({"a": 1.0}))["calls"] == 2  # the same warm process, still alive


def test_build_rejects_output_that_depends_on_a_workers_call_history(tmp_path):
    """The second execution runs on other warm processes in reverse order, so leaked state shows."""
    from swr.assemble import BuildOptions, build
    from swr.kinds.workflow.cache import ExecutionCache

    d, _ = entry_workflow(tmp_path / "wf")
    results = build(
        [d],
        tmp_path / "rel",
        BuildOptions(variants=1, public=3, hidden=2, jobs=1, max_rounds=2, cache=ExecutionCache(enabled=False)),
    )
    assert results[0].failure and "gate deterministic" in results[0].failure and "calls" in results[0].failure


def test_second_runs_use_other_processes(runner_for, tmp_path):
    d, _ = entry_workflow(tmp_path / "wf")
    r = runner_for(d)
    assert [out(r.run({"a": 1.0}))["calls"] for _ in range(3)] == [1, 2, 3]
    assert [out(r.run_second({"a": 1.0}))["calls"] for _ in range(2)] == [1, 2]


def test_second_runs_are_warm_calls_in_the_oracle_fork_server(runner_for, tmp_path):
    """After the fresh (hidden) runs the oracle's fork server serves second runs warm, so the package is
    imported once for both; a fresh run after them comes from a new server, never from the warm one."""
    d, _ = entry_workflow(tmp_path / "wf")
    r = runner_for(d)
    assert [out(r.run_oracle({"a": 1.0}))["calls"] for _ in range(2)] == [1, 1]  # fresh children
    pool = r.forks["oracle"]
    assert pool is not None and len(pool.all) == 1
    assert [out(r.run_second({"a": 1.0}))["calls"] for _ in range(3)] == [1, 2, 3]  # that server, warm
    assert len(pool.all) == 1 and r.second is None and r.seconds_as_oracle
    assert out(r.run_oracle({"a": 1.0}))["calls"] == 1  # not 4: a new server
    assert len(pool.all) == 2 and out(r.run_second({"a": 1.0}))["calls"] == 4


def test_warm_calls_in_the_fork_server_fail_as_a_warm_worker_does(runner_for, tmp_path):
    d, mod = entry_workflow(tmp_path / "wf", extra_toml="\n[limits]\nmemory_mb = 200\nstdout_mb = 1\n")
    r = runner_for(d)
    assert out(r.run_second({"a": 1.0}))["calls"] == 1
    bad = r.run_second({"a": -2.5, "mode": "raise"})
    assert not bad.ok and bad.returncode == 1 and bad.limit is None and bad.stdout == b""
    assert b"ValueError: refusing a = -2.5" in bad.stderr
    assert r.run_second({"a": 0.0, "mode": "exit"}).returncode == 1
    assert out(r.run_second({"a": 1.0, "mode": "print"})) == {"y": 3.0, "calls": 4}  # fd 1 is not the protocol
    assert out(r.run_second({"a": 2.0})) == {"y": 5.0, "calls": 5}  # the same server went on
    t0 = time.monotonic()
    res = r.run_second({"a": 1.0, "mode": "loop"})
    assert (
        res.limit == "timeout" and res.returncode is None and TIMEOUT_S - 0.1 <= time.monotonic() - t0 < TIMEOUT_S + 3
    )
    assert out(r.run_second({"a": 1.0}))["calls"] == 1  # a new server
    assert r.run_second({"a": 1.0, "mode": "hog"}).limit == "memory"
    huge = r.run_second({"a": 1.0, "mode": "huge"})
    assert huge.limit == "output" and huge.stdout == b""
    assert r.second is None  # every call so far was a fork server's
    died = r.run_second({"a": 1.0, "mode": "hard-exit"})  # no limit to blame: run again on a warm worker
    assert not died.ok and died.returncode == 3 and r.second is not None and not r.seconds_as_oracle
    r.close()
    assert wait_until(lambda: not host_processes_with(mod)), "servers survived Runner.close()"


def test_a_build_imports_an_entry_workflow_twice(tmp_path, monkeypatch):
    """One warm worker for the first runs, one fork server for the rest: the hidden runs go first."""
    from swr.assemble import BuildOptions, build
    from swr.kinds.workflow.cache import ExecutionCache
    from swr.kinds.workflow.fork_pool import ForkServer
    from swr.kinds.workflow.reference import Worker

    started: list[str] = []
    for cls in (ForkServer, Worker):
        monkeypatch.setattr(
            cls,
            "__init__",
            lambda self, *a, real=cls.__init__, name=cls.__name__, **k: (started.append(name), real(self, *a, **k))[1],
        )
    d, _ = entry_workflow(tmp_path / "wf", MODULE.replace(', "calls": CALLS', ""))
    [res] = build(
        [d], tmp_path / "rel", BuildOptions(variants=2, public=3, hidden=2, jobs=1, cache=ExecutionCache(enabled=False))
    )
    assert not res.failure and len(res.tasks) == 2
    assert sorted(started) == ["ForkServer", "Worker"]


STACK = """
import subprocess


def main(s):
    maps = subprocess.run(["grep", "-F", "[stack]", "/proc/self/maps"], capture_output=True, text=True, check=True)
    return {"y": 2.0 * s["a"], "stack": maps.stdout.split("-")[0]}
"""


def test_every_execution_of_a_reference_has_the_same_addresses(tmp_path):
    """Output that follows addresses (OpenSCAD's CGAL triangulations do) is the same in the first run, the
    warm second run and the oracle's, so two builds from empty caches write the same bytes."""
    from swr.assemble import BuildOptions, build
    from swr.kinds.workflow.cache import ExecutionCache

    d, _ = entry_workflow(tmp_path / "wf", STACK)
    for i in range(2):
        [res] = build(
            [d],
            tmp_path / f"rel{i}",
            BuildOptions(variants=1, public=3, hidden=2, jobs=1, max_rounds=1, cache=ExecutionCache(enabled=False)),
        )
        assert not res.failure, res.failure
    assert _tree(tmp_path / "rel0" / "tasks") == _tree(tmp_path / "rel1" / "tasks")


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


SET_ORDER = """
def main(s):
    names = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
    return {"y": 2.0 * s["a"], "order": list(names)}
"""


@pytest.mark.parametrize("mode", ["entry", "command"])
def test_build_rejects_output_that_depends_on_the_hash_seed(tmp_path, mode):
    """Set order leaks into the output: the second execution runs under another PYTHONHASHSEED."""
    from swr.assemble import BuildOptions, build
    from swr.kinds.workflow.cache import ExecutionCache

    d, mod = entry_workflow(tmp_path / "wf", SET_ORDER)
    if mode == "command":
        (d / f"{mod}.py").write_text(SET_ORDER + "\nimport json, sys\nprint(json.dumps(main(json.load(sys.stdin))))\n")
        toml = (d / "workflow.toml").read_text().replace(f'entry = "{mod}:main"', f'command = ["python3", "{mod}.py"]')
        (d / "workflow.toml").write_text(toml)
    results = build(
        [d],
        tmp_path / "rel",
        BuildOptions(variants=1, public=2, hidden=1, jobs=1, max_rounds=1, cache=ExecutionCache(enabled=False)),
    )
    assert results[0].failure and "gate deterministic: field `order" in results[0].failure


def test_gate_6_grades_the_hidden_second_runs_and_runs_nothing_again(tmp_path, monkeypatch):
    """A hidden scenario runs twice in all: its second run is the oracle candidate's (`./run` over the task's
    files, forbidden packages hidden), which gate 6 then grades, artifacts included."""
    import swr.kinds.workflow.grading
    from swr.assemble import BuildOptions, build
    from swr.core.layout import TaskPaths
    from swr.core.release_dir import task_dir
    from swr.kinds.workflow.cache import ExecutionCache

    def no_run(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("gate 6 executed the oracle again")

    monkeypatch.setenv("SWR_FORK_SERVER", "0")  # every execution a process of its own: none may come from grade
    monkeypatch.setattr(swr.kinds.workflow.grading, "run", no_run)
    [res] = build(
        [FIXTURES / "good-artifacts"],
        tmp_path / "rel",
        BuildOptions(variants=2, public=2, hidden=2, cache=ExecutionCache(enabled=False)),
    )
    assert res.failure is None and len(res.tasks) == 2
    gates = json.loads(TaskPaths(task_dir(tmp_path / "rel", res.tasks[0])).gates.read_text())["gates"]
    assert gates["oracle_passes"] == {"pass": True, "r_hid": 1.0}


def test_a_reference_that_cannot_run_as_a_candidate_fails_the_oracle_gate(tmp_path):
    """The hidden second run hides the forbidden packages as grading does: a reference that needs one fails."""
    from swr.assemble import BuildOptions, build
    from swr.kinds.workflow.cache import ExecutionCache

    d, _ = entry_workflow(
        tmp_path / "wf", "import numpy\n\ndef main(s):\n    return {'y': float(numpy.float64(s['a']))}\n"
    )
    toml = (d / "workflow.toml").read_text()
    (d / "workflow.toml").write_text(toml.replace("[inputs.a]", 'forbidden_packages = ["numpy"]\n\n[inputs.a]'))
    [res] = build(
        [d],
        tmp_path / "rel",
        BuildOptions(variants=1, public=2, hidden=1, max_rounds=1, cache=ExecutionCache(enabled=False)),
    )
    assert res.failure and res.failure.startswith("gate oracle_passes: the wrapped reference fails as a candidate")
    assert "forbidden in this task" in res.failure
