"""Every cgroup operation swr makes: RLIMIT_NPROC does not bind for root, a pids cgroup does. Two placements
share one set of operations (detect v1/v2, write limits, read counters, list, kill, remove, sweep):
bwrap's per-run cgroups (`RunCgroup`, under this process's own cgroup, joined by the launcher) and rootful
podman's per-run parent cgroups (`RunParent`, `--cgroup-parent` at the hierarchy roots with the cgroupfs
manager)."""

from __future__ import annotations

import os
import shlex
import signal
import threading
import time
import uuid
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

CGROOT = Path("/sys/fs/cgroup")
CG_PARENT = "swr-podman"


@dataclass(frozen=True)
class Layout:
    """Where this process may create child cgroups: v1 (one dir per controller) or v2 (one dir)."""

    version: int
    pids: Path
    memory: Path


def _has_v1() -> bool:
    return (CGROOT / "pids" / "cgroup.procs").exists() and (CGROOT / "memory" / "cgroup.procs").exists()


def _has_v2() -> bool:
    return (CGROOT / "cgroup.controllers").exists()


def _enable_controllers(d: Path) -> None:
    """v2: let d's children have pids and memory limits (raises OSError where this process may not)."""
    (d / "cgroup.subtree_control").write_text("+pids +memory")


def write_limits(version: int, pids: Path, mem: Path, pids_max: int, memory_bytes: int) -> None:
    """The limits of a fresh cgroup (pids and mem are the same directory on v2); swap is capped too, where
    the kernel accounts it."""
    (pids / "pids.max").write_text(str(pids_max))
    if version == 1:
        (mem / "memory.limit_in_bytes").write_text(str(memory_bytes))
        try:
            (mem / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
        except OSError:
            pass  # no swap accounting: nothing to cap
    else:
        (mem / "memory.max").write_text(str(memory_bytes))
        if (mem / "memory.swap.max").exists():
            (mem / "memory.swap.max").write_text("0")


def relimit(version: int, pids: Path, mem: Path, pids_max: int, memory_bytes: int) -> None:
    """New limits for a cgroup in use; on v1 memsw must stay >= the memory limit, so the order of the two
    writes follows the direction of the change."""
    (pids / "pids.max").write_text(str(pids_max))
    if version == 1:
        files = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
        if memory_bytes > int((mem / files[0]).read_text()):
            files.reverse()
        for f in files:
            try:
                (mem / f).write_text(str(memory_bytes))
            except OSError:  # memsw: no swap accounting, nothing to cap (as in write_limits)
                if "memsw" not in f:
                    raise
    else:
        (mem / "memory.max").write_text(str(memory_bytes))


def procs(d: Path, recursive: bool = False) -> list[int] | None:
    """The processes in cgroup d (and its children if recursive); None if d cannot be read (gone)."""
    out: list[int] = []
    for sub in [d] if not recursive else [Path(p) for p, _, _ in os.walk(d)]:
        try:
            out += [int(p) for p in (sub / "cgroup.procs").read_text().split()]
        except OSError:
            if not recursive:
                return None
    return out


def kill(pids: list[int]) -> None:
    """SIGKILL each, without waiting for them to go."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def counters(path: Path) -> dict[str, int]:
    """A flat keyed file (memory.events, pids.events, memory.oom_control) as a dict; {} if unreadable."""
    try:
        return {k: int(v) for k, _, v in (ln.partition(" ") for ln in path.read_text().splitlines())}
    except (OSError, ValueError):
        return {}


def remove_tree(d: Path, tries: int = 200) -> bool:
    """Remove a cgroup directory and its children, bottom up; False if some stayed busy (exiting tasks stay
    attached for a moment: each rmdir is retried every 5 ms, `tries` times)."""
    if not d.is_dir():
        return True
    for child in d.iterdir():
        if child.is_dir():
            remove_tree(child, tries)
    for _ in range(tries):
        try:
            d.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            time.sleep(0.005)
    return False


def sweep(parent: Path) -> None:
    """Remove run cgroups (`run-<pid>-...`) left by a killed swr process (free ones only; busy ones stay)."""
    for d in parent.glob("run-*"):
        pid = d.name.split("-")[1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            remove_tree(d, tries=1)


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
    sweep(path)
    return path


_LAYOUT_LOCK = threading.Lock()


def layout() -> Layout | None:
    """Find a writable place for per-run cgroups, or None (then rlimits are the fallback). Once per process:
    threads that asked at the same moment probed the same directory, and one of them got None (no limits)."""
    with _LAYOUT_LOCK:
        return _layout()


@lru_cache(maxsize=1)
def _layout() -> Layout | None:
    if _has_v1():
        pids = _make_parent(CGROOT / "pids" / _own_v1_path("pids") / "swr")
        mem = _make_parent(CGROOT / "memory" / _own_v1_path("memory") / "swr")
        if pids and mem:
            return Layout(1, pids, mem)
    if _has_v2():
        try:
            _enable_controllers(CGROOT)
        except OSError:
            return None
        parent = _make_parent(CGROOT / "swr")
        if parent:
            try:
                _enable_controllers(parent)
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
        write_limits(lay.version, lay.pids / name, lay.memory / name, pids_max, memory_bytes)
        self.name = name

    def set_limits(self, pids_max: int, memory_bytes: int) -> None:
        """Re-limit a cgroup made ahead of its job (the launcher pool), or a fork server's."""
        relimit(self.lay.version, self.lay.pids / self.name, self.lay.memory / self.name, pids_max, memory_bytes)

    def signal_all(self) -> None:
        """One SIGKILL to every process in the run's cgroups, without waiting for them to go."""
        for d in self.dirs:
            kill(procs(d) or [])

    @property
    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs]

    def join_command(self) -> str:
        """Shell that moves the shell itself into the run's cgroups, before it execs anything (so every
        descendant is counted from birth)."""
        return " && ".join(f"echo 0 > {shlex.quote(p)}" for p in self.procs_files)

    def breach(self) -> str | None:
        """Memory if the OOM killer fired inside, pids if a fork was refused."""
        if self.lay.version == 1:
            oom = counters(self.lay.memory / self.name / "memory.oom_control").get("oom_kill")
        else:
            oom = counters(self.lay.memory / self.name / "memory.events").get("oom_kill")
        if oom:
            return "memory"
        if counters(self.lay.pids / self.name / "pids.events").get("max"):
            return "pids"
        return None

    def kill_all(self) -> None:
        """SIGKILL every process still in the run's cgroups, until they are empty."""
        deadline = time.monotonic() + 5.0
        for d in self.dirs:
            while time.monotonic() < deadline:
                pids = procs(d)
                if not pids:
                    break
                kill(pids)
                time.sleep(0.002)

    def remove(self) -> None:
        self.kill_all()
        for d in self.dirs:
            remove_tree(d)


