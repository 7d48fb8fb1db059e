"""Text comparator: lines equal after normalising newlines and trailing whitespace, except
lines the task declares volatile (timestamps, GUIDs) by regex, which must still be present."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._common import (
    ArtifactConfigError,
    ArtifactResult,
    Budget,
    check,
    finish,
    load_pair,
    options_for,
)

DEFAULTS: dict[str, Any] = {"ignore_lines": []}
_SHOW = 200  # characters of a differing line quoted in a check


def read_lines(path: Path, budget: Budget) -> list[str]:
    """Lines with CRLF/CR as LF, trailing whitespace and trailing blank lines removed; bytes that
    are not UTF-8 are kept (surrogate-escaped) so they still compare exactly. The size and the
    line breaks are admitted to the budget before the text is decoded and split."""
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        budget.admit("bytes", size)
        data = fh.read(size)  # never more than admitted, even if the file grew
    budget.admit("lines", data.count(b"\n") + data.count(b"\r") + 1)
    text = data.decode("utf-8", errors="surrogateescape")
    del data
    text = text.removeprefix("\ufeff")
    lines = [ln.rstrip() for ln in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _patterns(raw: Any) -> list[re.Pattern[str]]:
    """The ignore_lines option compiled; a bad regex is the task's fault and raises."""
    if isinstance(raw, str) or not isinstance(raw, (list, tuple)):
        raise ArtifactConfigError(f"ignore_lines must be a list of regexes, got {raw!r}")
    out = []
    for pat in raw:
        try:
            out.append(re.compile(str(pat)))
        except re.error as exc:
            raise ArtifactConfigError(f"bad ignore_lines regex {pat!r}: {exc}") from exc
    return out


def _same(a: str, b: str, patterns: list[re.Pattern[str]]) -> bool:
    """Equal lines, or both volatile by the same declared pattern."""
    return a == b or any(p.search(a) and p.search(b) for p in patterns)


def _show(line: str | None) -> str | None:
    """A line shortened for the report, with escaped bytes made printable."""
    if line is None:
        return None
    line = line.encode("utf-8", errors="backslashreplace").decode("utf-8")
    return line if len(line) <= _SHOW else line[:_SHOW] + "..."


def compare_text(
    reference: Path, candidate: Path, atol: float, rtol: float, options: Mapping[str, Any] | None = None
) -> ArtifactResult:
    """Line by line; reports the first differing line (1-based). atol/rtol are unused: numbers
    inside text are compared as written (a task that needs tolerance should emit a table)."""
    opts = options_for("text", options, DEFAULTS)
    patterns = _patterns(opts["ignore_lines"])
    pair = load_pair("text", reference, lambda b: read_lines(reference, b), lambda b: read_lines(candidate, b))
    if isinstance(pair, ArtifactResult):
        return pair
    ref, cand = pair

    first = next((i for i, (a, b) in enumerate(zip(ref, cand)) if not _same(a, b, patterns)), None)
    if first is None and len(ref) != len(cand):
        first = min(len(ref), len(cand))
    if first is None:
        content = check(True, None, None)
    else:
        exp = ref[first] if first < len(ref) else None
        got = cand[first] if first < len(cand) else None
        content = check(False, _show(exp), _show(got), None, where=f"line {first + 1}", line=first + 1)
    # the first differing line says more than a line count, so it is reported first
    checks = {"content": content, "lines": check(len(ref) == len(cand), len(ref), len(cand))}
    return finish("text", checks)
