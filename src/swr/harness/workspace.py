"""The agent's workspace: a fresh directory holding only what an agent may see — instruction.md,
public/, a public-only task.toml, a `feedback` command and a git commit of that starting state."""
from __future__ import annotations

import difflib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from swr.release import INSTRUCTION, TASK_TOML, Task

SOLUTION = "solution"
FEEDBACK = "feedback"
PROTECTED = (INSTRUCTION, TASK_TOML, FEEDBACK, "public")  # an agent must not change these
GIT_ENV = {"GIT_AUTHOR_NAME": "swr", "GIT_AUTHOR_EMAIL": "swr@localhost", "GIT_COMMITTER_NAME": "swr",
           "GIT_COMMITTER_EMAIL": "swr@localhost", "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
           "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}
MAX_DIFF_BYTES = 1 << 20


@dataclass
class Workspace:
    root: Path
    start: dict[str, bytes]  # the starting files, kept outside the workspace for the diff and anti-cheat

    @property
    def solution(self) -> Path:
        return self.root / SOLUTION


def feedback_script() -> str:
    """`./feedback` grades solution/ on the public examples; inside the agent's sandbox it runs the
    candidate unsandboxed, since that sandbox is already the boundary. `python3` is the sandbox PATH's:
    swr's own interpreter, on the host's root or in a task image."""
    return (f"#!/bin/sh\ncd \"$(dirname \"$0\")\" && exec python3 -m swr.cli feedback . {SOLUTION} "
            "--sandbox none --jobs 1 \"$@\"\n")


def create(task: Task, root: Path) -> Workspace:
    """A fresh workspace for one run; hidden scenarios and the private reference never enter it."""
    root.mkdir(parents=True)
    shutil.copyfile(task.root / INSTRUCTION, root / INSTRUCTION)
    shutil.copyfile(task.root / TASK_TOML, root / TASK_TOML)
    shutil.copytree(task.root / "public", root / "public")
    (root / FEEDBACK).write_text(feedback_script())
    (root / FEEDBACK).chmod(0o755)
    (root / SOLUTION).mkdir()
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "starting state")
    return Workspace(root, snapshot(root))


def _git(root: Path, *args: str) -> None:
    """Git on the pristine, swr-written workspace only (never after an agent has touched it)."""
    env = {**{k: v for k, v in os.environ.items() if k == "PATH"}, **GIT_ENV}
    subprocess.run(["git", "-c", "core.hooksPath=/dev/null", *args], cwd=root, env=env, check=True,
                   capture_output=True)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every regular file under root (not .git), read without following links."""
    files: dict[str, bytes] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != ".git" and not os.path.islink(os.path.join(dirpath, d)))
        for fn in sorted(filenames):
            p = os.path.join(dirpath, fn)
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p, "rb") as f:
                    files[os.path.relpath(p, root)] = f.read(MAX_DIFF_BYTES + 1)
    return files


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
        out += difflib.unified_diff(_lines(a), _lines(b), f"a/{name}" if a is not None else "/dev/null",
                                    f"b/{name}" if b is not None else "/dev/null")
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
