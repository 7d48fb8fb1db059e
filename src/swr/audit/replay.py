"""`swr audit replay`: how far the replay controls get on hidden fields, with the oracle as 100 %."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from swr import kinds
from swr.core.release_dir import list_tasks
from swr.kinds.workflow.gates import replay_controls
from swr.kinds.workflow.task import load_workflow_task

CONTROLS = ("modal", "nearest", "best_public")


def replay_audit(release: Path) -> dict[str, Any]:
    """Per control: mean hidden-field agreement and pass rate over tasks; the recorded oracle row."""
    rows: list[dict[str, Any]] = []
    roots, not_applicable = kinds.covered(list_tasks(release), "replay")
    for root in roots:
        task = load_workflow_task(root)
        controls = replay_controls(task.reference_spec(), task.public, task.hidden)
        oracle = task.gates.get("oracle_passes")
        rows.append(
            {
                "task": task.id,
                "oracle_r_hid": oracle.r_hid if oracle else None,
                **{
                    name: {"field_agreement": c["field_agreement"], "pass": c["pass"], "label": c["label"]}
                    for name, c in controls.items()
                },
            }
        )
    n = len(rows) or 1
    summary: dict[str, dict[str, Any]] = {
        name: {
            "mean_field_agreement": sum(r[name]["field_agreement"] for r in rows) / n,
            "pass_rate": sum(r[name]["pass"] for r in rows) / n,
            "tasks_passed": [r["task"] for r in rows if r[name]["pass"]],
        }
        for name in CONTROLS
    }
    summary["oracle"] = {
        "mean_field_agreement": 1.0,
        "pass_rate": sum(r["oracle_r_hid"] == 1.0 for r in rows) / n,
        "tasks_passed": [],
    }
    return {
        "release": str(release),
        "controls": summary,
        "tasks": rows,
        "not_applicable": not_applicable,
        "controls_passing": sum(len(summary[c]["tasks_passed"]) for c in CONTROLS),
    }
