"""The podman/docker backend: one container per run, in a task's image or on a root file system
assembled from the host.

No image registry is assumed. With podman the container's root is `--rootfs` of a skeleton directory
made once per process (a few empty directories and the host's top-level symlinks, plus a copy of the
/etc allow-list); the host's /usr, /lib*, /bin and swr's Python environment are bound into it read-only,
as the bubblewrap backend does. Docker has no `--rootfs`: the same skeleton is `docker import`ed once as
a local image. Bound to an image instead (`bound`, images.py), the backend runs jobs in it as is
(`--pull never`), with nothing of the host's mounted but the job's own directories.

The sandbox user is host uid 65534, never the caller: a user namespace mapping it to a rootful caller
would make it host root to every DAC check. What it must write is given to it (`hand_over`), and
overlay work directories are a private copy given to it.

Limits: podman's `--pids-limit`/`--memory` flags, and, where this process can write cgroupfs (rootful
podman with the cgroupfs manager), a per-run parent cgroup (cgroups.RunParent) that binds pids and memory
exactly and tells which one was hit. Timeouts and the output cap kill every process of the
container through that cgroup (else `podman kill`), then the container is removed (`--rm`, and `rm -f`
when the client had to be killed).
"""

from __future__ import annotations

import atexit
import copy
import os
import shutil
import signal
import subprocess
import tarfile
import tempfile
import threading
import time
import uuid
import weakref
from functools import cache
from pathlib import Path

from swr.core.errors import SandboxUnavailable
from swr.core.trees import KEEP_ALL, copy_tree
from swr.sandbox import capped, hide, seccomp
from swr.sandbox.base import (
    ARTIFACTS,
    EGRESS,
    SANDBOX_UID,
    Handle,
    Job,
    Limits,
    Mount,
    base_env,
    hand_over,
    popen,
    python_roots,
)
from swr.sandbox.cgroups import RunParent, cgroup_version
from swr.sandbox.etcview import ETC_VIEW, copy_allow_list
from swr.sandbox.images import PATH as IMAGE_PATH
from swr.sandbox.images import Images

TOP_LEVEL = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
SKELETON_BYTES = 64 << 20  # the tmpfs of the container's root skeleton (mount points and the /etc allow-list)
MEMORY_SLACK = 1 << 20  # podman's own --memory sits above the parent cgroup's exact limit (a backstop)
CLIENT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
CLIENT_ENV = (
    "HOME",
    "XDG_RUNTIME_DIR",
    "XDG_CONFIG_HOME",
    "CONTAINER_HOST",
    "CONTAINERS_CONF",
    "DOCKER_HOST",
    "DOCKER_CONFIG",
    "DOCKER_CONTEXT",
)


def _client_env() -> dict[str, str]:
    """What the podman/docker client needs; never reaches the container (its env is set with -e)."""
    env = {"PATH": CLIENT_PATH}
    env.update({k: os.environ[k] for k in CLIENT_ENV if k in os.environ})
    return env


@cache
def find_binary(kind: str) -> str:
    """$SWR_PODMAN / $SWR_DOCKER, else the binary on PATH."""
    env = os.environ.get(f"SWR_{kind.upper()}")
    found = env or shutil.which(kind) or shutil.which(kind, path=CLIENT_PATH)
    if not found:
        hint = "apt-get install -y --no-install-recommends podman runc" if kind == "podman" else "install docker"
        raise SandboxUnavailable(f"{kind} not found: {hint}")
    return found


# -------------------------------------------------------------------------------- root file system


