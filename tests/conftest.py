"""Shared fixtures: small releases built for real, through the bubblewrap sandbox."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from swr.build import BuildOptions, build
from swr.cache import ExecutionCache
from swr.release import load_task, task_dir
from swr.sandbox import Sandbox, get_sandbox

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "workflows"
CATALOG = ROOT / "catalog"
SWR = str(Path(sys.executable).with_name("swr"))


@pytest.fixture(scope="session")
def sandbox() -> Sandbox:
    return get_sandbox("bwrap")


@pytest.fixture(scope="session")
def linear_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two variants of the minimal `good-linear` workflow."""
    base = tmp_path_factory.mktemp("linear")
    opts = BuildOptions(variants=2, public=3, hidden=3, jobs=2, cache=ExecutionCache(base / "cache"))
    results = build([FIXTURES / "good-linear"], base / "release", opts)
    assert not results[0].failure, results[0].failure
    return base / "release"


@pytest.fixture(scope="session")
def catalog_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole shipped catalog, six variants each, from an empty cache."""
    base = tmp_path_factory.mktemp("catalog")
    results = build([CATALOG], base / "release", BuildOptions(jobs=2, cache=ExecutionCache(base / "cache")))
    failed = [r.failure for r in results if r.failure]
    assert not failed, failed
    return base / "release"


@pytest.fixture(scope="session")
def linear_task(linear_release: Path):
    return load_task(task_dir(linear_release, "good-linear-v1"))


def write_candidate(root: Path, script: str, shebang: str | None = None) -> Path:
    """A candidate directory whose `run` is the given Python script (run by swr's interpreter)."""
    root.mkdir(parents=True, exist_ok=True)
    run = root / "run"
    run.write_text(f"#!{shebang or sys.executable}\n{script}")
    run.chmod(0o755)
    return root


def swr(*args: str, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run the installed CLI as a user would."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return subprocess.run([SWR, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)


def host_processes_with(marker: str) -> list[int]:
    """Host pids whose argv or environment carries the marker (a candidate's leftovers)."""
    needle, found = marker.encode(), []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        for f in ("cmdline", "environ"):
            try:
                if needle in Path(f"/proc/{pid}/{f}").read_bytes():
                    found.append(int(pid))
                    break
            except OSError:
                pass
    return found


def assert_no_process_left(marker: str, grace_s: float = 1.0) -> None:
    deadline = time.monotonic() + grace_s
    while (left := host_processes_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"processes of the candidate survived grading: {left}"


def copy_tree(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
    return dst
