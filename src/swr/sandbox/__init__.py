"""Sandbox backends behind one seam: `get_sandbox(name).spawn(job)`, `run(sandbox, job, stdin)`."""

from __future__ import annotations

from functools import cache
from typing import Any

from swr.core.errors import SandboxUnavailable, SwrError
from swr.sandbox.base import ARTIFACTS, WORKDIR, GiB, Handle, Job, Limits, MiB, Mount, RunResult, Sandbox, run

BACKENDS = ("bwrap", "podman", "docker", "none")


@cache
def get_sandbox(name: str = "bwrap") -> Sandbox:
    """A ready backend, checked once by running `true` inside it."""
    if name == "none":  # SWR_NONE_PATH: its jobs' PATH (a Harbor image's ./feedback: the task's Python)
        import os

        from swr.sandbox.local import LocalSandbox

        return LocalSandbox(path=os.environ.get("SWR_NONE_PATH") or None)
    if name == "bwrap":
        from swr.sandbox.bwrap import BwrapSandbox

        bw = BwrapSandbox()
        _self_test(bw)
        return bw
    if name in ("podman", "docker"):
        from swr.sandbox.podman import PodmanSandbox

        sb = PodmanSandbox(name)
        _self_test(sb)
        return sb
    raise SwrError(f"unknown sandbox backend {name!r} (choose from {', '.join(BACKENDS)})", field="sandbox")


def sandbox_for(name: str, environment: dict[str, Any], image: str = "auto") -> Sandbox:
    """The backend for one task. podman/docker run it in an image: "auto" the task's own or one built
    from its environment, "host" none (the host's /usr, read-only), else the image named. A task with
    no recorded environment (an older release) runs on the host's root."""
    sb = get_sandbox(name)
    if name not in ("podman", "docker") or image == "host" or (image == "auto" and not environment):
        return sb
    from swr.sandbox.podman import PodmanSandbox

    assert isinstance(sb, PodmanSandbox)
    return sb.bound(sb.images.for_task(environment) if image == "auto" else image)


def _self_test(sb: Sandbox) -> None:
    import os
    import sys
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)  # the sandbox user is not the caller when swr runs as root
        res = run(sb, Job([sys.executable, "-c", "pass"], Mount(Path(d), WORKDIR), Limits(time_s=20)), b"")
    if not res.ok:
        msg = res.stderr.decode(errors="replace").strip().splitlines()
        what = "bubblewrap" if sb.name == "bwrap" else sb.name
        raise SandboxUnavailable(f"{what} cannot run swr's Python here: {msg[-1] if msg else res.returncode}")


__all__ = [
    "ARTIFACTS",
    "BACKENDS",
    "GiB",
    "Handle",
    "Job",
    "Limits",
    "MiB",
    "Mount",
    "RunResult",
    "Sandbox",
    "WORKDIR",
    "get_sandbox",
    "run",
    "sandbox_for",
]
