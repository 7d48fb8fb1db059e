"""The agent's workspace: a fresh directory holding only what an agent may see — instruction.md,
public/, a public-only task.toml, a `feedback` command and a git commit of that starting state."""

from __future__ import annotations

import difflib
import os
import shutil
import stat
import subprocess
from collections.abc import Callable, Container
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from swr.core.layout import CANDIDATE_RUN, PROTECTED, SOLUTION, TaskPaths, WorkspacePaths
from swr.sandbox import tree
from swr.sandbox.base import hand_over

if TYPE_CHECKING:
    from swr.kinds import AnyTask

GIT_ENV = {
    "GIT_AUTHOR_NAME": "swr",
    "GIT_AUTHOR_EMAIL": "swr@localhost",
    "GIT_COMMITTER_NAME": "swr",
    "GIT_COMMITTER_EMAIL": "swr@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": "/nonexistent",
}
MAX_DIFF_BYTES = 1 << 20
SNAPSHOT = tree.Bounds(bytes=256 << 20)  # what anti-cheat and the diff read of a workspace (memory)
EXPORT = tree.Bounds()  # what solution/ may hold to be graded and kept (disk)


@dataclass
class Workspace:
    root: Path
    start: dict[str, bytes]  # the starting files, kept outside the workspace for the diff and anti-cheat

    @property
    def solution(self) -> Path:
        return WorkspacePaths(self.root).solution


def feedback_script() -> str:
    """`./feedback` grades solution/ on the public examples; inside the agent's sandbox it runs the
    candidate unsandboxed, since that sandbox is already the boundary. `python3` is the sandbox PATH's:
    swr's own interpreter, on the host's root or in a task image."""
    return (
        f'#!/bin/sh\ncd "$(dirname "$0")" && exec python3 -m swr.cli feedback . {SOLUTION} '
        '--sandbox none --jobs 1 "$@"\n'
    )


def create(task: AnyTask, root: Path) -> Workspace:
    """A fresh workspace for one run; hidden scenarios and the private reference never enter it. A revival
    task's workspace is its broken project in solution/, with the instruction and ./feedback."""
    root.mkdir(parents=True, exist_ok=True)  # (its parent may be a fresh tmpfs)
    src, ws = TaskPaths(task.root), WorkspacePaths(root)
    shutil.copyfile(src.instruction, ws.instruction)
    shutil.copyfile(src.toml, ws.toml)
    ws.feedback.write_text(feedback_script())
    ws.feedback.chmod(0o755)
    task.start_workspace(ws.public, ws.solution)  # public/ and solution/ as the task's kind starts them
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "starting state")
    hand_over(root)  # the agent's sandbox user is not root: the workspace is its own
    return Workspace(root, snapshot(root))


def _git(root: Path, *args: str) -> None:
    """Git on the pristine, swr-written workspace only (never after an agent has touched it)."""
    env = {**{k: v for k, v in os.environ.items() if k == "PATH"}, **GIT_ENV}
    subprocess.run(["git", "-c", "core.hooksPath=/dev/null", *args], cwd=root, env=env, check=True, capture_output=True)


def snapshot(
    root: Path, notes: list[dict[str, Any]] | None = None, always: Container[str] = frozenset()
) -> dict[str, bytes]:
    """Every file under root but .git, read without following links or blocking: a regular file's
    first MAX_DIFF_BYTES (+1), a link or special file as a line saying what it is. Bounded (SNAPSHOT):
    past a bound the snapshot stops there and `notes` says so; files in `always` (the starting ones)
    are read whatever the agent added, so that a bound never looks like a changed protected file."""
    files: dict[str, bytes] = {}
    budget = _Budget(SNAPSHOT.bytes)

    def over(why: str) -> None:
        if notes is not None:
            notes.append({"kind": "workspace_not_read", "reason": why})

    for e in tree.walk(root, SNAPSHOT, over, skip=frozenset({".git"})):
        if stat.S_ISREG(e.st.st_mode):
            files[e.rel] = _read(e, budget, e.rel in always, over)
        elif stat.S_ISLNK(e.st.st_mode):
            files[e.rel] = b"[symbolic link to " + os.fsencode(_readlink(e)) + b"]\n"
        elif not stat.S_ISDIR(e.st.st_mode):
            files[e.rel] = f"[{tree.kind(e.st.st_mode)}]\n".encode()
    return files


@dataclass
class _Budget:
    left: int
    spent: bool = False


def _read(e: tree.Entry, budget: _Budget, always: bool, over: Callable[[str], None]) -> bytes:
    """A regular file's first MAX_DIFF_BYTES + 1 bytes, while the snapshot's budget lasts."""
    if budget.left <= 0 and not always:
        if not budget.spent:
            over(f"more than {SNAPSHOT.bytes >> 20} MiB of files")
            budget.spent = True
        return b"[not read]\n"
    data = tree.read_at(e.dir_fd, e.name, MAX_DIFF_BYTES + 1)
    budget.left -= len(data or b"")
    return data if data is not None else b"[not read]\n"


def _readlink(e: tree.Entry) -> str:
    try:
        return os.readlink(e.name, dir_fd=e.dir_fd)
    except OSError:
        return "?"


def export_solution(ws: Workspace, dest: Path) -> list[dict[str, Any]]:
    """solution/ as grading and the records see it: a real directory in the workspace whose `run` is a
    regular file, copied by tree.export (a link is never followed on the host). Raises tree.Rejected."""
    notes = tree.export(ws.solution, dest, EXPORT)
    if os.path.islink(dest / CANDIDATE_RUN):
        raise tree.Rejected(f"{SOLUTION}/run is a symbolic link, not a file")
    return notes


def diff(ws: Workspace, end: dict[str, bytes] | None = None) -> str:
    """Unified diff of the workspace against its starting state, computed in Python: running git on a
    repository an agent controlled could run its hooks, filters or fsmonitor on the host."""
    end = snapshot(ws.root) if end is None else end
    out: list[str] = []
    for name in sorted(set(ws.start) | set(end)):
        a, b = ws.start.get(name), end.get(name)
        if a == b:
            continue
        if _binary(a) or _binary(b):
            out.append(f"Binary files a/{name} and b/{name} differ\n")
            continue
        out += difflib.unified_diff(
            _lines(a),
            _lines(b),
            f"a/{name}" if a is not None else "/dev/null",
            f"b/{name}" if b is not None else "/dev/null",
        )
    text = "".join(out)
    return text if len(text) <= MAX_DIFF_BYTES else text[:MAX_DIFF_BYTES] + "\n[diff truncated]\n"


def protected_changes(ws: Workspace, end: dict[str, bytes] | None = None) -> list[str]:
    """Protected files the agent modified, added or deleted (`end`: a snapshot already taken)."""
    end = snapshot(ws.root) if end is None else end
    names = {n for n in set(ws.start) | set(end) if n.split("/")[0] in PROTECTED}
    return sorted(n for n in names if ws.start.get(n) != end.get(n))


def _binary(data: bytes | None) -> bool:
    return data is not None and b"\0" in data[:8192]


def _lines(data: bytes | None) -> list[str]:
    return [] if data is None else data.decode("utf-8", errors="replace").splitlines(keepends=True)
