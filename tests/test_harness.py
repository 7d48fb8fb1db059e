"""`swr run` / `swr results`: baselines over the catalog, workspaces that hold nothing hidden, resume,
kill -9, a Dask cluster losing a worker, anti-cheat, and the results' arithmetic."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest
from conftest import SWR, TEST_SEED, sample_per_domain, swr

from swr.core.layout import DB_FILE
from swr.core.release_dir import list_tasks, task_dir
from swr.harness import agents as agents_mod
from swr.harness import workspace
from swr.harness.agents import Budget, Context, OracleAgent, Outcome
from swr.harness.results import job_results, pass_at_k
from swr.harness.run import JobConfig, run_job
from swr.harness.store import Store
from swr.kinds.workflow.task import load_workflow_task
from swr.sandbox import WORKDIR, Job, Limits, Mount, run


def records(jobs: Path, job: str):
    s = Store(jobs)
    try:
        return s.runs(job)
    finally:
        s.close()


# --------------------------------------------------------------------- baselines over the whole catalog


def _oracle_passes(release: Path, jobs_dir: Path, tasks: list[str], why: str) -> None:
    """`swr run -a oracle` on exactly these tasks passes every one."""
    oracle = run_job(JobConfig(release=release, agent="oracle", include=tuple(tasks), jobs_dir=jobs_dir, concurrency=2))
    failed = [(r.task, r.label, r.error) for r in oracle if not r.passed]
    assert sorted({r.task for r in oracle}) == sorted(tasks) and not failed, (why, failed)


def test_nop_passes_nothing_and_a_seeded_sample_passes_the_oracle(catalog_release: Path, tmp_path: Path) -> None:
    """Acceptance 1 of `swr run`: nop passes 0 % of the catalog, and the oracle passes through the whole harness
    (workspace, agent, grading, records) on three tasks per domain drawn with the printed seed. The build's own
    oracle gate has already passed the reference as a candidate on every task's hidden split."""
    tasks = len(list_tasks(catalog_release))
    nop = run_job(JobConfig(release=catalog_release, agent="nop", jobs_dir=tmp_path, concurrency=2))
    assert len(nop) == tasks and not any(r.passed for r in nop) and {r.label for r in nop} == {"missing_candidate"}
    sample = sample_per_domain(catalog_release, 3)
    assert len(sample) == 3 * 6
    _oracle_passes(catalog_release, tmp_path, sample, f"sample drawn with SWR_TEST_SEED={TEST_SEED}")


@pytest.mark.full
def test_oracle_passes_every_task_of_the_catalog(catalog_release: Path, tmp_path: Path) -> None:
    """The exhaustive version (`make test-full`): the oracle through `swr run` on every task."""
    _oracle_passes(catalog_release, tmp_path, [t.name for t in list_tasks(catalog_release)], "every task")


# --------------------------------------------------------------------- the workspace


def test_workspace_holds_nothing_hidden_and_feedback_works_inside_the_sandbox(
    linear_release, sandbox, tmp_path: Path
) -> None:
    task = load_workflow_task(task_dir(linear_release, "good-linear-v1"))
    ws = workspace.create(task, tmp_path / "ws")
    names = set(ws.start)
    assert {"instruction.md", "task.toml", "feedback"} <= names
    assert not any(n.startswith(("private", "solution/")) for n in names)
    hidden = {json.dumps(h.scenario, sort_keys=True) for h in task.hidden}
    assert not any(h.encode() in data for data in ws.start.values() for h in hidden)
    OracleAgent().solve(Context(task, ws, sandbox, Budget(), None, 1))
    res = run(sandbox, Job(["./feedback", "--json"], Mount(ws.root, WORKDIR, "rw"), Limits(time_s=120)), b"")
    assert res.returncode == 0, res.stderr.decode()[-2000:]
    v = json.loads(res.stdout)
    assert v["pass"] and v["r_pub"] == 1.0 and not [s for s in v["scenarios"] if s["split"] == "hidden"]
    assert "solution/run" in workspace.diff(ws)


# --------------------------------------------------------------------- resume and kill -9


def test_the_same_command_again_runs_nothing(linear_release: Path, tmp_path: Path) -> None:
    cfg = JobConfig(release=linear_release, agent="oracle", attempts=2, jobs_dir=tmp_path, job="twice")
    first = {r.key: r for r in run_job(cfg)}
    assert len(first) == 2 * 2 and all(r.passed for r in first.values())
    stamps = sqlite3.connect(tmp_path / DB_FILE).execute("SELECT key, finished FROM runs").fetchall()
    again = run_job(
        JobConfig(release=linear_release, agent="oracle", attempts=2, jobs_dir=tmp_path, job="twice", concurrency=1)
    )
    assert {r.key for r in again} == set(first)
    assert sqlite3.connect(tmp_path / DB_FILE).execute("SELECT key, finished FROM runs").fetchall() == stamps


