"""Execution cache: finished reference runs keyed by content hash, so a killed build resumes."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from swr.core.cachedir import default_cache_dir
from swr.core.hashing import content_hash
from swr.kinds.workflow.spec import WorkflowSpec
from swr.sandbox import RunResult

FORMAT = 3  # what an execution is; 2: a hidden scenario's second run (3) and a `command` one's (2) are the
# oracle's; 3: an `entry` one's second run (2) is a warm call in the oracle's fork server


@cache
def environment_fingerprint(pip: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Installed versions of a workflow's pip requirements: an upgrade invalidates its cache."""
    out = {}
    for req in pip:
        name = req.split(";")[0]
        for sep in "<>=!~[ ":
            name = name.split(sep)[0]
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "missing"
    return tuple(sorted(out.items()))


class ExecutionCache:
    """One JSON file per successful execution, written atomically (tmp + rename)."""

    def __init__(self, root: Path | None = None, enabled: bool = True):
        self.root = (root or default_cache_dir()) / "executions"
        self.enabled = enabled

    def key(self, spec: WorkflowSpec, scenario: dict[str, Any], run: int) -> str:
        return content_hash(
            {
                "workflow": spec.content_hash,
                "env": environment_fingerprint(tuple(spec.requires.pip)),
                "command": spec.describe_command(),
                "scenario": scenario,
                "run": run,
                "format": FORMAT,
            }
        )

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def _files(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.files"

    def get(self, key: str) -> RunResult | None:
        if not self.enabled:
            return None
        try:
            rec = json.loads(self._path(key).read_text())
        except (OSError, ValueError):
            return None
        files = self._files(key) if rec.get("artifacts") else None
        if files is not None and not files.is_dir():
            return None
        return RunResult(0, rec["stdout"].encode(), b"", None, rec.get("wall_s", 0.0), files)

    def put(self, key: str, res: RunResult) -> None:
        """Artifacts are copied first and the record written last, so a record always has its files."""
        if not self.enabled or not res.ok:
            return  # failures are re-run: they may be the machine's, not the workflow's
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        has_files = res.artifacts is not None and any(res.artifacts.iterdir())
        if has_files:
            self._store_files(key, res.artifacts)  # type: ignore[arg-type]
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w") as f:
            json.dump(
                {
                    "stdout": res.stdout.decode("utf-8", errors="surrogateescape"),
                    "wall_s": res.wall_s,
                    "artifacts": has_files,
                },
                f,
            )
        os.replace(tmp, path)

    def _store_files(self, key: str, src: Path) -> None:
        final = self._files(key)
        tmp = Path(tempfile.mkdtemp(dir=final.parent, prefix=".tmp-"))
        for f in src.iterdir():
            if f.is_file() and not f.is_symlink():
                shutil.copyfile(f, tmp / f.name)
        shutil.rmtree(final, ignore_errors=True)  # a leftover of a killed run, never a live record's
        os.replace(tmp, final)
