"""What most kinds' tasks answer alike (swr.kinds.protocol.KindTask): the registry's kind, the forbidden lists from
task.toml, no cohorts, the source as sibling group, a workspace of public/ and an empty solution/. A kind overrides
what it answers otherwise (a revival: cohorts, its original's group, the broken project as solution/)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from swr.core.layout import TaskPaths
from swr.core.trees import KEEP_ALL, copy_tree
from swr.kinds.protocol import NOT_APPLICABLE, TaskKind
from swr.kinds.registry import named
from swr.kinds.taskfile import Forbidden


def _value_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "numeric"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "mixed"


def parameter_type(values: list[Any]) -> str:
    """The SWR paper's type of a parameter (protocol.PARAMETER_TYPES) from the values it takes: numbers (bools
    apart) numeric, strings string, bools boolean, lists array, anything else or a blend of these mixed."""
    kinds = {_value_type(v) for v in values}
    return kinds.pop() if len(kinds) == 1 else "mixed"


class BaseTask(Forbidden):
    """A mixin over a task's `root` and `meta` (its task.toml model)."""

    root: Path
    meta: Any

    @property
    def kind(self) -> TaskKind:
        """Its kind, as registered (swr.kinds.registry)."""
        return named(self.meta.kind)

    def scanned_forbidden(self) -> tuple[str, ...]:
        """Importing a forbidden package (the wrapped program, an existing implementation) is the cheat."""
        return self.forbidden_packages

    def cohort(self, by: str, cutoff: dt.date | None) -> str:
        """Not split into cohorts."""
        return NOT_APPLICABLE

    def contamination(self) -> dict[str, Any] | None:
        """No contamination control."""
        return None

    def sibling_group(self) -> str:
        """Its source (a workflow, an engine): every variant of it shares one group."""
        return f"{self.meta.kind}:{self.meta.source}"

    def start_workspace(self, public: Path, solution: Path) -> None:
        """public/ (examples, an engine's spec.md) and an empty solution/."""
        copy_tree(TaskPaths(self.root).public, public, ignore=KEEP_ALL)
        solution.mkdir()

    def not_applicable(self, audit: str) -> str | None:
        """As its kind says."""
        return self.kind.not_applicable(audit)