def test_kill_9_then_the_same_command_completes_without_duplicates(linear_release: Path, tmp_path: Path) -> None:
    cmd = [
        SWR,
        "run",
        str(linear_release),
        "-a",
        "oracle",
        "-k",
        "4",
        "-n",
        "1",
        "--job",
        "k9",
        "--jobs-dir",
        str(tmp_path),
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if (tmp_path / DB_FILE).exists() and len(records(tmp_path, "k9")) >= 2:
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = {r.key: r for r in records(tmp_path, "k9")}
    assert 2 <= len(before) < 8
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    after = records(tmp_path, "k9")
    assert len(after) == len({r.key for r in after}) == 8 and all(r.passed for r in after)
    for r in after:  # a run recorded before the kill was not run again
        if r.key in before:
            assert (r.tries, r.wall_s) == (before[r.key].tries, before[r.key].wall_s)


# --------------------------------------------------------------------- Dask


def test_dask_job_survives_a_killed_worker(linear_release: Path, tmp_path: Path) -> None:
    from dask.distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        cfg = JobConfig(
            release=linear_release,
            agent="oracle",
            attempts=5,
            jobs_dir=tmp_path,
            job="dask",
            executor="dask",
            scheduler=cluster.scheduler_address,
        )
        out: dict[str, list] = {}
        t = threading.Thread(target=lambda: out.setdefault("records", run_job(cfg)))
        t.start()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not (tmp_path / DB_FILE).exists():
            time.sleep(0.05)
        while time.monotonic() < deadline and len(records(tmp_path, "dask")) < 1:
            time.sleep(0.05)
        pids = list(client.run(os.getpid).values())
        assert len(pids) == 2
        os.kill(pids[0], signal.SIGKILL)
        t.join(timeout=600)
    recs = out["records"]
    assert len(recs) == len({r.key for r in recs}) == 10 and all(r.passed for r in recs)


# --------------------------------------------------------------------- anti-cheat and results


class TamperAgent:
    """Solves the task, then rewrites a public example: the verdict passes, the policy must not."""

    name = "tamper"

    def solve(self, ctx: Context) -> Outcome:
        OracleAgent().solve(ctx)
        (ctx.workspace.root / "instruction.md").write_text("anything goes\n")
        return Outcome()


def test_modified_protected_files_fail_the_run(linear_release: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(agents_mod.AGENTS, "tamper", lambda opts: TamperAgent())
    recs = run_job(JobConfig(release=linear_release, agent="tamper", jobs_dir=tmp_path, include=("*-v1",)))
    assert [(r.passed, r.label) for r in recs] == [(False, "anti_cheat")]
    assert recs[0].cheats == [{"kind": "protected_file", "path": "instruction.md"}]
    assert recs[0].verdict.passed is True  # the candidate itself was right


def test_results_json(linear_release: Path, tmp_path: Path) -> None:
    run_job(JobConfig(release=linear_release, agent="oracle", attempts=2, jobs_dir=tmp_path, job="ok"))
    res = swr("results", "ok", "--jobs-dir", str(tmp_path), "--json")
    assert res.returncode == 0, res.stderr
    r = json.loads(res.stdout)
    assert {"pass_at_1", "pass_at_k", "runs", "passed", "infra_failures", "labels", "by_domain"} <= set(r)
    assert (r["pass_at_1"], r["pass_at_k"], r["runs"], r["passed"], r["infra_failures"]) == (1.0, 1.0, 4, 4, 0)
    assert r["by_domain"] == {"data-document": {"tasks": 2, "pass_at_1": 1.0}}
    assert swr("results", "nope", "--jobs-dir", str(tmp_path)).returncode == 2


def test_two_jobs_with_the_same_settings_each_keep_their_own_records(linear_release: Path, tmp_path: Path) -> None:
    """Run keys are content hashes of the settings, so both jobs plan the same keys; running, resuming and
    regrading the second never touches the first's records, pass@1 or regrades (issue 22, item 12)."""

    def cli(*args: str) -> dict:
        res = swr(*args, "--jobs-dir", str(tmp_path), "--json")
        assert res.returncode == 0, res.stderr
        return json.loads(res.stdout)

    def rows(job: str) -> list[tuple]:
        return (
            sqlite3.connect(tmp_path / DB_FILE)
            .execute("SELECT key, finished, passed FROM runs WHERE job = ? ORDER BY key", (job,))
            .fetchall()
        )

    first = cli("run", str(linear_release), "-a", "oracle", "--job", "first")
    assert (first["pass_at_1"], first["missing_records"]) == (1.0, 0)
    kept = rows("first")
    regraded = cli("regrade", "first", "--release", str(linear_release), "-n", "2")
    assert regraded["regraded"] == 2
    second = cli("run", str(linear_release), "-a", "oracle", "--job", "second")
    assert (second["pass_at_1"], second["missing_records"]) == (1.0, 0)
    assert [k for k, _, _ in rows("second")] == [k for k, _, _ in kept]  # the same keys, records of its own
    cli("run", str(linear_release), "-a", "oracle", "--job", "second")  # resumed: nothing runs
    cli("regrade", "second", "--release", str(linear_release), "-n", "2")
    assert rows("first") == kept and cli("results", "first") == first
    store = Store(tmp_path)
    try:
        assert len(store.regrades("first")) == len(store.regrades("second")) == 2
    finally:
        store.close()


def test_a_missing_record_counts_as_a_failure(linear_release: Path, tmp_path: Path) -> None:
    run_job(JobConfig(release=linear_release, agent="oracle", jobs_dir=tmp_path, job="gap"))
    db = sqlite3.connect(tmp_path / DB_FILE)
    with db:
        db.execute("DELETE FROM runs WHERE rowid = (SELECT min(rowid) FROM runs)")
    r = job_results(tmp_path, "gap")
    assert (r["runs"], r["passed"], r["missing_records"], r["pass_at_1"]) == (2, 1, 1, 0.5)


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [(5, 0, 1, 0.0), (5, 5, 3, 1.0), (4, 1, 1, 0.25), (4, 1, 2, 0.5), (10, 3, 5, 1 - 21 / 252)],
)
def test_unbiased_pass_at_k(n: int, c: int, k: int, expected: float) -> None:
    assert abs(pass_at_k(n, c, k) - expected) < 1e-12


class VendoringAgent:
    """Solves the task with a forbidden package, vendors an old numpy, and peeks at private files."""

    name = "vendoring"

    def solve(self, ctx: Context) -> Outcome:
        sol = ctx.workspace.solution
        # numpy is unimportable in the grading sandbox; the source scan still names the attempt
        (sol / "run").write_text(
            "#!/usr/bin/env python3\nimport json, sys\ntry:\n    import numpy\nexcept ImportError:\n"
            "    pass\ns = json.load(sys.stdin)\n"
            "print(json.dumps({'y': 2 * s['a'] + s['b'], 'z': [s['a'], s['b']]}))\n"
        )
        (sol / "run").chmod(0o755)
        (sol / "lib" / "numpy-1.0.0.dist-info").mkdir(parents=True)
        trajectory = {
            "steps": [
                {
                    "step_id": 1,
                    "tool_calls": [
                        {
                            "tool_call_id": "1",
                            "function_name": "bash",
                            "arguments": {"command": "cat ../private/hidden/0/output.json"},
                        }
                    ],
                }
            ]
        }
        return Outcome(trajectory=trajectory)


def test_forbidden_packages_downgrades_and_hidden_paths_are_recorded(
    linear_release: Path, tmp_path: Path, monkeypatch
) -> None:
    import shutil
    import tomllib

    import tomli_w

    rel = tmp_path / "rel"
    shutil.copytree(linear_release, rel)
    toml = rel / "tasks" / "good-linear-v1" / "task.toml"
    meta = tomllib.loads(toml.read_text())
    meta["anticheat"] = {"forbidden_packages": ["numpy"]}
    toml.write_text(tomli_w.dumps(meta))
    monkeypatch.setitem(agents_mod.AGENTS, "vendoring", lambda opts: VendoringAgent())
    recs = run_job(JobConfig(release=rel, agent="vendoring", jobs_dir=tmp_path / "jobs", include=("*-v1",)))
    assert [(r.passed, r.label) for r in recs] == [(False, "anti_cheat")] and recs[0].verdict.passed
    kinds = {c["kind"]: c for c in recs[0].cheats}
    assert kinds["forbidden_package"]["path"] == "solution/run"
    assert kinds["dependency_downgrade"]["package"] == "numpy"
    assert kinds["hidden_path_attempt"]["marker"] == "private/hidden"
    recorded = run_job(
        JobConfig(release=rel, agent="vendoring", jobs_dir=tmp_path / "jobs2", include=("*-v1",), cheat_policy="record")
    )
    assert recorded[0].passed and recorded[0].cheats  # recorded, but the policy lets it pass


def test_a_python_variable_named_like_a_forbidden_package_is_not_a_use() -> None:
    """plm-bom forbids the `bom` package and its oracle names a variable `bom`: the shell pattern (a command line
    naming the package) once flagged `bom = ...` in Python, failing the oracle as anti_cheat. An import in Python,
    and the command in a shell script or a `run` without a Python #! line, are still uses."""
    from swr.harness.anticheat import forbidden_uses

    files = {
        "solution/plm.py": b"def f(x):\n    bom = x\n    return bom\n",
        "solution/run": b"#!/usr/bin/env python3\nbom = 1\n",
        "solution/uses.py": b"import bom\n",
        "solution/explode.sh": b"set -e\nbom --explode x\n",
        "solution/run2": b"#!/bin/sh\nexec bom x\n",
    }
    got = {f["path"] for f in forbidden_uses(files, ["bom"]) if f["kind"] == "forbidden_package"}
    assert got == {"solution/uses.py", "solution/explode.sh", "solution/run2"}
