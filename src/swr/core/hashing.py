"""Content hashes that key every cache and certify every release: one canonical JSON text per value, one
walk over a tree's files."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any


def canonical_json(obj: Any) -> str:
    """One text per JSON value: sorted keys, no whitespace, shortest float repr."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(obj: Any) -> str:
    return hashlib.sha256(canonical_json(obj).encode()).hexdigest()


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from labelled parts, so one workflow's draws never depend on another's."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def tree_hash(root: Path) -> str:
    """Content hash over every file under root: what `release.json` certifies."""
    h = hashlib.sha256()
    hash_files(h, root, root)
    return h.hexdigest()


def hash_files(h: Any, top: Path, base: Path) -> None:
    """Feed h every file under top, in a fixed order: its path relative to base, then its content's sha256."""
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for fn in sorted(filenames):
            p = Path(dirpath, fn)
            h.update(p.relative_to(base).as_posix().encode() + b"\0")
            h.update(hashlib.sha256(p.read_bytes()).digest())
