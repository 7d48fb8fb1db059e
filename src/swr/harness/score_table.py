"""The score tables of `swr results JOB…` and `swr report`: ReviveBench's Table 2 layout for tasks scored k of
N (a row per task with the head cells its kind gives, e.g. an engine and its commercial analog; a column per
model; each cell its best run's pass mark and k/N; a last row of tasks passed per model). Which tasks have a
row, and under what head, each task's kind says (TaskKind.score_row): no code here asks a task its kind.
Definitions are in docs/results.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.core.layout import ReleasePaths
from swr.kinds import registry
from swr.kinds.taskfile import TaskModel, read_task_file

PASS, FAIL = "✓", "✗"


def _meta(task: str, releases: list[Path]) -> TaskModel | None:
    """The task's task.toml from the first release that still holds it (a moved release: none)."""
    for release in releases:
        try:
            return read_task_file(ReleasePaths(release).task(task).root)
        except SwrError:
            continue
    return None


def cell_text(cell: dict[str, Any]) -> str:
    """ "✓ k/N" for a passing best run, "✗ k/N" for a failing one ("✗ -" when it has no score: it never
    ran, or left no program); "-" where the model had no run of the task."""
    if cell["label"] == "not_planned":
        return "-"
    return f"{PASS if cell['passed'] else FAIL} {cell['score'] or '-'}"


def score_tables(
    matrix: dict[str, dict[str, dict[str, Any]]], models: list[str], releases: dict[str, list[Path]]
) -> dict[str, dict[str, Any]]:
    """Per kind whose tasks have a row: {"kind", "head" (the head cells' names), "models", "rows" (each {"task",
    head cells…, "cells": {model: {"passed", "score", "text", "job", "run"}}}), "passed" ({model: {"passed",
    "of", "text": "m/N"}})}. `matrix` is compare_jobs' best run per (task, model); `releases` the releases
    that planned each task."""
    tables: dict[str, dict[str, Any]] = {}
    for task in sorted(matrix):
        meta = _meta(task, releases.get(task, []))
        kind = registry.get(meta.kind) if meta else None
        head = kind.score_row(meta) if kind and meta else None
        if kind is None or head is None:
            continue
        table = tables.setdefault(kind.name, {"kind": kind.name, "head": list(head), "models": models, "rows": []})
        cells = {
            m: {
                **{k: matrix[task][m][k] for k in ("passed", "score", "job", "run")},
                "text": cell_text(matrix[task][m]),
            }
            for m in models
        }
        table["rows"].append({"task": task, **head, "cells": cells})
    for table in tables.values():
        n = len(table["rows"])
        passed = {m: sum(bool(r["cells"][m]["passed"]) for r in table["rows"]) for m in models}
        table["passed"] = {m: {"passed": passed[m], "of": n, "text": f"{passed[m]}/{n}"} for m in models}
    return tables
