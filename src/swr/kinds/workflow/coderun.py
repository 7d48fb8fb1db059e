"""The workflow kind's side of the generated-code seam: the judge asks to run a probe (judge/artifacts/code.py),
and this runs it in the task's sandbox, the one the candidate itself ran in. The judge imports no sandbox; the
kind, which already has one, hands it this runner through Execution.runner."""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from pathlib import Path

from swr.judge.artifacts.code import CodeRunner, Probe, ProbeRun
from swr.sandbox import WORKDIR, GiB, Job, Limits, MiB, Mount, Sandbox, run

PROBE_LIMITS = Limits(memory_bytes=1 * GiB, pids=64, stdout_bytes=4 * MiB, tmp_bytes=256 * MiB, disk_bytes=64 * MiB)


def sandbox_runner(sandbox: Sandbox, hidden: tuple[str, ...] = ()) -> CodeRunner:
    """A CodeRunner that runs each probe in `sandbox`: a fresh read-only working directory holding only the
    probe, its plan and the code (never the reference's code or the task's files), no network, the probe limits
    (its wall time the field's timeout_s), and the task's forbidden packages `hidden` as for the candidate."""

    def run_probe(probe: Probe) -> ProbeRun:
        with tempfile.TemporaryDirectory(prefix=f"swr-probe-{os.getpid()}-") as d:
            for name, data in probe.files.items():
                (Path(d) / name).write_bytes(data)
                os.chmod(Path(d) / name, 0o644)
            os.chmod(d, 0o755)  # the sandbox user is not the caller when swr runs as root
            limits = replace(PROBE_LIMITS, time_s=probe.time_s)
            argv = ["/usr/bin/env", "python3", probe.script]  # the sandbox's Python, as the oracle's ./run finds it
            job = Job(argv, Mount(Path(d), WORKDIR), limits, hidden=hidden)
            res = run(sandbox, job, b"")
        return ProbeRun(res.returncode, res.stdout, res.limit)

    return run_probe


def lazy_runner(backend: str) -> CodeRunner:
    """A CodeRunner on the named backend, started only when a code artifact first needs it (the audits grade
    thousands of mutants, most with no code to run, and a backend's start runs a self-test)."""
    made: list[CodeRunner] = []

    def run_probe(probe: Probe) -> ProbeRun:
        if not made:
            from swr.sandbox import get_sandbox

            made.append(sandbox_runner(get_sandbox(backend)))
        return made[0](probe)

    return run_probe
