"""A release directory as a whole: its task directories, its summary, and sealing a build into it (writing only
where `swr.core.outputs.claim` allows)."""

from __future__ import annotations

from pathlib import Path

from swr.core import outputs
from swr.core.errors import SwrError
from swr.core.hashing import tree_hash
from swr.core.layout import ReleasePaths, TaskPaths
from swr.core.recordfile import read_record, write_record
from swr.core.release_file import ReleaseFile


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def task_dir(release: Path, task_id: str) -> Path:
    return ReleasePaths(release).task(task_id).root


def list_tasks(release: str | Path) -> list[Path]:
    d = ReleasePaths(Path(release)).tasks
    if not d.is_dir():
        raise SwrError(f"not a release (no {d.name}/ directory)", file=release)
    return sorted(p for p in d.iterdir() if TaskPaths(p).toml.is_file())


def load_release(release: str | Path) -> ReleaseFile:
    """A release's release.json as its model (missing or not one: a line naming the file and the field)."""
    return read_record(ReleaseFile, ReleasePaths(Path(release)).summary)


def finish_release(staging: Path, final: Path, summary: ReleaseFile, force: bool = False) -> None:
    """Seal: hash the tasks, write release.json, then swap the staging dir in (replacing only what
    `swr.core.outputs.claim` allowed: an empty directory or an earlier release)."""
    at = ReleasePaths(staging)
    sealed = summary.model_validate(
        {**summary.model_dump(exclude_unset=True), "content_hash": tree_hash(at.tasks) if at.tasks.is_dir() else None}
    )
    write_record(at.summary, sealed)
    outputs.claim(final, outputs.RELEASE, force)  # checked again: the build took a while
    outputs.swap_in(staging, final)


def staging_dir(final: Path) -> Path:
    """Where a build writes before the release is swapped in whole: a fresh directory beside it."""
    return outputs.scratch_beside(final, "partial")
