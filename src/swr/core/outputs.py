"""The one rule for every command that writes a directory the user names (`--out`): it may replace only
what it wrote itself. A missing path or an empty directory is taken; a directory carrying the command's own
marker (a release's release.json, a report's marker file) is replaced; anything else — a user's working
directory, a file, a symbolic link — is refused with one line, unless `--force` says to replace a directory.
A file is never renamed or removed, whatever the flags."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from swr.core.errors import SwrError
from swr.core.layout import RELEASE_JSON


@dataclass(frozen=True)
class Output:
    """A kind of output directory: what to call it, and the file inside it that says swr wrote it."""

    what: str
    marker: str | None  # None: never replaced once it holds anything (only a missing or empty directory)
    legacy: tuple[str, str] | None = None  # (file, text it holds): how outputs from before the marker look

    def owns(self, path: Path) -> bool:
        """Whether `path` is an earlier output of this kind (its marker a regular file, not a link)."""
        if self.marker is not None and _regular(path / self.marker):
            return True
        if self.legacy is not None and _regular(path / self.legacy[0]):
            with open(path / self.legacy[0], "rb") as f:
                return self.legacy[1].encode() in f.read(1 << 16)
        return False


def _regular(p: Path) -> bool:
    return p.is_file() and not p.is_symlink()


RELEASE = Output("a swr release", RELEASE_JSON)
REPORT = Output("a swr report", ".swr-report", legacy=("index.html", "<h1>swr report</h1>"))
HARBOR = Output("a Harbor export", None)
BUNDLES = Output("an audit bundle directory", None)
PROJECT = Output("an obfuscated project", None)
SCRATCH = ".swr-scratch"  # in a directory swr is still writing (see scratch_beside)


def claim(path: Path, kind: Output, force: bool = False) -> bool:
    """Check that `path` may become an output of `kind`; True when a directory is there to be replaced.
    Refusals are one line naming the path (exit 2)."""
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        what = "a symbolic link" if path.is_symlink() else "a file"
        raise SwrError(f"is {what}, not a directory: give a directory (nothing was changed)", file=path, field="--out")
    if not path.exists():
        return False
    if not any(path.iterdir()) or kind.owns(path):
        return True
    if force and kind.marker is not None:
        _not_a_home(path)
        return True
    why = f"no {kind.marker}" if kind.marker else "only a new or empty directory is written"
    hint = " (use --force to replace it)" if kind.marker else ""
    raise SwrError(f"not empty and not {kind.what} ({why}){hint}", file=path, field="--out")


def _not_a_home(path: Path) -> None:
    """Even --force never replaces the directory the command runs in, one holding it, or the home directory."""
    real, cwd = path.resolve(), Path.cwd().resolve()
    if real == cwd or real in cwd.parents or real == Path.home().resolve() or real == Path("/"):
        raise SwrError("holds the current or home directory: not replaced even with --force", file=path, field="--out")


def scratch_beside(path: Path, tag: str) -> Path:
    """A new directory next to `path` (same filesystem, so it can be renamed into place), named so that it
    collides with nothing the user has, with a marker saying it is swr's; leftovers of a killed run of the
    same command go first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for old in path.parent.glob(f".{glob_escape(path.name)}.*.{tag}"):
        if old.is_dir() and not old.is_symlink() and _regular(old / SCRATCH):
            shutil.rmtree(old, ignore_errors=True)
    d = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=f".{tag}", dir=path.parent))
    os.chmod(d, 0o777 & ~_umask())  # what mkdir would have made: the output is as readable as any other
    (d / SCRATCH).touch()
    return d


def _umask() -> int:
    """The process's umask, read without changing it (os.umask would, for every thread at once)."""
    try:
        with open("/proc/self/status") as f:
            return next(int(ln.split()[1], 8) for ln in f if ln.startswith("Umask:"))
    except (OSError, StopIteration, ValueError):
        return 0o022


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def swap_in(staging: Path, final: Path) -> None:
    """Put the finished `staging` at `final`, replacing what `claim` allowed there: an empty directory
    directly, an earlier output moved aside into a fresh scratch directory (never to a fixed name, where a
    user's file might be) and removed once the new one is in place."""
    (staging / SCRATCH).unlink(missing_ok=True)
    if not final.exists() or not any(final.iterdir()):
        os.replace(staging, final)  # an empty directory is replaced in one step
        return
    aside = scratch_beside(final, "old")
    try:
        final.rename(aside / "previous")
        try:
            staging.rename(final)
        except BaseException:
            (aside / "previous").rename(final)  # the earlier output back: nothing is lost on a failed swap
            raise
    finally:
        if not (aside / "previous").exists() or final.exists():
            shutil.rmtree(aside, ignore_errors=True)


def mark(path: Path, kind: Output) -> None:
    """Write the kind's marker into a finished output (a release's release.json is written by the release)."""
    if kind.marker is not None and not (path / kind.marker).exists():
        (path / kind.marker).write_text(f"written by swr: {kind.what}\n")
