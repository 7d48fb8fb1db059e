"""Task kinds: the one place that branches on a task's kind. A `workflow` task (SWR) is graded by the
judge against the wrapped reference's outputs; an `engine` task (ReviveBench) by its hidden verifier."""
from __future__ import annotations

import shutil
import tomllib
from pathlib import Path
from typing import Any, Literal

from swr.engine.feedback import engine_feedback
from swr.engine.grading import grade_engine
from swr.engine.task import EngineTask, load_engine_task
from swr.errors import SwrError
from swr.release import TASK_TOML, Task, load_task
from swr.sandbox import Sandbox

AnyTask = Task | EngineTask
KINDS = ("workflow", "engine")


def kind_of(root: Path) -> str:
    try:
        meta = tomllib.loads((Path(root) / TASK_TOML).read_text())
    except FileNotFoundError:
        raise SwrError(f"not a task directory (no {TASK_TOML})", file=root) from None
    except tomllib.TOMLDecodeError as e:
        raise SwrError(f"invalid TOML: {e}", file=Path(root) / TASK_TOML) from None
    kind = meta.get("kind", "workflow")
    if kind not in KINDS:
        raise SwrError(f"unknown task kind {kind!r} (one of {', '.join(KINDS)})", file=Path(root) / TASK_TOML,
                       field="kind")
    return str(kind)


def load(root: str | Path) -> AnyTask:
    """A task directory of any kind (full, or a public-only workspace copy)."""
    root = Path(root)
    if kind_of(root) == "engine":
        return load_engine_task(root, tomllib.loads((root / TASK_TOML).read_text()))
    return load_task(root)


def grade(task: AnyTask, candidate: Path, sandbox: Sandbox, *, split: Literal["all", "hidden", "public"] = "all",
          jobs: int = 2) -> dict[str, Any]:
    """The verdict: the hidden cases decide. An engine's public split is feedback on its examples."""
    if isinstance(task, EngineTask):
        if split == "public":
            return engine_feedback(task.spec, task.id, candidate, task.public, sandbox)
        return grade_engine(task.spec, task.verifier_dir, candidate, task.hidden, sandbox, jobs, task.id)
    from swr.grade import grade as grade_workflow

    return grade_workflow(task, candidate, sandbox, split=split, jobs=jobs)


def write_oracle(task: AnyTask, dest: Path) -> None:
    """The task's reference as a candidate directory (the oracle agent, the achievability audit)."""
    if isinstance(task, EngineTask):
        shutil.copytree(task.reference_dir, dest, ignore=shutil.ignore_patterns("__pycache__"))
        return
    from swr.workflow import write_oracle as wrap

    wrap(task.reference_spec(), task.reference_dir, dest)
