"""The explicit unsandboxed mode, for trusted programs only: same limits on time and output. Run by root
with `run_as`, a job runs as that user in a copy it owns, its artifacts (and a read-write work dir's new
contents) copied back once it is over."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from swr.core.trees import KEEP_ALL, copy_tree
from swr.sandbox import tree
from swr.sandbox.base import Handle, Job, Limits, base_env, hand_over, popen


class LocalHandle(Handle):
    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        limits: Limits,
        scratch: Path | None,
        artifacts: tuple[Path, Path] | None = None,
        back: tuple[Path, Path] | None = None,
    ):
        super().__init__(proc, limits)
        self.scratch = scratch
        self.artifacts = artifacts  # (the user's private directory, the job's): copied out on close
        self.back = back  # (the user's copy of a read-write work dir, the work dir): it replaces it on close

    def writable(self) -> tuple[Path, ...]:
        return (self.artifacts[0],) if self.artifacts else ()

    def close(self) -> None:
        super().close()
        if self.artifacts:
            tree.export(*self.artifacts, tree.Bounds(bytes=self.limits.disk_bytes), strict=False)
        if self.back:  # the user's tree, read without following a link, becomes the work dir's contents
            copy, workdir = self.back
            tree.remove_tree(workdir)
            tree.export(copy, workdir, tree.Bounds(bytes=self.limits.disk_bytes), strict=False)
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)


class LocalSandbox:
    """Runs on the host as the caller; overlay work dirs become a temporary copy. `run_as` (uid, gid): when
    swr is root, jobs run as that user instead; `path`: the jobs' PATH instead of swr's interpreter first."""

    name = "none"

    def __init__(self, run_as: tuple[int, int] | None = None, path: str | None = None):
        self.run_as = run_as if run_as and os.geteuid() == 0 else None
        self.path = path

    def spawn(self, job: Job) -> LocalHandle:
        scratch, workdir, back = None, job.workdir.src, None
        # overlay: a copy. rw: the directory itself (an agent's writes must land), except as run_as: a copy
        # the user owns (it may not reach the directory where it is), which replaces it when the job is over
        if job.workdir.mode == "overlay" or self.run_as:
            scratch = Path(tempfile.mkdtemp(prefix=f"swr-local-{os.getpid()}-"))
            workdir = scratch / "work"
            layers = (*job.workdir.lower, job.workdir.src) if job.workdir.mode == "overlay" else (job.workdir.src,)
            for layer in layers:
                copy_tree(layer, workdir, ignore=KEEP_ALL, symlinks=True, merge=True)
            back = (workdir, job.workdir.src) if job.workdir.mode == "rw" else None
        mapping = {m.dst: str(m.src) for m in job.extra_mounts}
        mapping[job.workdir.dst] = str(workdir)
        argv = [_map_path(a, mapping) for a in job.argv]
        artifacts = str(job.artifacts) if job.artifacts else str(workdir)
        private = self._hand_over(scratch, workdir, job) if scratch and self.run_as else None
        env = base_env(
            job,
            str(workdir),
            str(private[0]) if private else artifacts,
            str(workdir if self.run_as else scratch or workdir),
        )
        if self.path and "PATH" not in job.env:
            env["PATH"] = self.path
        return LocalHandle(popen(argv, env, cwd=str(workdir), user=self.run_as), job.limits, scratch, private, back)

    def _hand_over(self, scratch: Path, workdir: Path, job: Job) -> tuple[Path, Path] | None:
        """The copy and a private artifacts directory become the user's; the scratch root only lets it
        through (0711). The artifacts go to the job's directory when it is over (tree.export, no link followed)."""
        assert self.run_as
        os.chmod(scratch, 0o711)
        if workdir.is_relative_to(scratch):
            hand_over(workdir, *self.run_as)
        if not job.artifacts:
            return None
        private = scratch / "artifacts"
        private.mkdir(mode=0o700)
        hand_over(private, *self.run_as)
        return private, Path(job.artifacts)


def _map_path(arg: str, mapping: dict[str, str]) -> str:
    for dst, src in mapping.items():
        if arg == dst or arg.startswith(dst + "/"):
            return src + arg[len(dst) :]
    return arg
