"""Auditing verifiers: how far a release's verdicts can be trusted."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError, load_json
from swr.core.layout import ReleasePaths


def save_result(release: Path, name: str, result: dict[str, Any]) -> Path:
    """Keep an audit's result beside the release (audit/<name>.json, outside the hashed tasks/), so the
    report and the training-data export show it without re-running a long audit."""
    path = ReleasePaths(release).audit_result(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(result, sort_keys=True, indent=2, allow_nan=False, default=str) + "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{name}.")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    return path


def saved_result(release: Path, name: str) -> dict[str, Any] | None:
    """What save_result kept, or None when that audit was not run (a malformed file is an error)."""
    path = ReleasePaths(release).audit_result(name)
    if not path.is_file():
        return None
    doc = load_json(path)
    if not isinstance(doc, dict):
        raise SwrError("an audit result is a JSON object", file=path)
    return doc
