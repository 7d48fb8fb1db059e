"""Whether this machine has the accelerator a task's `[requires] device` names (docs/revival.md, "Tasks that
need a GPU"). A task whose project is CUDA kernels cannot be recorded natively, gated or graded on a machine
without a GPU: `swr build` leaves it out with one line, `swr grade` and `swr run` record it as skipped (pass
null, label `skipped_no_device`), which `swr results` counts apart, never as a pass or a fail."""

from __future__ import annotations

import stat
from pathlib import Path

from swr.kinds.revival.grading import SKIPPED
from swr.kinds.revival.spec import RevivalSpec

__all__ = ["SKIPPED", "gpus", "missing"]
DEV = Path("/dev")


def gpus(dev: Path = DEV) -> list[str]:
    """The NVIDIA GPUs the kernel exposes: character devices /dev/nvidia0, /dev/nvidia1, ... They are what a
    CUDA program opens (and what a sandbox would have to bind), so their presence is the test, not a driver
    tool on PATH (nvidia-smi may be absent from a container that has the devices, or present without any)."""
    found = []
    for p in sorted(dev.glob("nvidia[0-9]*")):
        try:
            if stat.S_ISCHR(p.stat().st_mode):
                found.append(p.name)
        except OSError:
            continue
    return found


def missing(spec: RevivalSpec) -> str | None:
    """Why this machine cannot run the task (one line), or None when it can."""
    if spec.requires.device == "gpu" and not gpus():
        return f'skipped: needs a GPU ([requires] device = "gpu") and this machine has none (no {DEV}/nvidia[0-9]*)'
    return None
