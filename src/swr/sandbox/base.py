"""The backend seam: limits, mounts, results, and the process plumbing every backend shares."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Protocol

from swr.sandbox import tree
from swr.sandbox.capped import BLOCK, SANDBOX_UID, capped_dir, hand_over

__all__ = ["BLOCK", "SANDBOX_UID", "hand_over"]  # re-exported: the backends' one place for them

GiB = 1 << 30
MiB = 1 << 20
STDERR_CAP = 1 * MiB
DISK_POLL_S = 0.2  # how often a run's writes to host directories are measured
WORKDIR = "/sandbox/work"
ARTIFACTS = "/sandbox/artifacts"
EGRESS = "/sandbox/egress.sock"  # a networked job's only way out: its egress proxy's socket


@dataclass(frozen=True)
class Limits:
    """Inspect-style limit names; defaults from the design."""

    time_s: float = 30.0
    memory_bytes: int = 2 * GiB
    pids: int = 256
    stdout_bytes: int = 16 * MiB
    tmp_bytes: int = 512 * MiB
    disk_bytes: int = 1 * GiB  # what a run may add to host directories (artifacts, read-write mounts); per file too


@dataclass(frozen=True)
class Mount:
    """A host path made visible inside the sandbox. `overlay` = writable copy-on-write view."""

    src: Path
    dst: str
    mode: str = "ro"  # ro | rw | overlay
    lower: tuple[Path, ...] = ()  # overlay only: read-only layers beneath src, lowest first


@dataclass
class RunResult:
    returncode: int | None
    stdout: bytes
    stderr: bytes
    limit: str | None = None  # timeout | memory | pids | output | None
    wall_s: float = 0.0
    artifacts: Path | None = None  # host directory holding the files it wrote to $SWR_ARTIFACTS

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and self.limit is None


@dataclass
class Job:
    """Everything a backend needs to start one sandboxed process."""

    argv: list[str]
    workdir: Mount
    limits: Limits = field(default_factory=Limits)
    artifacts: Path | None = None
    extra_mounts: tuple[Mount, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    hidden: tuple[str, ...] = ()  # forbidden packages (distribution names) made unimportable (hide.py)
    hidden_bins: tuple[str, ...] = ()  # forbidden programs: not on the sandbox's PATH
    # host paths covered like a forbidden package's: copies of a revived project's original found by their content
    hidden_paths: tuple[Path, ...] = ()
    egress: Path | None = None  # host path of an egress proxy's socket (egress.py), mounted at EGRESS
    # no address-space randomisation (bwrap starts under `setarch -R`, which the whole tree inherits; the other
    # backends ignore it): the reference's executions, as some programs' output follows heap addresses (CGAL's)
    fixed_addresses: bool = False


class Sandbox(Protocol):
    """A backend: start a job as a process tree it can account for and kill."""

    name: str

    def spawn(self, job: Job) -> Handle: ...


class Handle:
    """A running sandboxed process tree; backends subclass to add accounting and cleanup."""

    def __init__(self, proc: subprocess.Popen[bytes], limits: Limits):
        self.proc = proc
        self.limits = limits
        self.started = time.monotonic()

    def kill(self) -> None:
        """Kill the whole tree: the process group we started, and the backend's extras."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def breach(self) -> str | None:
        """Which resource limit the tree hit (memory, pids), if the backend can tell."""
        return None

    def writable(self) -> tuple[Path, ...]:
        """Host directories of the backend's own that the job writes to (private copies)."""
        return ()

    def close_pipes(self) -> None:
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if f is not None:
                try:
                    f.close()
                except OSError:  # BrokenPipeError: unflushed input for a process that is gone
                    pass

    def close(self) -> None:
        self.kill()
        self.proc.wait()
        self.close_pipes()


def run(sandbox: Sandbox, job: Job, stdin: bytes) -> RunResult:
    """Start a job, feed stdin, collect capped stdout/stderr, enforce the wall-time limit. As root, its
    $SWR_ARTIFACTS is a capped tmpfs, copied out safely once the run is over (not at all on a breach)."""
    if job.artifacts is None:
        return _run(sandbox, job, stdin)
    with (
        tempfile.TemporaryDirectory(prefix=f"swr-cap-{os.getpid()}-") as stage,
        capped_dir(Path(stage), job.limits.disk_bytes) as capped,
    ):
        if not capped:
            return _run(sandbox, job, stdin)
        res = _run(sandbox, replace(job, artifacts=Path(stage)), stdin)
        if res.limit != "disk":
            tree.export(Path(stage), Path(job.artifacts), tree.Bounds(bytes=job.limits.disk_bytes), strict=False)
        return res


def _run(sandbox: Sandbox, job: Job, stdin: bytes) -> RunResult:
    watch = host_writable(job)
    before = disk_used(watch)
    h = sandbox.spawn(job)
    try:
        extra = h.writable()  # the backend's private copies, measured as they start
        disk = (watch + extra, before + disk_used(extra))
        out, err, limit = communicate(h, stdin, job.limits, disk)
        rc = h.proc.wait() if limit is None else None
        if limit is None:
            limit = h.breach()
        return RunResult(rc, out, err, limit, time.monotonic() - h.started)
    finally:
        h.close()


