"""Baselines over a release: the oracle must pass every task, nop and replay controls none."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from swr import kinds
from swr.core.release_dir import list_tasks
from swr.sandbox import Sandbox

RowDone = Callable[[dict[str, Any], int, int], None]  # (row, tasks graded so far, tasks in all)
CONTROLS = ("modal", "nearest", "best_public")  # a workflow build's replay controls (gate 7)


def baseline_rows(
    release: Path, sandbox: Sandbox, jobs: int = 2, done: RowDone = lambda row, i, n: None
) -> list[dict[str, Any]]:
    """Per task of any kind: the oracle (graded on the hidden split, which decides a pass) and nop verdicts,
    and the replay controls a workflow's build recorded (False for kinds that have none: nothing passed);
    `done` hears of each task as it is graded."""
    rows: list[dict[str, Any]] = []
    roots = list_tasks(Path(release).absolute())  # sandboxed runs start in "/": mount sources must be absolute
    with tempfile.TemporaryDirectory(prefix="swr-baselines-") as d:
        for i, root in enumerate(roots):
            task = kinds.load(root)
            oracle, empty = Path(d) / f"oracle-{i}", Path(d) / f"nop-{i}"
            task.write_oracle(oracle)
            empty.mkdir()
            gate = task.build_gates().get("replay_controls_fail")
            controls = (gate.controls if gate else None) or {}
            rows.append(
                {
                    "task": task.id,
                    "oracle": task.grade(oracle, sandbox, split="hidden", jobs=jobs, reference=True).passed,
                    "nop": task.grade(task.nop_candidate(empty), sandbox, jobs=jobs).passed,
                    **{k: k in controls and controls[k].passed for k in CONTROLS},
                }
            )
            done(rows[-1], len(rows), len(roots))
    return rows
