"""An engine's rule mutants (engine.toml `[[rules]]`, `swr audit adequacy`) as unified diffs against its
reference: `mutants/<rule>.patch`, paths relative to reference/ (`--- a/<path>`, `+++ b/<path>`). A diff says
only what the mutant changes, so a fix to the reference carries over to every mutant or, where it touches the
mutated lines, makes the patch stop applying: a build error naming the rule, never a stale copy graded silently.

Applied by GNU patch (Debian's `patch`, in the Makefile's SYSDEPS) rather than `git apply` (the revivals'
port.patch): patch has an explicit `--fuzz=0`, reports every hunk it had to move ("offset"), which is refused
here too, and has no repository discovery (git apply run below a git work tree takes its paths from that
tree's root and its config). The patch is checked before it runs: a plain unified diff whose every file is a
regular file of reference/ that it changes (no creation, deletion, rename, mode change or binary hunk).

`python -m swr.kinds.engine.mutants ENGINE...` converts the former format (mutants/<rule>/ holding whole-file copies
of the reference files it changes) into patches, rewrites engine.toml's `mutant =` lines, checks that each patch
reproduces the copies byte for byte, and only then removes the directories."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from swr.core.errors import SwrError
from swr.core.layout import ENGINE_TOML, MUTANTS, REFERENCE
from swr.sandbox import tree

PATCH_SUFFIX = ".patch"
PATCH_TIMEOUT_S = 60
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class BadPatch(ValueError):
    """A mutant patch that is not a plain diff of reference files (the message says where)."""


def patch_targets(text: str, reference: Path) -> list[str]:
    """The reference files (relative paths) a mutant patch changes, after checking it is a plain unified diff:
    `--- a/P` then `+++ b/P` with P a regular file of reference/, then hunks whose line counts add up and that
    change at least one line. Anything GNU patch would read as more (a git header, a creation from /dev/null,
    a path out of the tree, trailing garbage after the hunks) is refused."""
    lines, targets, i = text.split("\n"), [], 0
    if lines and lines[-1] == "":
        lines.pop()
    while i < len(lines):
        if not (lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")):
            raise BadPatch(f"line {i + 1} is not a `--- a/PATH` header of a unified diff")
        rel = _header_path(lines[i], "a/", i + 1)
        if _header_path(lines[i + 1], "b/", i + 2) != rel:
            raise BadPatch(f"lines {i + 1}-{i + 2} name two different files")
        _regular_file(reference, rel, i + 1)
        i, changed = i + 2, False
        while i < len(lines) and lines[i].startswith("@@"):
            i, edits = _hunk(lines, i)
            changed = changed or edits
        if not changed:
            raise BadPatch(f"the diff of {rel} changes no line")
        targets.append(rel)
    if not targets:
        raise BadPatch("it holds no diff")
    if len(set(targets)) != len(targets):
        raise BadPatch("it changes a file twice")
    return targets


def _header_path(line: str, prefix: str, number: int) -> str:
    """The path of a `---`/`+++` header (any tab-separated timestamp dropped), under `prefix`."""
    name = line[4:].split("\t")[0]
    if not name.startswith(prefix):
        raise BadPatch(f"line {number} names {name!r}, not {prefix}PATH relative to {REFERENCE}/")
    rel = name[len(prefix) :]
    parts = rel.split("/")
    if not rel or rel.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise BadPatch(f"line {number}: {name!r} is not a plain path inside {REFERENCE}/")
    return rel


def _regular_file(reference: Path, rel: str, number: int) -> None:
    """rel is a regular file of reference/, reached through no symbolic link."""
    here = reference
    for part in rel.split("/"):
        here = here / part
        if here.is_symlink():
            raise BadPatch(f"line {number}: {rel} passes through a symbolic link of {REFERENCE}/")
    if not here.is_file():
        raise BadPatch(f"line {number}: {rel} is no file of {REFERENCE}/")


def _hunk(lines: list[str], i: int) -> tuple[int, bool]:
    """Past one hunk starting at lines[i]: (next index, whether it adds or removes a line)."""
    m = _HUNK.match(lines[i])
    if not m:
        raise BadPatch(f"line {i + 1} is not a hunk header")
    old = int(m.group(2) if m.group(2) is not None else 1)
    new = int(m.group(4) if m.group(4) is not None else 1)
    j, edits = i + 1, False
    while old > 0 or new > 0:
        if j >= len(lines):
            raise BadPatch(f"the hunk at line {i + 1} ends early")
        tag = lines[j][:1]
        if tag == " ":
            old, new = old - 1, new - 1
        elif tag == "-":
            old, edits = old - 1, True
        elif tag == "+":
            new, edits = new - 1, True
        elif tag != "\\":  # "\ No newline at end of file"
            raise BadPatch(f"line {j + 1} is not a line of the hunk at line {i + 1}")
        if old < 0 or new < 0:
            raise BadPatch(f"the hunk at line {i + 1} holds more lines than its header counts")
        j += 1
    while j < len(lines) and lines[j].startswith("\\"):
        j += 1
    return j, edits


def materialise(reference: Path, patch: Path, dest: Path) -> Path:
    """dest/: a copy of the reference (swr.sandbox.tree's export: no link followed, __pycache__ left out) with
    the patch applied exactly: every hunk where it says, no fuzz, no offset. BadPatch says why not."""
    targets = patch_targets(patch.read_text(), reference)
    tree.export(reference, dest, tree.Bounds(), ignore=_compiled)
    if shutil.which("patch") is None:
        raise SwrError("GNU patch is not installed (apt-get install patch): it applies the engines' rule mutants")
    res = subprocess.run(
        [
            "patch",
            "-p1",
            "--fuzz=0",
            "--forward",
            "--batch",
            "--no-backup-if-mismatch",
            "--reject-file=-",
            "-d",
            str(dest),
            "-i",
            str(patch.resolve()),
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=PATCH_TIMEOUT_S,
        env={"PATH": os.environ.get("PATH", ""), "LC_ALL": "C"},
    )
    said = [
        ln.strip()
        for ln in (res.stdout + res.stderr).splitlines()
        if ln.strip() and not ln.startswith("patching file ")
    ]
    moved = [ln for ln in said if "offset" in ln or "fuzz" in ln]  # on success patch says nothing else
    if res.returncode != 0 or said:
        raise BadPatch(f"it does not apply cleanly to {REFERENCE}/: {(moved or said or ['patch failed'])[0]}")
    missing = [t for t in targets if not (dest / t).is_file()]
    if missing:
        raise BadPatch(f"applying it left no {missing[0]}")
    return dest


def _compiled(rel: str) -> bool:
    """Byte code Python left beside the reference's modules: never part of a mutant."""
    return "__pycache__" in rel.split("/") or rel.endswith(".pyc")


# The converter from the former format (mutants/<rule>/ of whole-file copies).


def diff_of(reference: Path, mutant_dir: Path) -> str:
    """The unified diff (GNU diff -u, three lines of context) that turns the reference into the reference with
    the directory's files in place of its own, files in sorted order, paths relative to reference/."""
    files = sorted(
        p for p in mutant_dir.rglob("*") if p.is_file() and not _compiled(p.relative_to(mutant_dir).as_posix())
    )
    out = []
    for p in files:
        rel = p.relative_to(mutant_dir).as_posix()
        res = subprocess.run(
            ["diff", "-u", "--label", f"a/{rel}", "--label", f"b/{rel}", str(reference / rel), str(p)],
            capture_output=True,
            text=True,
            env={"LC_ALL": "C", "PATH": os.environ.get("PATH", "")},
        )
        if res.returncode != 1:
            raise SwrError(f"diff of {rel}: {res.stderr.strip() or 'the copy is the reference file itself'}", file=p)
        out.append(res.stdout)
    if not out:
        raise SwrError("holds no file", file=mutant_dir)
    return "".join(out)


def convert(engine: Path) -> list[str]:
    """Every mutants/<rule>/ directory of an engine into mutants/<rule>.patch, engine.toml's `mutant = ` lines
    renamed with them; each directory is removed only once its patch, applied to a copy of the reference,
    gives back every one of its files byte for byte. The converted rules' names."""
    reference, done = engine / REFERENCE, []
    toml = engine / ENGINE_TOML
    text = toml.read_text()
    for d in sorted(p for p in (engine / MUTANTS).iterdir() if p.is_dir() and not p.is_symlink()):
        patch = d.with_name(d.name + PATCH_SUFFIX)
        patch.write_text(diff_of(reference, d))
        with tempfile.TemporaryDirectory(prefix="swr-convert-") as tmp:
            made = materialise(reference, patch, Path(tmp) / "m")
            for f in (p for p in d.rglob("*") if p.is_file() and not _compiled(p.relative_to(d).as_posix())):
                if (made / f.relative_to(d)).read_bytes() != f.read_bytes():
                    raise SwrError(f"the patch does not reproduce {f.relative_to(d)}", file=patch)
        text = re.sub(
            rf'(?m)^(\s*mutant\s*=\s*)"{MUTANTS}/{re.escape(d.name)}/?"', rf'\1"{MUTANTS}/{d.name}{PATCH_SUFFIX}"', text
        )
        shutil.rmtree(d)
        done.append(d.name)
    toml.write_text(text)
    return done


def main(argv: list[str]) -> int:
    if not argv or any(a.startswith("-") for a in argv):
        print(
            "usage: python -m swr.kinds.engine.mutants ENGINE_DIR...  (mutants/<rule>/ -> mutants/<rule>.patch)",
            file=sys.stderr,
        )
        return 2
    for e in map(Path, argv):
        try:
            if not (e / ENGINE_TOML).is_file():
                raise SwrError(f"no {ENGINE_TOML}: not an engine directory", file=e)
            if not (e / MUTANTS).is_dir():
                print(f"{e}: no {MUTANTS}/ to convert")
                continue
            for name in convert(e):
                print(f"{e / MUTANTS / name}/ -> {e / MUTANTS / name}{PATCH_SUFFIX}")
        except (SwrError, BadPatch, OSError) as err:
            print(f"swr: {err}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