class Skeleton:
    """The container's root directory: mount points, the host's top-level symlinks, /etc's allow-list.

    Remade when the /etc view changes (old ones stay until exit: running containers may use them)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.made: dict[Path | None, Path] = {}
        self.pid = os.getpid()
        atexit.register(self.remove)

    def get(self) -> Path:
        etc = ETC_VIEW.get()
        with self.lock:
            if etc not in self.made:
                if not self.made:
                    _sweep_dirs("swr-podroot-")
                self.made[etc] = self._make(etc)
            return self.made[etc]

    @staticmethod
    def _make(etc: Path | None) -> Path:
        root = capped.private_dir(f"swr-podroot-{os.getpid()}-", SKELETON_BYTES)  # no host path in mountinfo
        for name in TOP_LEVEL:
            host = Path("/") / name
            if host.is_symlink():
                (root / name).symlink_to(os.readlink(host))
            elif host.is_dir():
                (root / name).mkdir()
        for d in ("usr", "proc", "dev", "sys", "run", "sandbox/work", "sandbox/artifacts"):
            (root / d).mkdir(parents=True, exist_ok=True)
        (root / EGRESS.lstrip("/")).touch()
        for d in ("tmp", "var/tmp"):
            (root / d).mkdir(parents=True, exist_ok=True)
            (root / d).chmod(0o1777)  # the tmpfs mounted there copies this mode
        for r in python_roots():  # mount points made here, not concurrently by the runtime
            (root / str(r).lstrip("/")).mkdir(parents=True, exist_ok=True)
        if etc is not None:
            copy_tree(etc, root / "etc", ignore=KEEP_ALL, symlinks=True)
        else:
            (root / "etc").mkdir()
            copy_allow_list(root / "etc")
        for d, dirs, _ in os.walk(root):
            for name in dirs:
                p = Path(d) / name
                if not p.is_symlink() and p.parent != root / "etc":
                    p.chmod(p.stat().st_mode | 0o755)
        return root

    def remove(self) -> None:
        if os.getpid() != self.pid:
            return
        for p in self.made.values():
            capped.remove_private(p)
        self.made.clear()


SKELETON = Skeleton()


def _sweep_dirs(prefix: str) -> None:
    """Remove skeletons and scratch copies left by swr processes that were killed."""
    for d in Path(tempfile.gettempdir()).glob(f"{prefix}*-*"):
        pid = d.name[len(prefix) :].split("-")[0]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists() and d.is_dir() and not d.is_symlink():
            capped.remove_private(d)


# ------------------------------------------------------------------------------------------ handle


class PodmanHandle(Handle):
    """The `podman run` client; the container's processes are reached through the run's cgroup."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        limits: Limits,
        sb: PodmanSandbox,
        cname: str,
        cg: RunParent | None,
        scratch: Path | None,
    ):
        super().__init__(proc, limits)
        self.sb, self.cname, self.cg, self.scratch = sb, cname, cg, scratch
        self.killed = False
        _LIVE.add(self)

    def kill(self) -> None:
        """Kill the container's processes; the client then returns, removing the container (--rm)."""
        self.killed = True
        if self.cg is not None:
            self.cg.signal_all()
        else:
            self.sb.client("kill", "--signal", "KILL", self.cname)

    def breach(self) -> str | None:
        return self.cg.breach() if self.cg else None

    def writable(self) -> tuple[Path, ...]:
        return (self.scratch,) if self.scratch else ()

    def close(self) -> None:
        if self.proc.poll() is None and not self.killed:
            self.kill()
        self.close_pipes()  # a client still writing output gets EPIPE instead of blocking
        if self.killed:
            self._reap()
        self.proc.wait()
        if self.cg is not None:
            self.cg.remove()
        if self.scratch is not None:
            capped.remove_private(self.scratch)
        _LIVE.discard(self)

    def _reap(self) -> None:
        """After a kill: keep killing until the client has returned (a container still being created
        when the limit hit joins the cgroup later), else kill the client and remove the container."""
        deadline = time.monotonic() + 10.0
        while self.proc.poll() is None and time.monotonic() < deadline:
            if self.cg is not None:
                self.cg.signal_all()
            try:
                self.proc.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.poll() is None or self.proc.returncode in (-signal.SIGKILL, 125):
            Handle.kill(self)
            self.proc.wait()
        if self.proc.returncode < 0 or self.proc.returncode == 125:
            # the client died (or failed) before its own --rm clean-up: remove the container here
            self.sb.client("rm", "--force", "--ignore", "--time", "0", self.cname, timeout=60)
        if self.cg is not None:
            self.cg.signal_all()


# ----------------------------------------------------------------------------------------- sandbox