def host_writable(job: Job) -> tuple[Path, ...]:
    """The host directories a job writes to: what it adds there is bounded by `disk_bytes`."""
    rw = [Path(m.src) for m in (job.workdir, *job.extra_mounts) if m.mode == "rw"]
    return tuple(([Path(job.artifacts)] if job.artifacts else []) + rw)


def disk_used(dirs: tuple[Path, ...]) -> int:
    """Apparent bytes under dirs (sparse files count whole: a reader would read them), each entry at
    least a block, so a flood of empty files is bounded too."""
    total = 0
    stack = [str(d) for d in dirs]
    while stack:
        try:
            with os.scandir(stack.pop()) as it:
                for e in it:
                    if e.is_dir(follow_symlinks=False):
                        stack.append(e.path)
                        total += BLOCK
                    else:
                        total += max(BLOCK, e.stat(follow_symlinks=False).st_size)
        except OSError:
            continue
    return total


def communicate(
    h: Handle, data: bytes, limits: Limits, disk: tuple[tuple[Path, ...], int] = ((), 0)
) -> tuple[bytes, bytes, str | None]:
    """Like Popen.communicate with a deadline, an stdout cap and a cap on what the job adds to the
    host directories in `disk` (dirs, bytes there at start); kills the tree on breach."""
    p = h.proc
    watch, before = disk
    next_poll = time.monotonic() + DISK_POLL_S
    deadline = h.started + limits.time_s
    out, err = bytearray(), bytearray()
    sel = selectors.DefaultSelector()
    if data and p.stdin:
        os.set_blocking(p.stdin.fileno(), False)
        sel.register(p.stdin, selectors.EVENT_WRITE)
    elif p.stdin:
        p.stdin.close()
    for f in (p.stdout, p.stderr):
        if f:
            sel.register(f, selectors.EVENT_READ)
    view, limit = memoryview(data), None
    try:
        while sel.get_map():
            now = time.monotonic()
            remaining = deadline - now
            if remaining <= 0:
                limit = "timeout"
                break
            if watch and now >= next_poll:
                if disk_used(watch) - before > limits.disk_bytes:
                    limit = "disk"
                    break
                next_poll = now + DISK_POLL_S
            for key, _ in sel.select(min(remaining, DISK_POLL_S) if watch else remaining):
                if key.fileobj is p.stdin:
                    view = _feed(sel, p.stdin, view)
                    continue
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    sel.unregister(key.fileobj)
                elif key.fileobj is p.stdout:
                    out += chunk
                    if len(out) > limits.stdout_bytes:
                        limit = "output"
                        break
                elif len(err) < STDERR_CAP:
                    err += chunk
            if limit:
                break
    finally:
        sel.close()
    if limit is None and watch and disk_used(watch) - before > limits.disk_bytes:
        limit = "disk"  # written just before it exited: its files are not to be read
    if limit:
        h.kill()
    return bytes(out), bytes(err), limit


def _feed(sel: selectors.BaseSelector, stdin: IO[bytes], view: memoryview) -> memoryview:
    try:
        n = os.write(stdin.fileno(), view[: 1 << 16])
    except (BrokenPipeError, OSError):
        n = len(view)
    view = view[n:]
    if not view:
        sel.unregister(stdin)
        stdin.close()
    return view


def popen(
    argv: list[str],
    env: dict[str, str],
    cwd: str | None = None,
    pass_fds: tuple[int, ...] = (),
    user: tuple[int, int] | None = None,
) -> subprocess.Popen[bytes]:
    """Start a process in its own session so the whole group can be killed; `user` (uid, gid): the child
    drops to it (setgroups, setgid, setuid) before exec."""
    ids: dict[str, Any] = {"user": user[0], "group": user[1], "extra_groups": []} if user else {}
    return subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
        start_new_session=True,
        close_fds=True,
        pass_fds=pass_fds,
        **ids,
    )


def python_roots() -> list[Path]:
    """The directories that hold swr's Python environment (venv and base installation), and swr's own
    package when it lives outside them (an editable install), so `./feedback` works inside a sandbox."""
    roots = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), Path(sys.executable).resolve().parent.parent}
    package = Path(__file__).resolve().parent.parent
    if not any(package.is_relative_to(r) for r in roots):
        roots.add(package)
    return sorted(roots)


def sandbox_path() -> str:
    """The sandbox's PATH: swr's interpreter first, then the system's."""
    return f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin"


FORWARDED_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")  # CPU quirks a job inherits from swr's environment


def base_env(job: Job, workdir: str, artifacts: str, home: str) -> dict[str, str]:
    """A cleared environment: nothing of the caller's leaks in but CPU-quirk settings."""
    env = {
        "PATH": sandbox_path(),
        "HOME": home,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TMPDIR": "/tmp",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "SWR_ARTIFACTS": artifacts,
        "SWR_WORKDIR": workdir,
    }
    for k in FORWARDED_ENV:
        if k in os.environ:
            env[k] = os.environ[k]
    env.update(job.env)
    return env
