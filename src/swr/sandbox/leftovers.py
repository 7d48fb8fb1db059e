"""What a killed swr leaves on the host, and how it is cleaned up: on SIGTERM, SIGHUP or SIGINT at once,
and otherwise at the next start of any swr command.

Every scratch directory swr makes in the temp dir is named `swr-<kind>-<pid>-<random>`, and
every kernel-capped tmpfs it mounts is one of them or lies inside one (capped.py; a run's live directory
under the jobs dir is in capped's own registry). So the owner of a leftover is in its name: a directory
whose pid is no longer running is swept (its tmpfs detached first, so that removing it never reaches into
a mounted filesystem), and a process that is told to stop removes its own before it exits."""

from __future__ import annotations

import atexit
import os
import re
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from . import capped

OWNED = re.compile(r"^swr-[a-z]+-(\d+)-")  # swr-<kind>-<pid>-...
SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
_installed: list[bool] = []


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def _owned(pick: Callable[[int], bool]) -> list[Path]:
    """Entries of the temp dir named by an swr process whose pid `pick` accepts: real directories only,
    this user's (a link or another user's entry is never followed or removed)."""
    found = []
    try:
        entries = list(os.scandir(tempfile.gettempdir()))
    except OSError:
        return []
    for e in entries:
        m = OWNED.match(e.name)
        if m is None or not pick(int(m.group(1))):
            continue
        try:
            mine = e.is_dir(follow_symlinks=False) and (
                e.stat(follow_symlinks=False).st_uid == os.getuid() or os.getuid() == 0 and os.path.ismount(e.path)
            )
        except OSError:
            continue
        if mine:  # a capped dir still mounted shows its tmpfs, owned by the sandbox user
            found.append(Path(e.path))
    return found


def _remove(d: Path) -> None:
    """Detach any tmpfs on the directory or one level below it (capped dirs are made there), then remove it."""
    try:
        inner = [Path(e.path) for e in os.scandir(d) if e.is_dir(follow_symlinks=False)]
    except OSError:
        inner = []
    for p in (*inner, d):
        if os.path.ismount(p):
            capped.unmount(p)
    shutil.rmtree(d, ignore_errors=True)


def sweep() -> list[Path]:
    """Remove the scratch directories (and their mounts) of swr processes that are gone; what was removed."""
    dead = _owned(lambda pid: pid != os.getpid() and not _alive(pid))
    for d in dead:
        _remove(d)
    return dead


def remove_own() -> None:
    """This process's mounts and scratch directories, whatever still holds them."""
    capped.unmount_all()
    for d in _owned(lambda pid: pid == os.getpid()):
        _remove(d)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """Stop now and leave nothing: the exit handlers run, then our mounts (detached even while a sandbox still
    uses them) and scratch go. Sandboxes are not waited for: bwrap's die with us (--die-with-parent), and
    a podman container that outlived us is removed by the next start's container sweep."""
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_IGN)  # a second signal does not interrupt the cleanup
    try:
        os.write(2, f"swr: stopped by {signal.Signals(signum).name}; cleaning up\n".encode())
        atexit._run_exitfuncs()
    finally:
        remove_own()
        os._exit(128 + signum)


def install() -> None:
    """At the start of a command (main thread): sweep the leftovers of dead swr processes, and clean up
    after ourselves on SIGTERM, SIGHUP and SIGINT."""
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    _installed.append(True)
    sweep()
    for sig in SIGNALS:
        signal.signal(sig, _on_signal)
    atexit.register(remove_own)
