"""Artifact fields: output strings that name files the program wrote to $SWR_ARTIFACTS.

The file, not its name, is what gets graded: JSON comparison sees a mask in its place, the domain
comparator judges the file, and equality checks (gates, anti-shortcut) see its content digest."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from swr.core.layout import EXAMPLE_FILES

from ..compare import Mismatch, dotted
from ..leaves import Where, walk
from ..tolerance import Tolerances
from . import ArtifactResult, artifact_kind, check_options, compare_artifact
from .bounded import compare_bounded

if TYPE_CHECKING:
    from .code import CodeRunner

RESERVED = frozenset(EXAMPLE_FILES)  # the example files that live beside artifacts
MASK = "<artifact>"
DIGEST_CAP = 1 << 30  # bytes hashed per artifact: the sandbox's disk cap


@dataclass(frozen=True)
class Reference:
    """A reference output and the directory its artifact files are in (None: it has none)."""

    output: Any
    files: Path | None = None


def as_reference(ref: Any) -> Reference:
    return ref if isinstance(ref, Reference) else Reference(ref)


def safe_file(directory: Path | None, name: Any) -> Path | None:
    """The regular file `name` directly inside `directory`; never a link, a fifo or a path elsewhere."""
    if directory is None or not isinstance(name, str) or not name or name in (".", ".."):
        return None
    if "/" in name or "\\" in name or "\0" in name:
        return None
    path = directory / name
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return None
    return path if stat.S_ISREG(mode) else None


def artifact_leaves(ref: Reference, tol: Tolerances) -> list[tuple[Where, str]]:
    """Graded string leaves of the reference that name one of its artifact files, in document order."""
    if ref.files is None or not ref.files.is_dir():
        return []
    names = {n for n in os.listdir(ref.files) if n not in RESERVED}
    if not names:
        return []
    return [
        (path, node)
        for path, node in walk(ref.output)  # graded checked on names only: arrays stay cheap
        if isinstance(node, str) and node in names and tol.for_path(path) is not None and safe_file(ref.files, node)
    ]


def get_at(doc: Any, path: Where) -> Any:
    """The value at `path`, or None when the path does not exist."""
    for seg in path:
        if isinstance(doc, dict) and isinstance(seg, str) and seg in doc:
            doc = doc[seg]
        elif isinstance(doc, list) and isinstance(seg, int) and seg < len(doc):
            doc = doc[seg]
        else:
            return None
    return doc


def replaced(doc: Any, path: Where, value: Any) -> Any:
    """A copy of `doc` with the leaf at `path` replaced (containers along the path copied)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(doc, dict):
        return {**doc, head: replaced(doc[head], rest, value)}
    out = list(doc)
    out[head] = replaced(doc[head], rest, value)  # type: ignore[index]
    return out


def digest(path: Path) -> str:
    """The content hash equality checks compare. A file past DIGEST_CAP (only a sparse one can be,
    under the sandbox's disk cap) is hashed by its first DIGEST_CAP bytes and its size, so an
    exabyte-long hole cannot keep the judge reading."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        left = min(size, DIGEST_CAP)
        while left > 0 and (chunk := f.read(min(left, 1 << 20))):
            h.update(chunk)
            left -= len(chunk)
    if size > DIGEST_CAP:
        return f"artifact:sha256-head:{h.hexdigest()}:size:{size}"
    return "artifact:sha256:" + h.hexdigest()


def substitute(doc: Any, leaves: list[tuple[Where, str]], files: Path | None, how: str) -> Any:
    """`doc` with each artifact leaf (a string naming a file in `files`) replaced by MASK or the file's digest."""
    for path, _ in leaves:
        name = get_at(doc, path)
        if not isinstance(name, str):
            continue
        f = safe_file(files, name)
        doc = replaced(doc, path, MASK if how == "mask" else (digest(f) if f else f"artifact:absent:{name}"))
    return doc


def judge_files(
    ref: Reference,
    leaves: list[tuple[Where, str]],
    doc: Any,
    files: Path | None,
    tol: Tolerances,
    trusted: bool = False,
    runner: CodeRunner | None = None,
) -> list[Mismatch]:
    """One artifact_mismatch per artifact field whose candidate file the domain comparator rejects;
    `trusted`: the files are swr's own (see compare_file); `runner`: the task's sandbox, for code artifacts."""
    bad: list[Mismatch] = []
    for path, name in leaves:
        got = get_at(doc, path)
        if not isinstance(got, str):
            continue  # the JSON comparison already reports a missing key or a wrong type
        res = compare_file(ref.files / name, safe_file(files, got), got, path, tol, trusted, runner)  # type: ignore[operator]
        if not res.ok:
            bad.append(Mismatch(dotted(path), "artifact_mismatch", name, res.detail))
    return bad


def same_bytes(a: Path, b: Path) -> bool:
    """Byte equality, read in blocks: identical files need no domain comparator."""
    if a.stat().st_size != b.stat().st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while block := fa.read(1 << 20):
            if block != fb.read(len(block)):
                return False
    return True


def compare_file(
    reference: Path,
    candidate: Path | None,
    name: str,
    path: Where,
    tol: Tolerances,
    trusted: bool = False,
    runner: CodeRunner | None = None,
) -> ArtifactResult:
    """Identical bytes pass here; anything else is decoded in the bounded child (bounded.py), the only
    place candidate bytes meet a decoder. `trusted`: both files are swr's own (the reference's runs in the
    build's gates, the audits' mutants of them), decoded here: a child per comparison would cost the build
    and the audits a process start each, for files no agent wrote. Generated code is first run by `runner` in
    the task's sandbox (code.judge_code); what it returned is what gets compared."""
    if candidate is None:
        return ArtifactResult(False, artifact_kind(reference), {}, f"no regular file {name!r} in $SWR_ARTIFACTS")
    if same_bytes(reference, candidate):
        check_options(artifact_kind(reference), tol.options_for(path))
        return ArtifactResult(True, artifact_kind(reference), {"bytes": {"ok": True, "expected": "identical"}})
    atol, rtol = tol.for_path(path) or (tol.atol, tol.rtol)
    options = tol.options_for(path)
    check_options(artifact_kind(reference), options)  # the task's mistake, raised here before any child starts
    if artifact_kind(reference) == "code":
        from .code import judge_code

        def records(ref: Path, cand: Path) -> ArtifactResult:
            if trusted:
                return compare_artifact(ref, cand, atol=atol, rtol=rtol, options=options, kind="code")
            return compare_bounded(ref, cand, atol=atol, rtol=rtol, options=options, kind="code")

        return judge_code(reference, candidate, atol, rtol, options, runner, records)
    if trusted:
        return compare_artifact(reference, candidate, atol=atol, rtol=rtol, options=options)
    return compare_bounded(reference, candidate, atol=atol, rtol=rtol, options=options, kind=artifact_kind(reference))


__all__ = [
    "MASK",
    "RESERVED",
    "Reference",
    "artifact_leaves",
    "as_reference",
    "digest",
    "get_at",
    "judge_files",
    "replaced",
    "safe_file",
    "substitute",
]