@lru_cache(maxsize=1)
def cgroup_version() -> int | None:
    """1 or 2 when this process may make podman's per-run parent cgroups at the hierarchy roots, else None."""
    if os.geteuid() != 0:
        return None
    try:
        if _has_v1():
            for c in ("pids", "memory"):
                (CGROOT / c / CG_PARENT).mkdir(exist_ok=True)
            _sweep_parents(1)
            return 1
        if _has_v2():
            _enable_controllers(CGROOT)
            (CGROOT / CG_PARENT).mkdir(exist_ok=True)
            _enable_controllers(CGROOT / CG_PARENT)
            _sweep_parents(2)
            return 2
    except OSError:
        return None
    return None


def _hierarchies(version: int) -> list[Path]:
    """Every hierarchy podman's cgroupfs manager makes the parent in (v1: one per controller)."""
    if version == 2:
        return [CGROOT]
    return [p for p in CGROOT.iterdir() if (p / "cgroup.procs").exists() and not p.is_symlink()]


def _sweep_parents(version: int) -> None:
    for h in _hierarchies(version):
        sweep(h / CG_PARENT)


class RunParent:
    """`--cgroup-parent` of one podman run: binds pids and memory exactly; knows afterwards which was hit.

    cgroup v1 keeps a pids fork failure and an OOM kill in the counters of the container's own cgroup
    (gone with the container), so here: pids.peak (hierarchical) reaching the limit, and an eventfd
    registered on the parent's memory.oom_control, which fires when the parent (the binding limit) OOMs."""

    def __init__(self, version: int, pids_max: int, memory_bytes: int):
        self.version = version
        self.rel = f"{CG_PARENT}/run-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.pids_max = pids_max
        self.efd: int | None = None
        if version == 1:
            self.pids, self.mem = CGROOT / "pids" / self.rel, CGROOT / "memory" / self.rel
            self.pids.mkdir()
            self.mem.mkdir()
        else:
            self.pids = self.mem = CGROOT / self.rel
            self.pids.mkdir()
        write_limits(version, self.pids, self.mem, pids_max, memory_bytes)
        if version == 1:
            self.efd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
            ofd = os.open(self.mem / "memory.oom_control", os.O_RDONLY | os.O_CLOEXEC)
            try:
                (self.mem / "cgroup.event_control").write_text(f"{self.efd} {ofd}")
            finally:
                os.close(ofd)

    def set_limits(self, pids_max: int, memory_bytes: int) -> None:
        """Re-limit the parent (a fork server's: its imports are its own, beside the child's budget). The
        container's own --memory sits MEMORY_SLACK above the limit it started with, and stays there."""
        relimit(self.version, self.pids, self.mem, pids_max, memory_bytes)
        self.pids_max = pids_max

    @property
    def podman_parent(self) -> str:
        return "/" + self.rel

    def pids_all(self) -> list[int]:
        """Every process under the parent: the container's own cgroup is a child of it."""
        return procs(self.pids, recursive=True) or []

    def signal_all(self) -> int:
        pids = self.pids_all()
        kill(pids)
        return len(pids)

    def breach(self) -> str | None:
        if self.version == 1:
            if self.efd is not None:
                try:
                    if int.from_bytes(os.read(self.efd, 8), "little"):
                        return "memory"
                except BlockingIOError:
                    pass
            try:
                if int((self.pids / "pids.peak").read_text()) >= self.pids_max:
                    return "pids"
            except (OSError, ValueError):
                pass
            return None
        events = counters(self.mem / "memory.events")
        if events.get("oom_kill") or events.get("oom"):
            return "memory"
        if counters(self.pids / "pids.events").get("max"):
            return "pids"
        return None

    def remove(self) -> None:
        if self.efd is not None:
            os.close(self.efd)
            self.efd = None
        for h in _hierarchies(self.version):
            d = h / self.rel
            for _ in range(3):
                if remove_tree(d):
                    break
                self.signal_all()
