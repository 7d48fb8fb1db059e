"""Normalised line-level similarity between an original module and its rebuild (ReviveBench's contamination
measure: how much of the original text a rebuild or an obfuscated copy still shares, line for line).

Normalisation, for a Python file (one that `tokenize` accepts): comments, blank lines, indentation and
line breaks are dropped; each remaining physical line becomes its tokens joined by one space, so `a=b` and
`a = b  # note` are the same line, while a renamed identifier or a requoted string is a different one.
A token spanning several lines (a triple-quoted string) counts on the line it starts on. Any other file:
each line stripped, runs of whitespace collapsed to one space, blank lines dropped. Optionally every
identifier that is not a keyword or builtin becomes `ID` (`canonical_identifiers`), which measures shape
rather than naming.

Ratio: difflib.SequenceMatcher over the two sequences of normalised lines (autojunk off), i.e.
2*M / (n_original + n_rebuilt) where M is the number of lines in matching blocks. Two empty sides give 1.0.
A folder is the concatenation of its `*.py` files in sorted relative-path order (file names do not count,
so a renamed module is compared by content).
"""

from __future__ import annotations

import ast
import bisect
import builtins
import difflib
import io
import keyword
import tokenize
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from swr.core.errors import SwrError

_SKIP = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENCODING,
    tokenize.ENDMARKER,
}
_KEEP_NAMES = set(keyword.kwlist) | set(keyword.softkwlist) | set(dir(builtins))
NORMALISATION = (
    "python: tokens per physical line joined by one space, comments/blank lines/indentation "
    "dropped; other text: whitespace collapsed, blank lines dropped; ratio = difflib "
    "SequenceMatcher over normalised lines"
)


@dataclass(frozen=True)
class SimilarityReport:
    """The ratio and the counts behind it, so a reader can recompute 2*M/(a+b)."""

    original: str
    rebuilt: str
    ratio: float
    original_lines: int
    rebuilt_lines: int
    matching_lines: int
    canonical_identifiers: bool
    normalisation: str = NORMALISATION

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def _python_rows(text: str) -> tuple[dict[int, str], dict[int, str]] | None:
    """{physical line number: its tokens joined}, plain and with canonical identifiers (one pass), or None when
    the text is not tokenizable Python."""
    plain: dict[int, list[str]] = {}
    canon: dict[int, list[str]] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in _SKIP:
                continue
            value = tok.string
            plain.setdefault(tok.start[0], []).append(value)
            if tok.type == tokenize.NAME and value not in _KEEP_NAMES:
                value = "ID"
            canon.setdefault(tok.start[0], []).append(value)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return {r: " ".join(plain[r]) for r in sorted(plain)}, {r: " ".join(canon[r]) for r in sorted(canon)}


def _python_lines(text: str, canonical: bool) -> list[str] | None:
    rows = _python_rows(text)
    return None if rows is None else list(rows[canonical].values())


def normalise(text: str, *, canonical_identifiers: bool = False) -> list[str]:
    """The normalised lines of one file's text (see the module docstring for the exact rules)."""
    lines = _python_lines(text, canonical_identifiers)
    if lines is not None:
        return lines
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise SwrError(f"cannot read: {e.strerror}", file=path) from None


def lines_of(path: Path, *, canonical_identifiers: bool = False) -> list[str]:
    """A file's normalised lines, or those of a folder's `*.py` files concatenated in sorted order."""
    if path.is_dir():
        files = sorted(p for p in path.rglob("*.py") if p.is_file() and "__pycache__" not in p.parts)
        if not files:
            raise SwrError("folder holds no *.py file to compare", file=path)
        return [ln for f in files for ln in normalise(_read(f), canonical_identifiers=canonical_identifiers)]
    if not path.is_file():
        raise SwrError("no such file or folder", file=path)
    return normalise(_read(path), canonical_identifiers=canonical_identifiers)


