"""Podman only: what has no bubblewrap counterpart. Every hostile candidate runs on podman too, in
tests/test_sandbox_hostile.py (parametrized over backends).

No mocks and no skips: the CI installs podman (`make sysdeps`: apt-get install podman runc); where
podman is missing or cannot start a container, every test here fails saying so.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import INSTALL, assert_nothing_left, sandbox_named

from swr.sandbox import WORKDIR, Job, Limits, Mount, Sandbox, get_sandbox, run


@pytest.fixture
def podman() -> Iterator[Sandbox]:
    """The podman backend; afterwards its runs left no container or per-run cgroup behind."""
    sb = sandbox_named("podman")
    yield sb
    assert_nothing_left(sb)


def test_podman_command_line_carries_the_design_flags(podman, tmp_path):
    argv = podman.argv(Job([sys.executable, "-c", "pass"], Mount(tmp_path, WORKDIR, "overlay")))
    line = " ".join(argv)
    for flag in ("--network none", "--read-only", "--pids-limit 256", "--memory", "--cap-drop ALL",
                 "--security-opt no-new-privileges", "--user 65534", "--rm", "--ulimit nofile=1024:1024"):
        assert flag in line, flag
    assert "65534:0:" not in line, line  # the sandbox user (65534) is never mapped to host root
    vols = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-v", "--volume")]
    (work,) = [v for v in vols if v.split(":")[1] == WORKDIR]
    src, opts = work.split(":")[0], work.split(":")[2:]
    # the candidate's own directory is never bound writable: a copy-on-write volume, or a private copy
    assert opts == ["O"] or (not Path(src).is_relative_to(tmp_path) and opts == []), work
    assert not [v for v in vols if v.startswith(f"{tmp_path}:") and v.split(":")[2:] not in (["O"], ["ro"])], vols


def test_podman_overhead_against_bwrap(podman, tmp_path):
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
    assert res.returncode == 0, f"podman missing: CI must run `{INSTALL['podman']}`"
