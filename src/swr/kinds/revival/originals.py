"""The original of a revived project kept out of reach: its signature (distinctive normalised lines of the deleted
module), a bounded scan of files and archives for those lines, and the copies a revival sandbox must cover.

A copy is found by its content, not by its name: `setuptools/_vendor/more_itertools/recipes.py`, a renamed vendored
copy, a wheel in a cache or a `.pyc` holding the docstrings all carry the original's lines. A line is compared
stripped of its indentation, so a source file and the docstrings inside bytecode both match. This module runs in
swr's process (to decide what to cover) and, as a script, inside a sandbox (the scan test: what can be read
there); so it imports nothing of swr and uses no syntax newer than Python 3.8."""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import sys
import tarfile
import zipfile
from functools import cache
from pathlib import Path
from typing import cast

MIN_LEN = 30  # a normalised line shorter than this is too common to tell a copy (`return result`)
HITS = 3  # lines of the signature a file must hold to be a copy
MAX_FILE = 64 << 20  # larger files are not read (no Python module or wheel of a small project is this big)
MAX_MEMBER = 8 << 20
ARCHIVE_MAGIC = (b"PK\x03\x04", b"\x1f\x8b")  # zip (wheel, egg, pyz), gzip (an sdist)
ELF = b"\x7fELF"
HEAD = 4096  # what is read first to tell text, bytecode and archives from other binary files
SKIP = ("/proc", "/sys", "/dev")
# what swr's own scan (what to cover) reads: Python sources, bytecode and archives. The scan test inside a sandbox
# reads every file (suffixes=None); the host-side scan would take minutes over /usr and swr's environment else
PYTHON_FILES = (
    ".py",
    ".pyi",
    ".pyw",
    ".pyx",
    ".pxd",
    ".pyc",
    ".pyo",
    ".whl",
    ".zip",
    ".egg",
    ".pyz",
    ".tar.gz",
    ".tgz",
    ".tar.bz2",
    ".tar",
)
RULES = [MIN_LEN, HITS, PYTHON_FILES, 5]  # what a cached scan depends on besides the roots and the signature
SIGNATURE = "original-lines.json"  # under a task's private/: written by the build, read by grading


def normal_lines(data: bytes) -> set[bytes]:
    """Every line of `data`, stripped: how a signature line is looked for in a source, bytecode or text file."""
    return {ln.strip() for ln in data.split(b"\n")}


