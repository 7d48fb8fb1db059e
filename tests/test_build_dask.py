"""`swr build --executor dask`: a release built on Dask workers is byte-identical to the local build, also when
a worker is killed mid-build; a scheduler that cannot be reached is one line and exit 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import CATALOG, FIXTURES, SWR

from swr.assemble import BuildOptions, build
from swr.core.errors import SwrError
from swr.kinds.workflow.cache import ExecutionCache

# Three light catalog workflows (warm `entry` workers) and two fixtures: a `command` one with artifact files,
# and one that every draw fails, so a left-out workflow's reason must come back from a worker unchanged too.
SLICE = [
    CATALOG / "earth-space-sciences/geographiclib/geodesic-line",
    CATALOG / "software-formal-systems/lark/lalr-calc",
    CATALOG / "software-formal-systems/sqlglot/sql-transpile",
    FIXTURES / "good-artifacts",
    FIXTURES / "crashes",
]
BUILT = {"geodesic-line", "lalr-calc", "sql-transpile", "box-artifacts"}


def files_of(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def opts(cache: Path, **kw: Any) -> BuildOptions:
    return BuildOptions(variants=2, jobs=2, cache=ExecutionCache(cache), **kw)


def check_results(results: list[Any]) -> None:
    assert [r.spec.directory for r in results] == SLICE  # in the order given, whichever worker finished first
    assert {r.spec.name for r in results if not r.failure} == BUILT
    assert all(len(r.tasks) == 2 for r in results if not r.failure)


@pytest.fixture(scope="module")
def local_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("local")
    check_results(build(SLICE, base / "release", opts(base / "cache")))
    return base / "release"


def test_a_dask_build_is_byte_identical_to_the_local_build(local_release: Path, tmp_path: Path) -> None:
    """The default local cluster (2 workers, TLS), from a cold cache of its own: every file, release.json too."""
    results = build(SLICE, tmp_path / "release", opts(tmp_path / "cache", executor="dask"))
    check_results(results)
    assert files_of(tmp_path / "release") == files_of(local_release)
    assert any((tmp_path / "cache" / "executions").iterdir())  # the workers ran them, into the cache given
    cov = json.loads((tmp_path / "release/tasks/geodesic-line-v1/private/coverage.json").read_text())
    assert cov["functions"] and cov["package"] == ["geographiclib"]  # coverage is among the identical files


def _executing(dask_worker: Any) -> tuple[int, list[str]]:
    """Runs on a worker: its pid and the keys it is executing right now."""
    return os.getpid(), [str(ts.key) for ts in dask_worker.state.executing]


def test_a_worker_killed_mid_build_loses_only_its_workflow(local_release: Path, tmp_path: Path) -> None:
    """A worker is SIGKILLed while it builds a workflow; Dask runs that workflow again on a live worker and the
    release is still byte-identical (the workers write nothing into it)."""
    from dask.distributed import Client, LocalCluster

    killed: list[str] = []
    stop = threading.Event()
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):

        def kill_one() -> None:
            while not stop.is_set() and not killed:
                for pid, keys in client.run(_executing).values():
                    if any(k.startswith("build_on_worker") for k in keys):
                        time.sleep(0.2)  # inside the workflow's build, not at its first line
                        os.kill(pid, signal.SIGKILL)
                        killed.append(keys[0])
                        return
                time.sleep(0.05)

        watcher = threading.Thread(target=kill_one)
        watcher.start()
        try:
            results = build(
                SLICE,
                tmp_path / "release",
                opts(tmp_path / "cache", executor="dask", scheduler=cluster.scheduler_address),
            )
        finally:
            stop.set()
            watcher.join()
        assert killed, "no worker was caught building a workflow"
        story = cluster.scheduler.story(killed[0])  # the killed workflow was handed out again, not lost
        assert sum(t.finish == "processing" for t in story) >= 2, story
    check_results(results)
    assert files_of(tmp_path / "release") == files_of(local_release)


def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path: Path) -> None:
    p = subprocess.run(
        [
            SWR,
            "build",
            str(FIXTURES / "good-linear"),
            "--out",
            str(tmp_path / "r"),
            "--executor",
            "dask",
            "--scheduler",
            "tcp://127.0.0.1:9",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "--scheduler" in lines[0] and "tcp://127.0.0.1:9" in lines[0], p.stderr
    assert not list(tmp_path.glob("r*"))  # neither a release nor its staging directory


@pytest.mark.parametrize(
    ("kw", "field", "words"),
    [
        ({"executor": "dask", "scheduler": "not a scheduler"}, "--scheduler", "missing port"),
        ({"executor": "dask", "scheduler": "tls://127.0.0.1:9"}, "--scheduler", "TLS settings"),
        ({"scheduler": "tcp://127.0.0.1:9"}, "--scheduler", "--executor dask"),
        ({"executor": "slurm"}, "--executor", "local or dask"),
    ],
)
def test_bad_executor_options_name_their_option(tmp_path: Path, kw: dict[str, str], field: str, words: str) -> None:
    with pytest.raises(SwrError) as e:
        build([FIXTURES / "good-linear"], tmp_path / "r", opts(tmp_path / "cache", **kw))
    assert e.value.field == field and words in e.value.message
    assert not list(tmp_path.glob("r*"))  # neither a release nor its staging directory


def test_a_worker_that_sees_other_files_leaves_the_workflow_out(tmp_path: Path) -> None:
    """The workers read the workflows at the client's paths: another tree there (no shared filesystem, a
    changed checkout), or none, is the workflow's failure, never a release built from other files."""
    from swr.kinds.workflow.distributed import Planned, Shared, build_on_worker

    shared = Shared(opts(tmp_path / "cache"), tmp_path / "cache", True)
    other = build_on_worker(shared, Planned(FIXTURES / "good-linear", "0" * 64))
    assert other.result is None and not other.files and "sees other files" in str(other.unreadable)
    missing = build_on_worker(shared, Planned(tmp_path / "nowhere", "0" * 64))
    assert missing.result is None and "same paths" in str(missing.unreadable)
    assert not (tmp_path / "cache").exists()  # nothing ran
