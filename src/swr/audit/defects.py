"""The defect register (ReviveBench §8): every verifier defect found in a release, the signal that exposed
it and its fix. A release keeps its register in defects.json; the shipped catalog's source of truth is a
defects.toml of `[[defect]]` tables with the same fields, carried into each release it builds."""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from swr.core.errors import SwrError, load_json, load_toml
from swr.core.jsonfile import dump_json
from swr.core.layout import ReleasePaths
from swr.core.release_dir import list_tasks, load_release
from swr.kinds.taskfile import read_task_file

Kind = Literal["false_accept", "false_reject"]
Severity = Literal["high", "medium", "low"]
# How a defect came to light (ReviveBench §8's groups, plus the audits swr adds): `counterexample` is a minimal
# hand-made candidate (a cheat, a copy, a shortcut) that a verifier wrongly passed; `adequacy` a mutant of the
# reference breaking one spec rule that the hidden cases did not kill.
Signal = Literal[
    "achievability", "consensus", "self_test", "human_audit", "mutation", "lint", "review", "counterexample", "adequacy"
]
ID_PREFIX = "D"


class Defect(BaseModel):
    """One verifier defect. `task` is a task id, a workflow or engine name, family/workflow, or `*` for a
    defect of the shared judge (every release that holds a task of the kind carries it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    task: str = Field(min_length=1)
    kind: Kind
    severity: Severity = "medium"
    signal: Signal
    summary: str = Field(min_length=1)
    fix: str = ""
    test: str = ""
    commit: str = Field(default="", pattern=r"^([0-9a-f]{7,40})?$")  # the fixing commit, where it is known
    status: Literal["open", "fixed"] = "open"
    recorded: dt.date

    @model_validator(mode="after")
    def _status_matches_fix(self) -> Defect:
        if self.status == "fixed" and not self.fix.strip():
            raise ValueError("a fixed defect says what the fix was (`fix`)")
        if self.status == "open" and (self.fix.strip() or self.commit):
            raise ValueError("an open defect has no `fix` or `commit` yet (status `fixed` when it has one)")
        return self


_DEFECTS = TypeAdapter(list[Defect])


def _validated(data: Any, path: Path, where: str) -> list[Defect]:
    """Typed defects, or one line naming the file and the first bad field."""
    try:
        defects = _DEFECTS.validate_python(data)
    except ValidationError as e:
        err = e.errors()[0]
        loc = err["loc"]
        field = f"{where}[{loc[0]}]" + "".join(f".{x}" for x in loc[1:]) if loc else where
        raise SwrError(err["msg"], file=path, field=field) from None
    seen: set[str] = set()
    for i, d in enumerate(defects):
        if d.id in seen:
            raise SwrError(f"duplicate id {d.id!r}", file=path, field=f"{where}[{i}].id")
        seen.add(d.id)
    return defects


def read_toml(path: Path) -> list[Defect]:
    """A defects.toml: `[[defect]]` tables."""
    data = load_toml(path)
    extra = sorted(set(data) - {"defect"})
    if extra:
        raise SwrError("unknown table (only [[defect]] tables)", file=path, field=extra[0])
    if not isinstance(data.get("defect", []), list):
        raise SwrError("must be an array of tables, [[defect]]", file=path, field="defect")
    return _validated(data.get("defect", []), path, "defect")


def load(release: Path) -> list[Defect]:
    """A release's register; empty when it has none yet."""
    load_release(release)  # a release, or one line saying why not
    path = ReleasePaths(release).defects
    if not path.is_file():
        return []
    data = load_json(path)
    if not isinstance(data, list):
        raise SwrError("must be a JSON list of defects", file=path)
    return _validated(data, path, "defects")


def save(release: Path, defects: list[Defect]) -> None:
    """Atomically, in id order, in the release's one JSON style (so a rebuild is byte-identical)."""
    path = ReleasePaths(release).defects
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dump_json([d.model_dump(mode="json") for d in sorted(defects, key=lambda d: d.id)]))
    os.replace(tmp, path)


