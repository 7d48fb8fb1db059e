"""The suite's shared releases, built in the background from the moment the tests are collected.

Why: the engines, revivals and catalog releases take minutes each to build, and most tests need none of them.
Built on demand, the first test needing one waited for its whole build while the second core idled. Started at
collection (by whichever pytest process gets there first: the only one, or one of pytest-xdist's workers), the
builds run beside the tests that need no release, and the fixtures only wait for what is not done yet.

Each release is built once per session with the CLI a user types, into a directory every xdist worker of the
session shares; a marker file created with O_EXCL decides which process starts a build, and `rc` (written last)
says it finished. The builds are killed when the process that started them exits, so an interrupted session
leaves none running.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SWR = str(Path(sys.executable).with_name("swr"))


@dataclass(frozen=True)
class Prebuild:
    """One shared release: the `swr build` arguments that build it into `rel/` of its directory (relative `--out`, as a
    newcomer types it; `{dir}` stands for that directory), environment variables of that build, and what to lay
    out in the directory first."""

    args: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    prepare: Callable[[Path], None] | None = None


_started: list[subprocess.Popen[bytes]] = []


def shared_root(config: pytest.Config) -> Path:
    """The session's directory shared by every xdist worker (a worker's basetemp is `<session basetemp>/popen-gwN`)."""
    base = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
    return base.parent if hasattr(config, "workerinput") else base


def start(name: str, build: Prebuild, config: pytest.Config) -> Path:
    """Start the build of `name` unless some process of this session already did; its directory."""
    d = shared_root(config) / f"prebuilt-{name}"
    d.mkdir(exist_ok=True)
    try:
        fd = os.open(d / "started", os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return d
    _launch(d, build, fd)
    return d


def _launch(d: Path, build: Prebuild, marker: int) -> None:
    """Run the build in `d` in its own session; its pid goes into the marker (fd), so that a waiting process can
    tell a build whose starter died (an xdist worker that finished its files first kills what it started)."""
    shutil.rmtree(d / "rel", ignore_errors=True)  # a killed build's leftovers: this session's own directory
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update({k: v.replace("{dir}", str(d)) for k, v in build.env})
    if build.prepare:
        build.prepare(d)
    log = open(d / "log", "wb")  # noqa: SIM115 - the child writes it; closed when this process exits
    cmd = '"$0" "$@"; echo $? > rc.tmp && mv rc.tmp rc'
    p = subprocess.Popen(
        ["sh", "-c", cmd, SWR, "build", *(a.replace("{dir}", str(d)) for a in build.args)],
        cwd=d,
        env=env,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    _started.append(p)
    os.write(marker, str(p.pid).encode())
    os.close(marker)


def _take_over_if_orphaned(d: Path, build: Prebuild) -> None:
    """Restart the build when its process is gone without writing `rc` (the process that started it exited)."""
    try:
        pid = int((d / "started").read_text() or "0")
    except (FileNotFoundError, ValueError):
        return  # being (re)started right now
    if not pid:
        return
    try:
        os.kill(pid, 0)
        return  # still building
    except ProcessLookupError:
        pass
    if (d / "rc").is_file():
        return
    try:
        os.rename(d / "started", d / f"died-{pid}")  # atomic: one waiting process takes over
    except FileNotFoundError:
        return
    _launch(d, build, os.open(d / "started", os.O_WRONLY | os.O_CREAT | os.O_EXCL))


def wait(name: str, build: Prebuild, config: pytest.Config, timeout: float = 3600) -> Path:
    """The built release of `name` (started now if collection did not): fails the test if its build failed."""
    d = start(name, build, config)
    deadline = time.monotonic() + timeout
    while not (d / "rc").is_file():
        assert time.monotonic() < deadline, f"the {name} release was not built within {timeout:.0f} s"
        _take_over_if_orphaned(d, build)
        time.sleep(1)
    rc = (d / "rc").read_text().strip()
    log = (d / "log").read_text(errors="replace")
    assert rc == "0", f"building the {name} release failed (exit {rc}):\n{log[-4000:]}"
    return d / "rel"


@atexit.register
def _stop() -> None:
    """Kill the builds this process started that are still running (an interrupted session)."""
    for p in _started:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
