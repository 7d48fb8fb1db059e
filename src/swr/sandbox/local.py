"""The explicit unsandboxed mode, for trusted programs only: same limits on time and output."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from swr.sandbox.base import Handle, Job, Limits, base_env, popen


class LocalHandle(Handle):
    def __init__(self, proc: subprocess.Popen[bytes], limits: Limits, scratch: Path | None):
        super().__init__(proc, limits)
        self.scratch = scratch

    def close(self) -> None:
        super().close()
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)


class LocalSandbox:
    """Runs on the host as the caller; overlay work dirs become a temporary copy."""

    name = "none"

    def spawn(self, job: Job) -> LocalHandle:
        scratch = None
        workdir = job.workdir.src
        if job.workdir.mode == "overlay":  # rw is the directory itself: an agent's writes must land
            scratch = Path(tempfile.mkdtemp(prefix="swr-local-"))
            workdir = scratch / "work"
            for layer in (*job.workdir.lower, job.workdir.src):
                shutil.copytree(layer, workdir, symlinks=True, dirs_exist_ok=True)
        mapping = {m.dst: str(m.src) for m in job.extra_mounts}
        mapping[job.workdir.dst] = str(workdir)
        argv = [_map_path(a, mapping) for a in job.argv]
        artifacts = str(job.artifacts) if job.artifacts else str(workdir)
        env = base_env(job, str(workdir), artifacts, str(scratch or workdir))
        return LocalHandle(popen(argv, env, cwd=str(workdir)), job.limits, scratch)


def _map_path(arg: str, mapping: dict[str, str]) -> str:
    for dst, src in mapping.items():
        if arg == dst or arg.startswith(dst + "/"):
            return src + arg[len(dst):]
    return arg
