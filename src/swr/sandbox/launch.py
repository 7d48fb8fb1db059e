"""Starting bwrap inside per-run cgroups: launchers prepared ahead of time, or joined on the way."""

from __future__ import annotations

import atexit
import os
import queue
import resource
import shutil
import subprocess
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from swr.core.errors import SandboxUnavailable
from swr.sandbox import cgroups
from swr.sandbox.base import Handle, Limits, popen


class BwrapHandle(Handle):
    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        limits: Limits,
        cg: cgroups.RunCgroup | None,
        args_fds: list[int] | None = None,
        reaper: ThreadPoolExecutor | None = None,
    ):
        super().__init__(proc, limits)
        self.cg = cg
        self.args_fds = args_fds or []
        self.reaper = reaper

    def kill(self) -> None:
        super().kill()
        if self.cg:
            self.cg.kill_all()

    def breach(self) -> str | None:
        return self.cg.breach() if self.cg else None

    def close(self) -> None:
        """Kill the tree and reap bwrap; waiting for the last of the pid namespace to vanish (its init,
        reparented to the host's init, is often still exiting) and removing the cgroups happen off the
        caller's path. Every process left gets SIGKILL here, and none can fork any more."""
        Handle.kill(self)
        if self.cg:
            self.cg.signal_all()
        self.proc.wait()
        self.close_pipes()
        for fd in self.args_fds:
            os.close(fd)
        self.args_fds = []
        if self.cg:
            cg, self.cg = self.cg, None
            _in_background(self.reaper, cg.remove)


def _in_background(executor: ThreadPoolExecutor | None, fn: Callable[[], object]) -> None:
    try:
        if executor is not None:
            executor.submit(fn)
            return
    except RuntimeError:  # interpreter shutting down
        pass
    fn()


LAUNCHERS_READY = 2  # launchers kept waiting: one per concurrent run at grade's default of 2 jobs
_LAUNCH = 'IFS= read -r cmd || exit 125; eval "exec $cmd"'  # dash reads a pipe byte by byte: stdin stays the job's


class _Launcher:
    """A /bin/sh already inside a fresh run's cgroups, waiting on stdin for the line that execs bwrap.

    Joining a cgroup v1 waits for an RCU grace period (~10 ms); made ahead of time, the launcher takes
    that and its own fork/exec off the run's path."""

    def __init__(self, lay: cgroups.Layout):
        default = Limits()
        self.cg = cgroups.RunCgroup(lay, default.pids, default.memory_bytes)
        try:
            self.proc = popen(
                ["/bin/sh", "-c", f"{self.cg.join_command()} || exit 125; {_LAUNCH}", "swr-launch"],
                {"PATH": "/usr/bin:/bin"},
                cwd="/",
            )
        except OSError:
            self.cg.remove()
            raise

    def discard(self) -> None:
        """An unused launcher: EOF on its stdin makes it exit; then its cgroups go."""
        h = BwrapHandle(self.proc, Limits(), self.cg)
        h.close_pipes()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        h.close()


class LauncherPool:
    """Launchers made by the sandbox's one spawner thread, `ready` of them kept waiting."""

    def __init__(self, lay: cgroups.Layout, spawner: ThreadPoolExecutor, ready: int):
        self.lay, self.spawner, self.pid = lay, spawner, os.getpid()
        self.queue: queue.SimpleQueue[_Launcher | BaseException] = queue.SimpleQueue()
        for _ in range(ready):
            self._order()
        atexit.register(self.close)

    def _order(self) -> None:
        self.spawner.submit(self._make)

    def _make(self) -> None:
        try:
            self.queue.put(_Launcher(self.lay))
        except BaseException as e:  # noqa: BLE001 - handed to the run that waits for it
            self.queue.put(e)

    def take(self) -> _Launcher:
        """A ready launcher; the caller orders its replacement with `replace()` once its run has started
        (a launcher joining its cgroup holds the kernel's cgroup mutex for a grace period, and would
        delay the caller's own writes to cgroupfs)."""
        while True:
            try:
                item = self.queue.get(timeout=60)
            except queue.Empty:
                raise SandboxUnavailable("no bubblewrap launcher became ready within 60 s") from None
            if isinstance(item, BaseException):
                raise SandboxUnavailable(f"cannot start the bubblewrap launcher: {item}")
            if item.proc.poll() is None:
                return item
            item.discard()  # died while waiting (killed from outside): take the next one
            self._order()

    def replace(self) -> None:
        self._order()

    def close(self) -> None:
        if os.getpid() != self.pid:
            return  # a forked child exiting: the launchers are its parent's
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, _Launcher):
                item.discard()


def limit_file_size(pid: int, lim: Limits) -> None:
    """RLIMIT_FSIZE of a launcher that has not yet exec'd bwrap: no file written inside grows past
    `disk_bytes` (sparse ones included), whatever the disk-use poll would see too late."""
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (lim.disk_bytes, lim.disk_bytes))


def direct_launcher(cg: cgroups.RunCgroup | None, lim: Limits) -> list[str]:
    """Join the run's cgroups before exec'ing bwrap, so every descendant is counted from birth."""
    prlimit = shutil.which("prlimit")
    fsize = [prlimit, f"--fsize={lim.disk_bytes}", "--"] if prlimit else []
    if cg:
        return ["/bin/sh", "-c", f'{cg.join_command()} || exit 125; exec "$@"', "swr-launch", *fsize]
    if os.geteuid() == 0:
        warnings.warn("no writable cgroup: process and memory limits are not enforced for root", stacklevel=3)
    if prlimit:
        return [prlimit, f"--nproc={lim.pids}", f"--as={lim.memory_bytes}", f"--fsize={lim.disk_bytes}", "--"]
    return []
