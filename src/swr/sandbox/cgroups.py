"""Per-run cgroups for pids and memory: RLIMIT_NPROC does not bind for root, a pids cgroup does."""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

CGROOT = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class Layout:
    """Where this process may create child cgroups: v1 (one dir per controller) or v2 (one dir)."""

    version: int
    pids: Path
    memory: Path


def _own_v1_path(controller: str) -> str:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path.lstrip("/")
    return ""


def _make_parent(path: Path) -> Path | None:
    try:
        path.mkdir(exist_ok=True)
        probe = path / f"probe-{os.getpid()}"
        probe.mkdir()
        probe.rmdir()
    except OSError:
        return None
    _sweep(path)
    return path


def _sweep(parent: Path) -> None:
    """Remove run cgroups left by a killed swr process (empty ones only; busy ones stay)."""
    for d in parent.glob("run-*"):
        pid = d.name.split("-")[1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            try:
                d.rmdir()
            except OSError:
                pass


_LAYOUT_LOCK = threading.Lock()


def layout() -> Layout | None:
    """Find a writable place for per-run cgroups, or None (then rlimits are the fallback). Once per process:
    threads that asked at the same moment probed the same directory, and one of them got None (no limits)."""
    with _LAYOUT_LOCK:
        return _layout()


@lru_cache(maxsize=1)
def _layout() -> Layout | None:
    if (CGROOT / "pids" / "cgroup.procs").exists() and (CGROOT / "memory" / "cgroup.procs").exists():
        pids = _make_parent(CGROOT / "pids" / _own_v1_path("pids") / "swr")
        mem = _make_parent(CGROOT / "memory" / _own_v1_path("memory") / "swr")
        if pids and mem:
            return Layout(1, pids, mem)
    if (CGROOT / "cgroup.controllers").exists():
        try:
            (CGROOT / "cgroup.subtree_control").write_text("+pids +memory")
        except OSError:
            return None
        parent = _make_parent(CGROOT / "swr")
        if parent:
            try:
                (parent / "cgroup.subtree_control").write_text("+pids +memory")
            except OSError:
                return None
            return Layout(2, parent, parent)
    return None


class RunCgroup:
    """One run's cgroup(s): created with limits, joined by the launcher, swept and removed after."""

    def __init__(self, lay: Layout, pids_max: int, memory_bytes: int):
        self.lay = lay
        name = f"run-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.dirs = sorted({lay.pids / name, lay.memory / name})
        for d in self.dirs:
            d.mkdir()
        if lay.version == 1:
            (lay.pids / name / "pids.max").write_text(str(pids_max))
            mem = lay.memory / name
            (mem / "memory.limit_in_bytes").write_text(str(memory_bytes))
            try:
                (mem / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
            except OSError:
                pass  # no swap accounting: nothing to cap
        else:
            d = lay.pids / name
            (d / "pids.max").write_text(str(pids_max))
            (d / "memory.max").write_text(str(memory_bytes))
            (d / "memory.swap.max").write_text("0") if (d / "memory.swap.max").exists() else None
        self.name = name

    def set_limits(self, pids_max: int, memory_bytes: int) -> None:
        """Re-limit a cgroup made ahead of its job (the launcher pool); memsw must stay >= the limit."""
        if self.lay.version == 1:
            (self.lay.pids / self.name / "pids.max").write_text(str(pids_max))
            mem = self.lay.memory / self.name
            files = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
            if memory_bytes > int((mem / files[0]).read_text()):
                files.reverse()
            for f in files:
                try:
                    (mem / f).write_text(str(memory_bytes))
                except OSError:  # memsw: no swap accounting, nothing to cap (as in __init__)
                    if "memsw" not in f:
                        raise
        else:
            d = self.lay.pids / self.name
            (d / "pids.max").write_text(str(pids_max))
            (d / "memory.max").write_text(str(memory_bytes))

    def signal_all(self) -> None:
        """One SIGKILL to every process in the run's cgroups, without waiting for them to go."""
        for d in self.dirs:
            try:
                pids = [int(p) for p in (d / "cgroup.procs").read_text().split()]
            except OSError:
                continue
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    @property
    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs]

    def _read_counter(self, path: Path, key: str) -> int:
        try:
            for line in path.read_text().splitlines():
                k, _, v = line.partition(" ")
                if k == key:
                    return int(v)
        except OSError:
            pass
        return 0

    def breach(self) -> str | None:
        """Memory if the OOM killer fired inside, pids if a fork was refused."""
        if self.lay.version == 1:
            oom = self._read_counter(self.lay.memory / self.name / "memory.oom_control", "oom_kill")
        else:
            oom = self._read_counter(self.lay.memory / self.name / "memory.events", "oom_kill")
        if oom:
            return "memory"
        if self._read_counter(self.lay.pids / self.name / "pids.events", "max"):
            return "pids"
        return None

    def kill_all(self) -> None:
        """SIGKILL every process still in the run's cgroups, until they are empty."""
        deadline = time.monotonic() + 5.0
        for d in self.dirs:
            while time.monotonic() < deadline:
                try:
                    pids = [int(p) for p in (d / "cgroup.procs").read_text().split()]
                except OSError:
                    break
                if not pids:
                    break
                for pid in pids:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                time.sleep(0.002)

    def remove(self) -> None:
        self.kill_all()
        for d in self.dirs:
            for _ in range(200):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.005)  # exiting tasks still attached for a moment
