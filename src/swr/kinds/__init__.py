"""Task kinds: the public face. A `workflow` task (SWR) is graded by the judge against the wrapped reference's
outputs; an `engine` task (ReviveBench) by its hidden verifier; a `revival` task by its project's hidden tests
and probes in the target environment; plug-in kinds register through swr.kinds.registry. Every command asks a
task (a KindTask, swr.kinds.protocol) instead of branching on its kind: load it here, then call its methods."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.core.layout import TaskPaths
from swr.kinds import registry
from swr.kinds.protocol import AUDITS, NOT_APPLICABLE, AgentBrief, HarborParts, KindTask, TaskKind
from swr.kinds.revival.spec import POST_CUTOFF
from swr.kinds.taskfile import read_task_file
from swr.kinds.workflow.task import WORKFLOW_BRIEF

AnyTask = KindTask
COHORTS = ("obfuscated", "released", "contamination")
__all__ = [
    "AUDITS",
    "COHORTS",
    "NOT_APPLICABLE",
    "POST_CUTOFF",
    "WORKFLOW_BRIEF",
    "AgentBrief",
    "AnyTask",
    "HarborParts",
    "KindTask",
    "TaskKind",
    "cohort",
    "contamination",
    "covered",
    "kind_of",
    "load",
    "registry",
    "sibling_group",
]


def _kind(name: str, where: Path) -> TaskKind:
    """The registered kind of that name (task.toml was read through the registry, so it is known)."""
    kind = registry.get(name)
    if kind is None:
        raise SwrError(f"unknown task kind {name!r}", file=where, field="kind")
    return kind


def kind_of(root: str | Path) -> str:
    """The kind task.toml records (a one-line error for a kind swr does not know)."""
    return str(read_task_file(Path(root)).kind)


def load(root: str | Path) -> KindTask:
    """A task directory of any kind (full, or a public-only workspace copy)."""
    root = Path(root)
    meta = read_task_file(root)
    return _kind(meta.kind, TaskPaths(root).toml).load(root, meta)


def covered(roots: Iterable[Path], audit: str) -> tuple[list[Path], list[dict[str, str]]]:
    """The task directories `audit` covers, and a `not_applicable` entry {task, kind, why} for each other one
    (its kind says why), so that an audit says where it does not apply instead of skipping silently."""
    keep: list[Path] = []
    skip: list[dict[str, str]] = []
    for root in roots:
        name = kind_of(root)
        why = _kind(name, TaskPaths(root).toml).not_applicable(audit)
        if why is None:
            keep.append(root)
        else:
            skip.append({"task": root.name, "kind": name, "why": why})
    return keep, skip


def cohort(root: Path, by: str, cutoff: dt.date | None = None) -> str:
    """A task's cohort for `swr results --cohort` (NOT_APPLICABLE for a kind without cohorts)."""
    return load(root).cohort(by, cutoff)


def contamination(root: Path) -> dict[str, Any] | None:
    """What a task's build recorded of a contamination control (None for a task without one)."""
    return load(root).contamination()


def sibling_group(root: Path) -> str:
    """What a task shares with its sibling variants, so that a held-out set can leave out the whole group."""
    return load(root).sibling_group()
