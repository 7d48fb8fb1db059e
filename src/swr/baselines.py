"""Baselines over a release: the oracle must pass every task, nop and replay controls none."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Callable

from swr.grade import grade, oracle_verdict
from swr.release import list_tasks, load_task
from swr.sandbox import Sandbox

RowDone = Callable[[dict[str, Any], int, int], None]  # (row, tasks graded so far, tasks in all)


def baseline_rows(release: Path, sandbox: Sandbox, jobs: int = 2,
                  done: RowDone = lambda row, i, n: None) -> list[dict[str, Any]]:
    """Per task: the oracle (graded on the hidden split, which decides a pass) and nop verdicts, and the
    replay controls recorded by the build gates; `done` hears of each task as it is graded."""
    rows: list[dict[str, Any]] = []
    roots = list_tasks(Path(release).absolute())  # sandboxed runs start in "/": mount sources must be absolute
    with tempfile.TemporaryDirectory(prefix="swr-nop-") as nop:
        for root in roots:
            task = load_task(root)
            controls = task.gates["replay_controls_fail"]
            rows.append({"task": task.id,
                         "oracle": oracle_verdict(task, sandbox, jobs, split="hidden")["pass"],
                         "nop": grade(task, Path(nop), sandbox, jobs=jobs)["pass"],
                         **{k: c["pass"] for k, c in controls["controls"].items()}})
            done(rows[-1], len(rows), len(roots))
    return rows
