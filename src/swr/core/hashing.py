"""Content hashes that key every cache and certify every release: one canonical JSON text per value, one
walk over a tree's files."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from swr.core.trees import KEEP_ALL, Ignore, skip_walk


def canonical_json(obj: Any) -> str:
    """One text per JSON value: sorted keys, no whitespace, shortest float repr."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(obj: Any) -> str:
    return hashlib.sha256(canonical_json(obj).encode()).hexdigest()


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from labelled parts, so one workflow's draws never depend on another's."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def tree_hash(root: Path, ignore: Ignore = KEEP_ALL) -> str:
    """Content hash over every file under root (relative paths and bytes, not mtimes): what `release.json`
    certifies with every file, and a workflow's `workflow_hash` with `ignore=trees.JUNK`."""
    h = hashlib.sha256()
    hash_files(h, root, root, ignore)
    return h.hexdigest()


def hash_files(h: Any, top: Path, base: Path, ignore: Ignore = KEEP_ALL) -> None:
    """Feed h every file under top but what `ignore` names, in a fixed order: its path relative to base, then
    its content's sha256. The one tree walk every stored hash (release, workflow, fingerprint, wheel key) uses."""
    for dirpath, dirnames, filenames in os.walk(top):
        for fn in skip_walk(dirnames, filenames, ignore):
            p = Path(dirpath, fn)
            h.update(p.relative_to(base).as_posix().encode() + b"\0")
            h.update(hashlib.sha256(p.read_bytes()).digest())