def signature(sources: list[bytes], limit: int = 0) -> list[str]:
    """The distinctive lines of the original module(s): stripped, at least MIN_LEN long, found once in them.
    `limit` keeps that many, spread evenly over the module (0: all of them)."""
    counts: dict[str, int] = {}
    order: list[str] = []
    for src in sources:
        for raw in src.decode("utf-8", errors="replace").splitlines():
            for line in _variants(raw.strip()):
                if len(line) >= MIN_LEN and not line.startswith("#"):
                    if line not in counts:
                        order.append(line)
                    counts[line] = counts.get(line, 0) + 1
    lines = [ln for ln in order if counts[ln] == 1]
    if limit and len(lines) > limit:
        lines = [lines[i * len(lines) // limit] for i in range(limit)]
    return lines


def _variants(line: str) -> list[str]:
    """A line, and a docstring's line without its quotes as well: bytecode keeps the text, not the quotes."""
    inner = line
    for q in ('"""', "'''"):
        inner = inner[len(q) :] if inner.startswith(q) else inner
        inner = inner[: -len(q)] if inner.endswith(q) else inner
    return [line, inner.strip()] if inner.strip() != line else [line]


def holds(data: bytes, sig: set[bytes], hits: int = HITS) -> bool:
    """Whether data (a file's bytes) carries at least `hits` lines of the signature. In bytecode a one-line
    docstring or string constant sits between marshal's bytes, not on a line of its own: it is searched for."""
    want = min(hits, len(sig))
    if data[2:4] == b"\r\n":
        return sum(line in data for line in sig) >= want
    return len(sig & normal_lines(data)) >= want


def _members(data: bytes) -> list[tuple[str, bytes]]:
    """(name, bytes) of the regular members of a zip or (gzipped) tar archive, each at most MAX_MEMBER; [] for
    anything else or a broken archive."""
    out = []
    try:
        if data[:4] == ARCHIVE_MAGIC[0]:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                for info in z.infolist():
                    if not info.is_dir() and info.file_size <= MAX_MEMBER:
                        out.append((info.filename, z.read(info)))
        elif data[:2] == ARCHIVE_MAGIC[1]:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as t:
                for m in t.getmembers():
                    f = t.extractfile(m) if m.isfile() and m.size <= MAX_MEMBER else None
                    if f is not None:
                        out.append((m.name, f.read()))
    except Exception:  # noqa: BLE001 — a corrupt or hostile archive is just not a copy
        return []
    return out


def _may_hold(head: bytes) -> bool:
    """Whether a file starting with `head` can hold a line of Python source: text (no NUL byte), bytecode (a
    `.pyc` magic: two bytes and CR LF) or an archive; not machine code, images, fonts, compiled data (most of the
    bytes of a system), whatever their name."""
    return (b"\0" not in head or head[2:4] == b"\r\n" or head.startswith(ARCHIVE_MAGIC)) and not head.startswith(ELF)


def copy_in(path: str, sig: set[bytes], hits: int = HITS) -> str | None:
    """Where in the regular file `path` the original is ("" for the file itself, a member's name inside an
    archive), or None. Unreadable, special and oversized files are None."""
    try:
        st = os.stat(path, follow_symlinks=False)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE or st.st_size == 0:
            return None
        with open(path, "rb") as f:
            head = f.read(HEAD)
            if not _may_hold(head):
                return None
            data = head + f.read(MAX_FILE)
    except OSError:
        return None
    if holds(data, sig, hits):
        return ""
    if data[:4] == ARCHIVE_MAGIC[0] or data[:2] == ARCHIVE_MAGIC[1]:
        for name, member in _members(data):
            if holds(member, sig, hits) or (
                member[:4] == ARCHIVE_MAGIC[0] and any(holds(m, sig, hits) for _, m in _members(member))
            ):
                return name
    return None


def scan(
    roots: list[str],
    lines: list[str],
    hits: int = HITS,
    max_files: int = 2_000_000,
    skip: tuple[str, ...] = SKIP,
    suffixes: tuple[str, ...] | None = None,
) -> dict[str, object]:
    """Every regular file under `roots` (links not followed; /proc, /sys and /dev skipped; at most max_files; only
    names ending in `suffixes` when given) that holds the signature, itself or in an archive:
    {"hits": [[path, member], ...], "files": n, "truncated": bool}. Bytecode in a `__pycache__` beside its source
    is not read: the source holds every line it does, and is read."""
    sig = {ln.encode() for ln in lines}
    found: list[list[str]] = []
    seen = 0
    for root in roots:
        for d, dirs, files in os.walk(root):
            if d.startswith(skip) and any(d == s or d.startswith(s + "/") for s in skip):
                dirs[:] = []
                continue
            dirs.sort()
            for name in sorted(files):
                if (suffixes is not None and not name.endswith(suffixes)) or _compiled_beside_source(d, name):
                    continue
                seen += 1
                if seen > max_files:
                    return {"hits": found, "files": seen, "truncated": True}
                p = os.path.join(d, name)
                where = copy_in(p, sig, hits)
                if where is not None:
                    found.append([p, where])
    return {"hits": found, "files": seen, "truncated": False}


def _compiled_beside_source(d: str, name: str) -> bool:
    """A `__pycache__/x.cpython-3N.pyc` compiled from the `x.py` beside it (its header records that source's size:
    a stub bound over the source does not pass): the source holds every line its bytecode does (half of an
    environment's files)."""
    if not (name.endswith(".pyc") and os.path.basename(d) == "__pycache__"):
        return False
    try:
        with open(os.path.join(d, name), "rb") as f:
            head = f.read(16)
        size = os.stat(os.path.join(os.path.dirname(d), name.split(".")[0] + ".py")).st_size
    except OSError:
        return False
    return len(head) == 16 and head[4:8] == b"\0\0\0\0" and int.from_bytes(head[12:16], "little") == size & 0xFFFFFFFF


def cover_for(path: Path, member: str = "") -> list[Path]:
    """What to cover for a copy found in `path` (`member`: inside that archive): the package directory holding
    it (a vendored copy is the whole project: its other modules too), or the file itself (a top-level module, an
    archive) with the bytecode compiled from it."""
    if member:
        return [path]
    d = path.parent.parent if path.parent.name == "__pycache__" else path.parent
    if (d / "__init__.py").is_file() or (d / "__init__.pyi").is_file():
        return [d]
    stem = path.name.split(".")[0]
    return [path, *sorted((d / "__pycache__").glob(f"{stem}.*.pyc")), *([d / f"{stem}.py"] if path.parent != d else [])]


def copies(roots: tuple[Path, ...], lines: tuple[str, ...], cache: Path | None = None) -> tuple[Path, ...]:
    """What a sandbox mounting `roots` must cover so that no copy of the original is readable there. The scan
    reads every Python file and archive of the roots (a minute or more for /usr and swr's environment): each
    root's result is kept in `cache` under a key of the signature and the root's every directory with its mtime
    (an install, a removal or a rename changes one)."""
    if not lines:
        return ()
    found: set[Path] = set()
    for root in dict.fromkeys(str(r) for r in roots if r.is_dir()):
        found |= set(_root_copies(root, lines, cache))
    return tuple(sorted(found))


def _root_copies(root: str, lines: tuple[str, ...], cache: Path | None) -> list[Path]:
    key = hashlib.sha256(json.dumps([RULES, sorted(lines), _fingerprint(root)]).encode()).hexdigest()[:32]
    if cache is not None:
        try:
            return [Path(p) for p in json.loads((cache / f"{key}.json").read_text())]
        except (OSError, ValueError):
            pass
    hits = cast("list[list[str]]", scan([root], list(lines), suffixes=PYTHON_FILES)["hits"])
    out = sorted({c for p, m in hits for c in cover_for(Path(p), m) if os.path.lexists(c)})
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        tmp = cache / f".{key}.{os.getpid()}"
        tmp.write_text(json.dumps([str(p) for p in out]))
        os.replace(tmp, cache / f"{key}.json")
    return out


@cache
def _fingerprint(root: str) -> str:
    """A hash of (path, mtime) of every directory under root: what a new, removed or renamed file changes. Once
    per process (a walk of /usr takes seconds), as hide.py computes its covers."""
    out: list[list[object]] = []
    for d, dirs, _ in os.walk(root):
        dirs.sort()
        try:
            out.append([d, os.stat(d).st_mtime_ns])
        except OSError:
            continue
    return hashlib.sha256(json.dumps(out).encode()).hexdigest()


def write_signature(private: Path, sources: list[bytes]) -> None:
    (private / SIGNATURE).write_text(json.dumps({"lines": signature(sources)}, indent=1) + "\n")


def read_signature(private: Path) -> tuple[str, ...]:
    f = private / SIGNATURE
    return tuple(json.loads(f.read_text())["lines"]) if f.is_file() else ()


def main() -> None:
    """In a sandbox: stdin {"roots": [...], "lines": [...], "hits": n}; stdout the scan's JSON."""
    req = json.loads(sys.stdin.read())
    print(json.dumps(scan(req.get("roots", ["/"]), req["lines"], int(req.get("hits", HITS)))))


if __name__ == "__main__":
    main()
