"""Per-run parent cgroups for rootful podman with the cgroupfs manager (`--cgroup-parent`): they bind
pids and memory exactly, tell afterwards which limit was hit, and reach every process of the container
for a kill; the container's own cgroup is removed with the container, so its counters are gone when
the run ends."""

from __future__ import annotations

import os
import signal
import time
import uuid
from functools import lru_cache
from pathlib import Path

CGROOT = Path("/sys/fs/cgroup")
CG_PARENT = "swr-podman"


@lru_cache(maxsize=1)
def cgroup_version() -> int | None:
    """1 or 2 when this process may make per-run parent cgroups at the hierarchy roots, else None."""
    if os.geteuid() != 0:
        return None
    try:
        if (CGROOT / "pids" / "cgroup.procs").exists() and (CGROOT / "memory" / "cgroup.procs").exists():
            for c in ("pids", "memory"):
                (CGROOT / c / CG_PARENT).mkdir(exist_ok=True)
            _sweep_cgroups(1)
            return 1
        if (CGROOT / "cgroup.controllers").exists():
            (CGROOT / "cgroup.subtree_control").write_text("+pids +memory")
            (CGROOT / CG_PARENT).mkdir(exist_ok=True)
            (CGROOT / CG_PARENT / "cgroup.subtree_control").write_text("+pids +memory")
            _sweep_cgroups(2)
            return 2
    except OSError:
        return None
    return None


def _hierarchies(version: int) -> list[Path]:
    """Every hierarchy podman's cgroupfs manager makes the parent in (v1: one per controller)."""
    if version == 2:
        return [CGROOT]
    return [p for p in CGROOT.iterdir() if (p / "cgroup.procs").exists() and not p.is_symlink()]


def _rmtree_cgroup(d: Path, tries: int = 200) -> bool:
    """Remove a cgroup directory and its children, bottom up; False if some stayed busy."""
    if not d.is_dir():
        return True
    for child in d.iterdir():
        if child.is_dir():
            _rmtree_cgroup(child, tries)
    for _ in range(tries):
        try:
            d.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            time.sleep(0.005)
    return False


def _sweep_cgroups(version: int) -> None:
    for h in _hierarchies(version):
        for d in (h / CG_PARENT).glob("run-*"):
            pid = d.name.split("-")[1]
            if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                _rmtree_cgroup(d, tries=1)


class RunParent:
    """`--cgroup-parent` of one run: binds pids and memory exactly; knows afterwards which was hit.

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
            (self.pids / "pids.max").write_text(str(pids_max))
            (self.mem / "memory.limit_in_bytes").write_text(str(memory_bytes))
            try:
                (self.mem / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
            except OSError:
                pass  # no swap accounting: nothing to cap
            self.efd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
            ofd = os.open(self.mem / "memory.oom_control", os.O_RDONLY | os.O_CLOEXEC)
            try:
                (self.mem / "cgroup.event_control").write_text(f"{self.efd} {ofd}")
            finally:
                os.close(ofd)
        else:
            self.pids = self.mem = CGROOT / self.rel
            self.pids.mkdir()
            (self.pids / "pids.max").write_text(str(pids_max))
            (self.mem / "memory.max").write_text(str(memory_bytes))
            if (self.mem / "memory.swap.max").exists():
                (self.mem / "memory.swap.max").write_text("0")

    @property
    def podman_parent(self) -> str:
        return "/" + self.rel

    def pids_all(self) -> list[int]:
        out: list[int] = []
        for d, _, _ in os.walk(self.pids):
            try:
                out += [int(p) for p in Path(d, "cgroup.procs").read_text().split()]
            except OSError:
                pass
        return out

    def signal_all(self) -> int:
        pids = self.pids_all()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
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
        events = _counters(self.mem / "memory.events")
        if events.get("oom_kill") or events.get("oom"):
            return "memory"
        if _counters(self.pids / "pids.events").get("max"):
            return "pids"
        return None

    def remove(self) -> None:
        if self.efd is not None:
            os.close(self.efd)
            self.efd = None
        for h in _hierarchies(self.version):
            d = h / self.rel
            for _ in range(3):
                if _rmtree_cgroup(d):
                    break
                self.signal_all()


def _counters(path: Path) -> dict[str, int]:
    try:
        return {k: int(v) for k, _, v in (ln.partition(" ") for ln in path.read_text().splitlines())}
    except (OSError, ValueError):
        return {}
