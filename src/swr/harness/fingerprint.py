"""A task's public fingerprint: a hash of exactly what its agent is shown (the instruction, public/ with
schema, examples, files and an engine's spec.md, and task.toml without the verifier's settings). Two
releases whose task has the same fingerprint gave an agent the same information, so a run made on one
may be re-scored with the other's verifier (`swr regrade`); `tree_hash` covers the private part too."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.core.hashing import hash_files
from swr.core.layout import TaskPaths

# task.toml keys that configure grading, not the task: a verifier fix may change them without changing what
# the agent had to do (`workflow_hash` is the private workflow's hash, which any such fix changes too).
VERIFIER_KEYS = frozenset({"tolerances", "grading", "limits", "workflow_hash", "lint"})


def public_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """task.toml's table as far as it specifies the task (the verifier's settings left out)."""
    return {k: v for k, v in meta.items() if k not in VERIFIER_KEYS}


def public_hash(root: Path) -> str:
    """sha256 over the task's public part; independent of mtimes and of the private half."""
    at = TaskPaths(Path(root))
    h = hashlib.sha256()
    try:
        meta = tomllib.loads(at.toml.read_text())
        instruction = at.instruction.read_bytes()
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SwrError(f"not a readable task: {e}", file=root) from None
    h.update(json.dumps(public_meta(meta), sort_keys=True, default=str).encode() + b"\0")
    h.update(hashlib.sha256(instruction).digest())
    hash_files(h, at.public, at.root)
    return h.hexdigest()
