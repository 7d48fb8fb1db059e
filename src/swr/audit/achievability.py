"""`swr audit achievability`: every task can be passed (oracle = 1) and is not passed by nothing (nop = 0);
for engine tasks, the error the reference attained next to each tolerance threshold (the achievability
probe: a threshold the prescribed method does not meet with margin is a defect)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from swr import kinds
from swr.core.layout import CANDIDATE_RUN
from swr.core.release_dir import list_tasks
from swr.sandbox import Sandbox, get_sandbox


def achievability_audit(release: Path, *, jobs: int = 2, sandbox: str = "bwrap") -> dict[str, Any]:
    """Oracle and nop (a revival task's nop: its broken starting project) on the hidden split of every task."""
    sb = get_sandbox(sandbox)
    rows = []
    with tempfile.TemporaryDirectory(prefix="swr-nop-") as nop:
        (Path(nop) / CANDIDATE_RUN).write_text("#!/bin/sh\necho '{}'\n")
        (Path(nop) / CANDIDATE_RUN).chmod(0o755)
        roots, not_applicable = kinds.covered(list_tasks(release), "achievability")
        for root in roots:
            rows.append(_row(kinds.load(root), Path(nop), sb, jobs))
    return {
        "release": str(release),
        "tasks": rows,
        "not_applicable": not_applicable,
        "unachievable": [r["task"] for r in rows if not r["oracle_pass"] or not r["thresholds_met"]],
        "passed_by_nop": [r["task"] for r in rows if r["nop_pass"]],
    }


def _row(task: kinds.KindTask, nop: Path, sb: Sandbox, jobs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="swr-oracle-") as d:
        task.write_oracle(Path(d) / "candidate")
        oracle = task.grade(Path(d) / "candidate", sb, split="hidden", jobs=jobs, reference=True)
    nop_pass = task.grade(task.nop_candidate(nop), sb, split="hidden", jobs=jobs).passed
    return {
        "task": task.id,
        "kind": task.kind.name,
        "oracle_pass": oracle.passed,
        "nop_pass": nop_pass,
        **task.attained(oracle),
    }