def similarity(original: Path, rebuilt: Path, *, canonical_identifiers: bool = False) -> SimilarityReport:
    """How much of `original` survives in `rebuilt`, as a ratio in [0, 1] over normalised lines."""
    a = lines_of(original, canonical_identifiers=canonical_identifiers)
    b = lines_of(rebuilt, canonical_identifiers=canonical_identifiers)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    matching = sum(block.size for block in matcher.get_matching_blocks())
    ratio = 1.0 if not a and not b else 2.0 * matching / (len(a) + len(b))
    return SimilarityReport(
        original=str(original),
        rebuilt=str(rebuilt),
        ratio=round(ratio, 6),
        original_lines=len(a),
        rebuilt_lines=len(b),
        matching_lines=matching,
        canonical_identifiers=canonical_identifiers,
    )


def blocks(text: str, *, canonical_identifiers: bool = False) -> list[tuple[str, ...]]:
    """A file's normalised lines grouped by top-level statement (a function or class with its decorators and
    body, an import, an assignment), in file order. Not Python: one block per line."""
    return shapes(text)[canonical_identifiers][1]


def shapes(text: str) -> dict[bool, tuple[list[str], list[tuple[str, ...]]]]:
    """{canonical_identifiers: (normalised lines, blocks)} for both settings, from one tokenizing pass."""
    rows = _python_rows(text)
    try:
        body = ast.parse(text).body if rows is not None else None
    except (SyntaxError, ValueError, RecursionError):
        body = None
    if rows is None or body is None:
        out: dict[bool, tuple[list[str], list[tuple[str, ...]]]] = {}
        for canonical in (False, True):
            lines = normalise(text, canonical_identifiers=canonical)
            out[canonical] = (lines, [(ln,) for ln in lines])
        return out
    starts = sorted(min([s.lineno, *(d.lineno for d in getattr(s, "decorator_list", []))]) for s in body)
    found = {}
    for canonical in (False, True):
        grouped: list[list[str]] = [[] for _ in starts]
        for row, line in rows[canonical].items():
            grouped[max(bisect.bisect_right(starts, row) - 1, 0)].append(line)
        found[canonical] = (list(rows[canonical].values()), [tuple(b) for b in grouped if b])
    return found


def block_coverage(
    original: list[tuple[str, ...]], rebuilt: list[tuple[str, ...]], tries: int = 200
) -> tuple[float, int]:
    """(share of the original's lines found again, that count): each original block takes the rebuilt block
    that shares most lines with it (SequenceMatcher, in order within the block), wherever that block is. Moving
    definitions around or padding a copy with other code does not lower it. Identical rebuilt blocks count
    once, and each original block is matched against at most `tries` of them (those sharing most lines): the
    rebuild is untrusted input, and its size must not decide how long grading takes."""
    total = sum(len(b) for b in original)
    rebuilt = list(dict.fromkeys(rebuilt))
    index: dict[str, list[tuple[int, int]]] = {}
    for i, rb in enumerate(rebuilt):
        for ln, k in Counter(rb).items():
            index.setdefault(ln, []).append((i, k))
    found = 0
    for ob in original:
        shared: Counter[int] = Counter()
        for ln, k in Counter(ob).items():
            for i, n in index.get(ln, ()):
                shared[i] += min(k, n)
        best = 0
        for i, n in shared.most_common(tries):  # n lines in common bound what a block can match
            if n <= best:
                break
            matcher = difflib.SequenceMatcher(None, ob, rebuilt[i], autojunk=False)
            best = max(best, sum(block.size for block in matcher.get_matching_blocks()))
        found += best
    return (found / total if total else 0.0), found


def overlap(original: list[str], rebuilt: list[str]) -> tuple[float, float, int]:
    """(ratio 2M/(a+b), coverage M/a, M): M lines in SequenceMatcher's matching blocks (autojunk off).
    Coverage is the share of the original found again; padding a copy with other code does not lower it."""
    matcher = difflib.SequenceMatcher(None, original, rebuilt, autojunk=False)
    m = sum(block.size for block in matcher.get_matching_blocks())
    if not original and not rebuilt:
        return 1.0, 1.0, 0
    return 2.0 * m / (len(original) + len(rebuilt)), (m / len(original) if original else 0.0), m
