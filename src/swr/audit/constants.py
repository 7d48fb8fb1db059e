"""`swr audit lint`'s instruction_constant check: the instruction and the reference agree on every constant the
instruction states, by construction rather than by review (issue 23 §4: an instruction naming one Earth radius
while the reference used another failed every literal implementation).

The rule: a precise number (PRECISE_DIGITS significant digits or more) in the instruction's prose (summary,
input and output descriptions) must be a declared `[constants]` value of workflow.toml (or an input's bound or
choice). A constant declared as a bare number is the reference's own: its code must read it from workflow.toml
by name and never spell the number again (a copy drifts). One declared as {value, source} is the wrapped
library's, its `source` saying where it lives and how it was checked."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from swr.core.layout import WORKFLOW_TOML
from swr.kinds.workflow.spec import LibraryConstant, WorkflowSpec

PRECISE_DIGITS = 5  # 6371.0088, 12.011, 9.80665: numbers a literal implementation would type in as stated
# a number, not part of a dotted token: an address (172.16.x.0/24), a version or a section (3.2.1); a sentence's full
# stop after a number is followed by a space or the end
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d+|\d+)(?:[eE][-+]?\d+)?(?!\w|\.\S)")
_MAX_SOURCE = 1 << 20  # bytes of one reference source file read
# a literal's start: not inside a name, a decimal or an exponent (1e-5 spells no 5)
_NOT_AFTER = r"(?<![\w.])(?<![eE][-+])"
# A standard's designation (IEC 60534-2-1, ISO 5167, ASTM D1250) names a document, not a quantity: not a constant.
_STANDARD = re.compile(
    r"\b(?:IEC|ISO|ASTM(?:\s+[A-Z])?|IEEE|ANSI|ASME|DIN|EN|BS|JIS|API|NIST|RFC|ISA|IAPWS|ITU-[RT])[\s-]*$"
)


def _digits(text: str) -> int:
    """Significant digits of a spelled number (trailing zeros of an integer do not count: 101325 has 6,
    6370000 has 3)."""
    try:
        return len(Decimal(text.lstrip("+-")).normalize().as_tuple().digits)
    except InvalidOperation:
        return 0


def stated_numbers(spec: WorkflowSpec) -> set[str]:
    """The precise numbers the instruction's prose states, as spelled."""
    texts = [
        spec.summary,
        *(i.description for i in spec.inputs.values()),
        *(f.description for f in spec.outputs.fields.values()),
    ]
    return {
        m.group(0)
        for t in texts
        for m in _NUMBER.finditer(t or "")
        if _digits(m.group(0)) >= PRECISE_DIGITS and not _STANDARD.search(t[max(0, m.start() - 12) : m.start()])
    }


def _declared(spec: WorkflowSpec) -> set[float]:
    """Values the instruction may state: the constants, and the inputs' bounds and numeric choices."""
    vals = {c.value if isinstance(c, LibraryConstant) else float(c) for c in spec.constants.values()}
    for inp in spec.inputs.values():
        vals |= {
            float(v)
            for v in (inp.min, inp.max, *(inp.choices or ()))
            if isinstance(v, (int, float)) and not isinstance(v, bool)
        }
    return vals


def _spellings(value: float) -> set[str]:
    """How code would spell a constant's value: repr, and the integer form of an integral one."""
    out = {repr(value)}
    if value.is_integer():
        out.add(str(int(value)))
    return out


def _sources(directory: Path) -> str:
    """The reference's Python source (its directory's *.py, bounded), where its constants are read."""
    parts = []
    for f in sorted(directory.rglob("*.py")):
        if f.is_file() and not f.is_symlink() and "__pycache__" not in f.parts:
            with f.open("rb") as fh:
                parts.append(fh.read(_MAX_SOURCE).decode(errors="replace"))
    return "\n".join(parts)


def constant_findings(spec: WorkflowSpec) -> list[tuple[str, str]]:
    """(severity, message) pairs for the instruction_constant check of one workflow."""
    found: list[tuple[str, str]] = []
    declared = _declared(spec)
    for text in sorted(stated_numbers(spec)):
        if float(text) not in declared and abs(float(text)) not in declared:
            found.append(
                (
                    "warning",
                    f"the instruction states {text}, which is no [constants] value of "
                    f"{WORKFLOW_TOML}: declare it there and have the reference read it (or give the "
                    "library's constant as {value, source}), so the two cannot disagree",
                )
            )
    own = {k: float(v) for k, v in spec.constants.items() if not isinstance(v, LibraryConstant)}
    if not own:
        return found
    code = _sources(spec.directory)
    for name, value in sorted(own.items()):
        if WORKFLOW_TOML not in code or not re.search(rf"\b{re.escape(name)}\b", code):
            found.append(
                (
                    "error",
                    f"[constants] {name} is not read by the reference from {WORKFLOW_TOML}: the "
                    "instruction and the reference may state different values",
                )
            )
        spelled = sorted(s for s in _spellings(value) if re.search(rf"{_NOT_AFTER}{re.escape(s)}(?![\w.])", code))
        if spelled:
            found.append(
                (
                    "warning",
                    f"the reference spells [constants] {name} ({spelled[0]}) again instead of "
                    f"reading it from {WORKFLOW_TOML}: a copy can drift from the instruction",
                )
            )
    return found


def as_findings(task_id: str, spec: WorkflowSpec | None) -> list[dict[str, Any]]:
    """lint findings of one task (none without its private reference)."""
    if spec is None:
        return []
    return [
        {"task": task_id, "severity": sev, "check": "instruction_constant", "field": "", "message": msg}
        for sev, msg in constant_findings(spec)
    ]
