"""Artifact comparison in a bounded child process: every decoder of candidate-supplied bytes runs there,
under a CPU-time and an address-space limit, with a wall-time guard from outside.

Size bounds (_common.BOUNDS) refuse a bomb from its headers, but cost is not only size: a progressive JPEG
of a million empty scans is a few megabytes of a legal size and costs the decoder CPU for every scan. Time
is bounded here instead. A candidate that exhausts the budget fails its artifact (`artifact_mismatch`,
the label of any undecodable candidate file), never hangs the judge and never makes `swr grade` an
infrastructure failure; a bad reference or bad options still raise ArtifactConfigError in the parent."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ._common import ArtifactConfigError, ArtifactResult

DECODE_CPU_S = 20  # CPU seconds for one comparison (both files): a legitimate one needs a fraction of that
DECODE_AS_BYTES = 3 << 30  # address space of the child: the size bounds keep one side near a few hundred MB
DECODE_WALL_S = 120  # a child that sleeps or blocks is killed from outside at this wall time
_CHILD_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def compare_bounded(
    reference: Path, candidate: Path, *, atol: float, rtol: float, options: dict[str, Any] | None, kind: str
) -> ArtifactResult:
    """compare_artifact in a child under DECODE_CPU_S and DECODE_AS_BYTES; a budget exceeded, or a decoder
    that kills its process, is a failed candidate artifact. Memory exhausted while decoding is a MemoryError
    that compare_artifact already turns into one."""
    request = json.dumps(
        {"reference": str(reference), "candidate": str(candidate), "atol": atol, "rtol": rtol, "options": options}
        | {"kind": kind}
    )
    env = dict(os.environ) | _CHILD_ENV
    argv = [sys.executable, "-m", __name__, str(DECODE_CPU_S), str(DECODE_AS_BYTES)]
    try:
        proc = subprocess.run(
            argv, input=request.encode(), capture_output=True, timeout=DECODE_WALL_S, env=env, cwd="/"
        )  # not the caller's directory: nothing there is imported
    except subprocess.TimeoutExpired:
        return exceeded(kind, f"{DECODE_WALL_S} s of wall time")
    if proc.returncode == 0:
        try:  # the last line: a decoder may have printed before it
            doc = json.loads(proc.stdout.rstrip().rsplit(b"\n", 1)[-1])
        except ValueError:
            return ArtifactResult(False, kind, {}, f"cannot read candidate {kind}: its decoder gave no result")
        if "config_error" in doc:
            raise ArtifactConfigError(doc["config_error"])
        return ArtifactResult(**doc)
    if proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return exceeded(kind, f"{DECODE_CPU_S} s of CPU time")
    if proc.returncode > 0:  # a Python error outside the comparator's own guard: the judge's, not the candidate's
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
        raise RuntimeError(f"the artifact comparison's child failed: {tail[0][:300]}")
    why = f"killed by {signal.Signals(-proc.returncode).name}"  # a decoder that crashed on the candidate's bytes
    return ArtifactResult(False, kind, {}, f"cannot read candidate {kind}: its decoder was {why}")


def exceeded(kind: str, what: str) -> ArtifactResult:
    """The failure of a candidate file whose comparison outran the judge's decode budget."""
    return ArtifactResult(
        False,
        kind,
        {"budget": {"ok": False, "expected": what, "got": "exceeded", "tol": None}},
        f"cannot read candidate {kind}: decode budget exceeded ({what}); not judged further",
    )


def _child(cpu_s: int, as_bytes: int) -> None:
    """Limits first, then the comparators: nothing of the candidate's file is read before they bind."""
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))  # SIGXCPU, then SIGKILL a second later
    resource.setrlimit(resource.RLIMIT_AS, (as_bytes, as_bytes))
    from . import compare_artifact

    req = json.loads(sys.stdin.buffer.read())
    try:
        res = compare_artifact(
            Path(req["reference"]),
            Path(req["candidate"]),
            atol=req["atol"],
            rtol=req["rtol"],
            options=req["options"],
            kind=req.get("kind"),
        )
        out: dict[str, Any] = asdict(res)
    except ArtifactConfigError as e:
        out = {"config_error": str(e)}
    sys.stdout.write("\n" + json.dumps(out) + "\n")


if __name__ == "__main__":
    _child(int(sys.argv[1]), int(sys.argv[2]))
