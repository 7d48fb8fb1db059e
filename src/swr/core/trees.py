"""Copies of trees swr itself owns (workflow, engine and revival sources, task directories, sandbox layers),
with ONE list of what is never worth copying or hashing. Trees a sandbox made (a candidate's solution, an
agent's logs) are untrusted and leave it through `swr.sandbox.tree.export` instead, which never follows a
link and is bounded; this module trusts its source and is a thin, named layer over `shutil.copytree`."""

from __future__ import annotations

import fnmatch
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Ignore:
    """Names skipped wherever they occur, as files or directories (shutil.ignore_patterns' rule): exact
    names and fnmatch globs. Sets combine with `|`."""

    names: frozenset[str] = frozenset()
    globs: tuple[str, ...] = ()

    def __call__(self, name: str) -> bool:
        return name in self.names or any(fnmatch.fnmatchcase(name, g) for g in self.globs)

    def __or__(self, other: Ignore) -> Ignore:
        return Ignore(self.names | other.names, self.globs + tuple(g for g in other.globs if g not in self.globs))

    def for_copytree(self) -> Callable[[str, list[str]], set[str]] | None:
        """The `ignore=` callable shutil.copytree wants (None when nothing is skipped)."""
        if not self.names and not self.globs:
            return None
        return lambda _dir, names: {n for n in names if self(n)}


# THE ignore list: bytecode, VCS and tool caches, packaging metadata. Each is what some copy or hash skipped
# before they were unified, and none is part of what a workflow, engine or project means: the workflow hash
# (release.json's `workflow_hash`) and the copies into a release agree on it.
JUNK = Ignore(
    frozenset({"__pycache__", ".git", ".pytest_cache", ".mypy_cache", ".tox", ".eggs"}), ("*.pyc", "*.egg-info")
)

# Exact copies: a tree whose every file is meaningful as it stands (a project an agent is given, a candidate
# assembled for grading, run artifacts, a sandbox's layer or /etc view). Dropping a `.git` or a `build/` the
# project ships would change the task.
KEEP_ALL = Ignore()

# An upstream project's build outputs: a revival's original source is rebuilt from scratch, so an sdist's
# `build/` and `dist/` are stale products, not source.
BUILD_OUTPUTS = Ignore(frozenset({"build", "dist"}))


def copy_tree(src: Path, dst: Path, *, ignore: Ignore = JUNK, symlinks: bool = False, merge: bool = False) -> Path:
    """Copy src to dst without what `ignore` names; `symlinks` keeps links as links (else their targets are
    copied); `merge` writes into an existing dst (later layers overwrite earlier files)."""
    return Path(shutil.copytree(src, dst, ignore=ignore.for_copytree(), symlinks=symlinks, dirs_exist_ok=merge))


def skip_walk(dirnames: list[str], filenames: Iterable[str], ignore: Ignore) -> list[str]:
    """For os.walk: prune `dirnames` in place (sorted, so walks are ordered) and return the kept file names,
    sorted."""
    dirnames[:] = sorted(d for d in dirnames if not ignore(d))
    return sorted(f for f in filenames if not ignore(f))
