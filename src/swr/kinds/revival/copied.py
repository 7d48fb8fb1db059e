"""`copied_original`: a deleted-module revival's rebuild that is the original again (ReviveBench's contamination
measure turned into anti-cheat). The original module stays in the task's private reference (the oracle restores
it and the obfuscated variant is made from it), so grading measures against its text; nothing of it is ever in
the agent's workspace or sandbox.

What is compared: the original's `*.py` files (stubs are left out: they follow from the signatures) against
every text file of the candidate that is new or differs from the starting workspace, whatever its name (the
rebuilt module, any file a copy was moved into, a `.txt` the module `exec`s), read without following the
candidate's links and bounded; a file with a NUL byte is not text. Two measures, each
plain and with canonical identifiers (every name `ID`: a renamed copy keeps its shape):
- `ratio`: the paper's normalised line similarity, 2M/(a+b) over the concatenated normalised lines;
- `coverage`: the share of the original's lines found again, each top-level definition matched against the
  rebuilt definition closest to it, so reordering definitions, splitting them over files or padding a copy
  with other code does not hide it.
The score is the largest of the four; at or above the task's threshold (calibrated at build time on honest
code and kept in private/build.json) it is a finding, and the run fails."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

from swr.kinds.revival.similarity import block_coverage, overlap, shapes
from swr.sandbox import tree

DEFAULT_THRESHOLD = 0.8  # a release built before calibration was recorded
FLOOR = 0.8  # the paper's honest rebuilds reach 0.51-0.96 (its 0.96 "consistent with recall"); copies score ~1
MARGIN = 0.1  # above the highest honest value measured for the task
READ = tree.Bounds(depth=32, entries=20_000, bytes=4 << 20)
MAX_FILE = 1 << 20
RATIO_LINES = 50_000  # the paper's ratio over at most this many rebuilt lines (past it, 2M/(a+b) is ~0 anyway)
SKIP = frozenset({".git", "__pycache__"})


def original_texts(original: Path) -> list[str]:
    """The original module's `*.py` files (trusted: the task's own private reference), in path order."""
    return [p.read_text(encoding="utf-8", errors="replace") for p in sorted(original.rglob("*.py")) if p.is_file()]


def rebuilt_texts(candidate: Path, start: Path | None, first: tuple[str, ...] = ()) -> list[str]:
    """The candidate's text files that the starting workspace lacks or has otherwise: those at the paths in
    `first` (the original's), then the others in path order; read without following links, each at most
    MAX_FILE bytes and READ.bytes in all (past it, what was read so far: tokenizing is what grading pays)."""
    out: list[str] = []
    budget = READ.bytes

    def keep(rel: str, data: bytes | None) -> None:
        nonlocal budget
        if data is None or budget <= 0 or b"\0" in data:
            return
        budget -= len(data)
        before = start / rel if start is not None else None
        if before is not None and before.is_file() and not before.is_symlink() and before.read_bytes() == data:
            return
        out.append(data.decode("utf-8", errors="replace"))

    for rel in first:
        keep(rel, tree.read_in(candidate, rel, min(MAX_FILE, budget)))
    for e in tree.walk(candidate, READ, lambda why: None, skip=SKIP):
        if stat.S_ISREG(e.st.st_mode) and e.rel not in first and budget > 0:
            keep(e.rel, tree.read_at(e.dir_fd, e.name, min(MAX_FILE, budget)))
    return out


def measure(original: list[str], rebuilt: list[str]) -> dict[str, float]:
    """ratio and coverage, plain and canonical, and their maximum (`score`), each rounded to 4 places."""
    a_shapes, b_shapes = [shapes(t) for t in original], [shapes(t) for t in rebuilt]
    doc: dict[str, float] = {}
    for canonical, suffix in ((False, ""), (True, "_canonical")):
        a = [ln for s in a_shapes for ln in s[canonical][0]]
        b = [ln for s in b_shapes for ln in s[canonical][0]]
        doc["ratio" + suffix] = round(overlap(a, b[:RATIO_LINES])[0], 4)
        ob = [x for s in a_shapes for x in s[canonical][1]]
        rb = [x for s in b_shapes for x in s[canonical][1]]
        doc["coverage" + suffix] = round(block_coverage(ob, rb)[0], 4)
    doc["score"] = max(doc.values())
    return doc


def inspect(
    original: Path, candidate: Path, start: Path | None, threshold: float
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the measures, [the copied_original finding] or [])."""
    rels = tuple(p.relative_to(original).as_posix() for p in sorted(original.rglob("*.py")) if p.is_file())
    values = measure(original_texts(original), rebuilt_texts(candidate, start, rels))
    doc = {**values, "threshold": threshold}
    if values["score"] < threshold:
        return doc, []
    return doc, [
        {
            "kind": "copied_original",
            **doc,
            "detail": f"the rebuild reproduces the original module: similarity {values['score']:.2f} "
            f"(threshold {threshold:.2f}; ratio {values['ratio']:.2f}, with canonical "
            f"identifiers {values['ratio_canonical']:.2f})",
        }
    ]


def threshold_for(honest: dict[str, dict[str, float]]) -> float:
    """The task's threshold: MARGIN above its highest honest score, never below FLOOR."""
    top = max((v["score"] for v in honest.values()), default=0.0)
    return round(max(FLOOR, top + MARGIN), 4)


def calibrate(original: Path, project: Path, honest: dict[str, Path]) -> dict[str, Any]:
    """What build.json records: the honest values (each given honest rebuild, and the project's own other
    modules: code by the same authors that copies nothing of the module) and the threshold chosen from them."""
    orig = original_texts(original)
    rel = {p.relative_to(original) for p in original.rglob("*.py")}
    siblings = [
        p
        for p in sorted(project.rglob("*.py"))
        if p.is_file()
        and p.relative_to(project) not in rel
        and not set(p.relative_to(project).parts) & {"tests", "test"}
    ]
    values = {"project's other modules": measure(orig, [p.read_text(errors="replace") for p in siblings])}
    for name, path in honest.items():
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        values[name] = measure(orig, [p.read_text(errors="replace") for p in files])
    return {
        "honest": values,
        "threshold": threshold_for(values),
        "floor": FLOOR,
        "margin": MARGIN,
        "original": measure(orig, orig),
    }