def names_in(release: Path) -> set[str]:
    """Every name a defect may give as its task: task ids, workflows, family/workflow, engines."""
    names: set[str] = set()
    for root in list_tasks(release):
        meta = read_task_file(root)
        names |= {root.name, meta.source, f"{meta.family}/{meta.source}"}
    return names


ANY_TASK = "*"  # a defect of the shared judge, not of one task's verifier


def matches(task: str, names: set[str]) -> bool:
    """A defect's task names something in `names`: itself, its last path part, or that task id's workflow."""
    if task == ANY_TASK:
        return bool(names)
    last = task.rsplit("/", 1)[-1]
    return bool({task, last, re.sub(r"-v\d+$", "", last)} & names)


def _today(recorded: str | None) -> dt.date:
    if recorded is None:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(recorded)
    except ValueError:
        raise SwrError(f"not an ISO date (YYYY-MM-DD): {recorded!r}", field="--recorded") from None


def add(
    release: Path,
    *,
    task: str,
    kind: str,
    signal: str,
    summary: str,
    fix: str = "",
    test: str = "",
    severity: str = "medium",
    recorded: str | None = None,
) -> Defect:
    """Record a defect (status `fixed` when its fix is given); its id is the next free D<n>."""
    defects = load(release)
    if not matches(task, names_in(release)):
        raise SwrError(f"no task, workflow or engine named {task!r} in this release", file=release, field="--task")
    n = max((int(m.group(1)) for d in defects if (m := re.fullmatch(rf"{ID_PREFIX}(\d+)", d.id))), default=0)
    fields = {
        "id": f"{ID_PREFIX}{n + 1:03d}",
        "task": task,
        "kind": kind,
        "signal": signal,
        "summary": summary,
        "fix": fix,
        "test": test,
        "severity": severity,
        "status": "fixed" if fix.strip() else "open",
        "recorded": _today(recorded),
    }
    new = _option_error(fields)
    save(release, [*defects, new])
    return new


def fix(release: Path, defect_id: str, *, fix: str, test: str | None = None, commit: str | None = None) -> Defect:
    """Mark a defect fixed, with what fixed it (and the test that now holds, and the commit that fixed it)."""
    defects = load(release)
    for i, d in enumerate(defects):
        if d.id == defect_id:
            new = _option_error(
                {
                    **d.model_dump(),
                    "fix": fix,
                    "status": "fixed",
                    **({"test": test} if test is not None else {}),
                    **({"commit": commit} if commit is not None else {}),
                }
            )
            defects[i] = new
            save(release, defects)
            return new
    raise SwrError(
        f"no defect {defect_id!r} in this release's register", file=ReleasePaths(release).defects, field="ID"
    )


def _option_error(fields: dict[str, Any]) -> Defect:
    """A defect from command-line values; a bad one names the option."""
    try:
        return Defect.model_validate(fields)
    except ValidationError as e:
        err = e.errors()[0]
        name = str(err["loc"][0]) if err["loc"] else "fix"
        raise SwrError(err["msg"], field=f"--{name}") from None


def carry_defects(sources: list[Path], release: Path, built: set[str]) -> list[Defect]:
    """Write the release's defects.json: the entries of the given defects.toml files (those that exist,
    e.g. catalog/ and engines/) whose task is among the built workflows, engines or task ids."""
    carried: dict[str, tuple[Defect, Path]] = {}
    for src in sources:
        if not src.is_file():
            continue
        for i, d in enumerate(read_toml(src)):
            if d.id in carried:
                raise SwrError(f"duplicate id {d.id!r} (also in {carried[d.id][1]})", file=src, field=f"defect[{i}].id")
            carried[d.id] = (d, src)
    kept = [d for d, _ in carried.values() if matches(d.task, built)]
    if kept:  # a release with no known defect has no register (load reads that as empty)
        save(release, kept)
    return sorted(kept, key=lambda d: d.id)
