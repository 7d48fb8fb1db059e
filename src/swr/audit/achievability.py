"""`swr audit achievability`: every task can be passed (oracle = 1) and is not passed by nothing (nop = 0)."""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from swr.grade import grade, oracle_verdict
from swr.release import list_tasks, load_task
from swr.sandbox import get_sandbox


def achievability_audit(release: Path, *, jobs: int = 2, sandbox: str = "bwrap") -> dict[str, Any]:
    """Oracle and nop on the hidden split of every task. Catalog tasks prescribe no numerical method,
    so their only thresholds are the declared tolerances, which the oracle attains exactly."""
    sb = get_sandbox(sandbox)
    rows = []
    with tempfile.TemporaryDirectory(prefix="swr-nop-") as nop:
        (Path(nop) / "run").write_text("#!/bin/sh\necho '{}'\n")
        (Path(nop) / "run").chmod(0o755)
        for root in list_tasks(release):
            task = load_task(root)
            oracle = oracle_verdict(task, sb, jobs=jobs, split="hidden")
            rows.append({"task": task.id, "kind": "workflow", "oracle_pass": oracle["pass"],
                         "nop_pass": grade(task, Path(nop), sb, split="hidden", jobs=jobs)["pass"],
                         "thresholds": [{"field": "*", "atol": task.tolerances.atol, "rtol": task.tolerances.rtol,
                                         "attained": oracle["pass"]}]})
    return {"release": str(release), "tasks": rows,
            "unachievable": [r["task"] for r in rows if not r["oracle_pass"]],
            "passed_by_nop": [r["task"] for r in rows if r["nop_pass"]]}
