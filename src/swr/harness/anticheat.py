"""Anti-cheat: what a run did that a verdict cannot see — forbidden packages used, dependencies
vendored at a lower version than the starting environment's, protected files changed, and reaches
for hidden paths. Recorded on every run; the job's policy decides whether they fail it."""

from __future__ import annotations

import json
import re
import stat
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from packaging.version import InvalidVersion, Version

from swr.core.layout import SOLUTION, private_markers
from swr.sandbox import tree

from .workspace import SNAPSHOT, Workspace, protected_changes

if TYPE_CHECKING:
    from swr.kinds import AnyTask

HIDDEN_MARKERS = (*private_markers(), "/proc/1/root")


# Reaching for a Python other than the task's: absolute interpreter paths (a `#!/usr/bin/env python3` names none),
# other installations' library directories, and the base installation behind the task's venv.
OTHER_PYTHON = re.compile(
    r"(/usr(/local)?/s?bin/(python|pypy)|/usr(/local)?/lib/(python|pypy)"
    r"|/opt/[\w./-]*(python|conda)|\.pyenv/|(mini|ana)?conda[23]?/|dist-packages"
    r"|sys\.base_prefix|_base_executable|sys\._base_executable)"
)
NATIVE_LOADER = re.compile(r"\b(ctypes|cffi|CDLL|PyDLL|LoadLibrary|dlopen|cdll)\b")


def forbidden_uses(files: dict[str, bytes], forbidden: list[str]) -> list[dict[str, Any]]:
    """Imports (Python) or invocations (shell) of a forbidden package in the solution; while any package is
    forbidden, also a reach for another Python (`other_interpreter`) and a native library of a forbidden
    distribution loaded through ctypes/cffi (`forbidden_library`)."""
    found = []
    texts = {
        name: data.decode("utf-8", errors="replace")
        for name, data in sorted(files.items())
        if name.startswith(SOLUTION + "/")
    }
    for pkg in forbidden:
        mod = re.escape(pkg.replace("-", "_"))
        imports = re.compile(rf"(^|\n)\s*(import|from)\s+{mod}\b|__import__\(\s*['\"]{mod}\b")
        # a command line naming it: only in what is not Python (in Python, `bom = ...` is a variable, not a call)
        command = re.compile(rf"(^|[\s;|&]){re.escape(pkg)}\s")
        found += [
            {"kind": "forbidden_package", "package": pkg, "path": name}
            for name, text in texts.items()
            if imports.search(text) or (not _is_python(name, text) and command.search(text))
        ]
        libs = library_names(pkg)
        found += [
            {"kind": "forbidden_library", "package": pkg, "library": hit.group(0), "path": name}
            for name, text in texts.items()
            if libs and NATIVE_LOADER.search(text) and (hit := libs.search(text))
        ]
    if forbidden:
        found += [
            {"kind": "other_interpreter", "marker": hit.group(0), "path": name}
            for name, text in texts.items()
            if (hit := OTHER_PYTHON.search(text) or _other_python_path(text))
        ]
    return found


def _is_python(name: str, text: str) -> bool:
    """A Python source: by its suffix, or a script whose #! line runs a Python."""
    first = text.split("\n", 1)[0]
    return name.endswith(".py") or (first.startswith("#!") and "python" in first)


def library_names(package: str) -> re.Pattern[str] | None:
    """The names a forbidden distribution's native libraries go by: each file name up to `.so` (its wheel's
    hashed copies too), and lib<import name>."""
    from swr.sandbox import hide

    stems = {n.split(".so")[0] for n in hide.native_libraries(package)}
    stems |= {f"lib{name}" for name in hide.import_names(package)}
    return re.compile(r"\b(" + "|".join(sorted(map(re.escape, stems))) + r")(?=[.\s'\"]|$)") if stems else None


def _other_python_path(text: str) -> re.Match[str] | None:
    """This host's other Pythons, by the paths the sandbox covers (a bundled one under /usr/lib, say)."""
    from swr.sandbox import hide

    paths = [str(p) for p in hide.other_pythons() if len(str(p)) > 8]
    return re.search("|".join(map(re.escape, paths)), text) if paths else None


def downgrades(root: Path) -> list[dict[str, Any]]:
    """Packages vendored into the workspace (a *.dist-info) at a version below the environment's own."""
    found = []
    dirs = [
        e.rel
        for e in tree.walk(root, SNAPSHOT, lambda why: None, skip=frozenset({".git"}))
        if e.name.endswith(".dist-info") and stat.S_ISDIR(e.st.st_mode)
    ]
    for rel in sorted(dirs):
        name, _, version = rel.rsplit("/", 1)[-1][: -len(".dist-info")].rpartition("-")
        try:
            have = metadata.version(name)
            if Version(version) < Version(have):
                found.append(
                    {
                        "kind": "dependency_downgrade",
                        "package": name,
                        "vendored": version,
                        "environment": have,
                        "path": rel,
                    }
                )
        except (metadata.PackageNotFoundError, InvalidVersion):
            continue
    return found


def hidden_reaches(
    trajectory: dict[str, Any] | None, task: AnyTask, observed: Sequence[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """Tool calls that name the task's private files or the release's own location: those of the
    trajectory, and those the harness observed itself (a command agent's stream or shell trace)."""
    markers = (*HIDDEN_MARKERS, str(task.root.resolve()), str(task.root.resolve().parent.parent))
    calls = [
        (step.get("step_id"), call)
        for step in (trajectory or {}).get("steps", [])
        for call in step.get("tool_calls") or []
    ] + [(None, call) for call in observed]
    found, seen = [], set()
    for step, call in calls:
        text = json.dumps(call.get("arguments", ""))
        hit = next((m for m in markers if m in text), None)
        if hit and (hit, text) not in seen:
            seen.add((hit, text))
            found.append({"kind": "hidden_path_attempt", "step": step, "marker": hit})
    return found


def inspect(
    ws: Workspace,
    task: AnyTask,
    trajectory: dict[str, Any] | None,
    files: dict[str, bytes],
    observed: Sequence[dict[str, Any]] = (),
) -> list[dict[str, Any]]:
    """Every finding; `files` is the workspace's end snapshot, read once for this and the diff;
    `observed`, the tool calls the harness saw the agent make."""
    forbidden = list(task.scanned_forbidden())
    return (
        [{"kind": "protected_file", "path": f} for f in protected_changes(ws, files)]
        + forbidden_uses(files, forbidden)
        + downgrades(ws.root)
        + hidden_reaches(trajectory, task, observed)
    )