class PodmanSandbox:
    """Each job is one `podman run --rm` (or `docker run --rm`) of a container with no network, a
    read-only root, no capabilities, no new privileges, uid 65534, pids/memory limits, a cleared
    environment and piped stdin; killed and removed on breach."""

    def __init__(self, binary: str = "podman", image: str | None = None):
        self.kind = "docker" if Path(binary).name.startswith("docker") else "podman"
        self.name = self.kind
        self.binary = find_binary(binary) if "/" not in binary else binary
        self.image = image
        self.rootful = os.geteuid() == 0
        self.globals: list[str] = []
        if self.kind == "podman":
            if os.environ.get("SWR_PODMAN_RUNTIME"):
                self.globals += ["--runtime", os.environ["SWR_PODMAN_RUNTIME"]]
            elif shutil.which("runc", path=CLIENT_PATH):
                self.globals += ["--runtime", "runc"]
            if not Path("/run/systemd/system").exists():  # no systemd to manage cgroups: cgroupfs
                self.globals.append("--cgroup-manager=cgroupfs")
        cgroupfs = "--cgroup-manager=cgroupfs" in self.globals
        self.cg_version = cgroup_version() if self.kind == "podman" and self.rootful and cgroupfs else None
        self._docker_image: str | None = None
        self._lock = threading.Lock()
        self.images = Images(self.client)
        if self.kind == "podman":
            self._sweep_containers()

    def bound(self, image: str | None) -> PodmanSandbox:
        """This backend running every job in `image` (None: the host's root file system)."""
        sb = copy.copy(self)
        sb.image = image
        return sb

    # ------------------------------------------------------------------ client plumbing
    def client(self, *args: str, timeout: float = 30, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        try:
            return subprocess.run(
                [self.binary, *self.globals, *args],
                input=stdin,
                capture_output=True,
                env=_client_env(),
                timeout=timeout,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            return subprocess.CompletedProcess(args, 125, b"", str(e).encode())

    def _remove_own_containers(self, pid: int) -> None:
        """At exit (a signal's too: leftovers.py runs the exit handlers), this process's containers that still
        run: a killed client leaves its container behind, which would otherwise live until its time limit."""
        if os.getpid() != pid:
            return
        live = list(_LIVE)
        for h in live:  # a client still creating its container is stopped first: it would create it after we left
            Handle.kill(h)
        res = self.client("ps", "--all", "--filter", f"name=^swr-{pid}-", "--format", "{{.Names}}")
        mine = sorted({*(res.stdout.decode().split() if res.returncode == 0 else []), *(h.cname for h in live)})
        if mine:
            self.client("rm", "--force", "--ignore", "--time", "0", *mine, timeout=120)

    def _sweep_containers(self) -> None:
        """Remove containers left by swr processes that were killed (names carry the owner's pid)."""
        res = self.client("ps", "--all", "--filter", "name=^swr-", "--format", "{{.Names}}")
        dead = (
            [
                n
                for n in res.stdout.decode().split()
                if n.split("-")[1].isdigit() and not Path(f"/proc/{n.split('-')[1]}").exists()
            ]
            if res.returncode == 0
            else []
        )
        if dead:
            self.client("rm", "--force", "--ignore", "--time", "0", *dead, timeout=120)

    def _root_image(self) -> list[str]:
        """What follows the options: `--rootfs DIR` (podman) or a local image imported from it (docker)."""
        if self.kind == "podman":
            return ["--rootfs", str(SKELETON.get())]
        skel = SKELETON.get()
        with self._lock:
            if self._docker_image is None:
                tag = f"swr-rootfs:{os.getpid()}-{uuid.uuid4().hex[:8]}"
                with tempfile.TemporaryFile() as f:
                    with tarfile.open(fileobj=f, mode="w") as tar:
                        tar.add(skel, arcname=".")
                    f.seek(0)
                    res = self.client("import", "-", tag, stdin=f.read(), timeout=300)
                if res.returncode != 0:
                    raise SandboxUnavailable(f"docker import of the sandbox root failed: {res.stderr.decode()[-500:]}")
                self._docker_image = tag
                atexit.register(lambda: self.client("rmi", "--force", tag))
        return ["--pull", "never", self._docker_image]

    # ------------------------------------------------------------------ options
    def _system_mounts(self) -> list[str]:
        args = ["-v", "/usr:/usr:ro"]
        for name in TOP_LEVEL:
            p = Path("/") / name
            if p.is_dir() and not p.is_symlink():
                args += ["-v", f"{p}:{p}:ro"]
        for r in python_roots():
            if not str(r).startswith("/usr/"):
                args += ["-v", f"{r}:{r}:ro"]
        return args

    def _mount(self, m: Mount, scratch_parent: list[Path]) -> list[str]:
        if m.mode == "ro":
            return ["-v", f"{_vol(m.src)}:{m.dst}:ro"]
        if m.mode == "rw":
            if self.rootful:
                hand_over(Path(m.src))
            return ["-v", f"{_vol(m.src)}:{m.dst}"]
        # a private copy of the layers, given to the sandbox user
        copy = scratch_parent[0] / f"m{len(list(scratch_parent[0].iterdir()))}"  # (made by options())
        for layer in (*m.lower, m.src):
            copy_tree(layer, copy, ignore=KEEP_ALL, symlinks=True, merge=True)
        if self.rootful:
            hand_over(copy)
        return ["-v", f"{_vol(copy)}:{m.dst}"]

    def options(self, job: Job, cname: str, cg: RunParent | None, scratch: list[Path]) -> list[str]:
        lim = job.limits
        image = self.image
        mem = lim.memory_bytes + (MEMORY_SLACK if cg else 0)
        args = [
            "run",
            "--rm",
            "--interactive",
            "--name",
            cname,
            "--log-driver",
            "none",
            "--network",
            "none",
            "--read-only",
            "--cap-drop",
            "ALL",
            "--security-opt",
            "no-new-privileges",
            "--security-opt",
            f"seccomp={seccomp.oci_profile_path()}",
            "--user",
            f"{SANDBOX_UID}:{SANDBOX_UID}",
            "--pids-limit",
            str(lim.pids),
            "--memory",
            str(mem),
            "--memory-swap",
            str(mem),
            "--hostname",
            "sandbox",
            "--no-hosts",
            "--workdir",
            job.workdir.dst,
            "--tmpfs",
            f"/tmp:rw,size={lim.tmp_bytes},mode=1777",
        ]
        args += ["--ulimit", f"fsize={lim.disk_bytes}:{lim.disk_bytes}"]
        if self.kind == "podman":
            args += ["--ulimit", "nofile=1024:1024", "--ulimit", "nproc=4096:4096", "--unsetenv-all"]
        if cg is not None:
            args += ["--cgroup-parent", cg.podman_parent, "--cgroups", "no-conmon"]
        env = base_env(job, job.workdir.dst, ARTIFACTS, "/tmp")
        if image:
            env["PATH"] = IMAGE_PATH
        for k, v in env.items():
            args += ["--env", f"{k}={v}"]
        if image is None:
            args += self._system_mounts()
        if job.workdir.mode == "overlay" or any(m.mode == "overlay" for m in job.extra_mounts):
            scratch.append(_copies_dir(job))
        args += self._mount(job.workdir, scratch)
        if job.artifacts is not None:
            if self.rootful:
                os.chown(job.artifacts, SANDBOX_UID, SANDBOX_UID)
            args += ["-v", f"{_vol(job.artifacts)}:{ARTIFACTS}"]
        for m in job.extra_mounts:
            args += self._mount(m, scratch)
        if image is None:  # an image has its own site-packages: there the scan of anticheat.py stays the signal
            args += [
                a
                for stub, loc in hide.covers(job.hidden, job.hidden_bins, job.hidden_paths)
                for a in ("-v", f"{_vol(stub)}:{loc}:ro,nodev")
            ]  # nodev: /dev/null covers files
        if job.egress is not None:  # the only way out: the run's egress proxy (egress.py)
            args += ["-v", f"{_vol(job.egress)}:{EGRESS}:ro"]
        args += ["--pull", "never", image] if image else self._root_image()
        return args

    def argv(self, job: Job) -> list[str]:
        """The command line of one run, for inspection (spawn makes its own)."""
        return [self.binary, *self.globals, *self.options(job, "swr-example", None, []), *job.argv]

    def spawn(self, job: Job) -> PodmanHandle:
        cname = f"swr-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        with _REAPING_LOCK:
            if os.getpid() not in _REAPING:  # once per process that starts containers
                _REAPING.add(os.getpid())
                atexit.register(self._remove_own_containers, os.getpid())
        cg = RunParent(self.cg_version, job.limits.pids, job.limits.memory_bytes) if self.cg_version else None
        scratch: list[Path] = []
        try:
            opts = self.options(job, cname, cg, scratch)
            proc = popen([self.binary, *self.globals, *opts, *job.argv], _client_env(), cwd="/")
        except (OSError, SandboxUnavailable) as e:
            if cg:
                cg.remove()
            for s in scratch:
                capped.remove_private(s)
            if isinstance(e, SandboxUnavailable):
                raise
            raise SandboxUnavailable(f"cannot start {self.kind}: {e}") from None
        return PodmanHandle(proc, job.limits, self, cname, cg, scratch[0] if scratch else None)


def _copies_dir(job: Job) -> Path:
    """Where a run's private copies of its overlay layers go: a tmpfs of its own (as root) sized for the layers
    plus what the run may add (limits.disk_bytes), so that the kernel caps the run's writes there, and the
    copies show in the container's mountinfo as paths of that tmpfs, not of the host."""
    layers = [p for m in (job.workdir, *job.extra_mounts) if m.mode == "overlay" for p in (*m.lower, m.src)]
    return capped.private_dir(
        f"swr-podcopy-{os.getpid()}-",
        job.limits.disk_bytes + sum(map(_tree_bytes, layers)),
        mode=0o700,
        executable=True,
    )  # a candidate's `run` is executed from there


def _tree_bytes(root: Path) -> int:
    """What a copy of the tree takes on a tmpfs: each entry at least a block (links not followed)."""
    total = 0
    for d, dirs, files in os.walk(root):
        for name in (*dirs, *files):
            try:
                total += max(os.lstat(os.path.join(d, name)).st_size, capped.BLOCK)
            except OSError:
                pass
    return total + capped.BLOCK


_LIVE: weakref.WeakSet[PodmanHandle] = weakref.WeakSet()  # this process's runs not yet closed
_REAPING: set[int] = set()  # processes whose exit removes their containers still running
_REAPING_LOCK = threading.Lock()


def _vol(p: Path) -> str:
    s = str(Path(p).resolve())
    if ":" in s or "," in s:
        raise SandboxUnavailable(f"podman/docker cannot mount a path containing ':' or ',': {s}")
    return s
