"""The shipped catalog: its families, what they require, what is missing here, and installing it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from swr.assemble import discover
from swr.core.errors import SwrError
from swr.core.layout import DEMO_TOML, WORKFLOW_TOML
from swr.kinds.workflow.spec import WorkflowSpec, load_spec


def catalog_specs(root: Path) -> list[WorkflowSpec]:
    return [load_spec(d) for d in discover([root])]


def requirements(specs: list[WorkflowSpec]) -> tuple[list[str], list[str]]:
    """The union of pip and apt requirements, sorted and deduplicated."""
    pip = sorted({r for s in specs for r in s.requires.pip})
    apt = sorted({r for s in specs for r in s.requires.apt})
    return pip, apt


def missing_pip(reqs: list[str]) -> list[str]:
    """Requirements not satisfied by swr's own environment (absent, or the wrong version)."""
    missing = []
    for text in reqs:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            raise SwrError(f"invalid pip requirement {text!r}", field="requires.pip") from None
        if req.marker is not None and not req.marker.evaluate():
            continue
        try:
            have = metadata.version(req.name)
        except metadata.PackageNotFoundError:
            missing.append(text)
            continue
        if req.specifier and not req.specifier.contains(have, prereleases=True):
            missing.append(text)
    return missing


def missing_apt(pkgs: list[str]) -> list[str]:
    """Debian packages not installed (by dpkg's word; without dpkg, by a program of that name)."""
    if not pkgs:
        return []
    if shutil.which("dpkg-query") is None:
        return [p for p in pkgs if shutil.which(p) is None]
    res = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package} ${db:Status-Status}\n", *pkgs], capture_output=True, text=True
    )
    installed = {ln.split()[0].split(":")[0] for ln in res.stdout.splitlines() if ln.endswith(" installed")}
    return [p for p in pkgs if p not in installed]


@dataclass
class Family:
    name: str
    specs: list[WorkflowSpec]

    @property
    def missing(self) -> tuple[list[str], list[str]]:
        pip, apt = requirements(self.specs)
        return missing_pip(pip), missing_apt(apt)

    def row(self, repo_root: Path) -> dict[str, Any]:
        domain = Counter(s.domain for s in self.specs).most_common(1)[0][0]
        pip, apt = self.missing
        return {
            "family": self.name,
            "domain": domain,
            "workflows": [s.name for s in self.specs],
            "paths": [os.path.relpath(s.directory, repo_root) for s in self.specs],
            "runnable": not pip and not apt,
            "missing": {"pip": pip, "apt": apt},
        }


def families(root: Path) -> list[Family]:
    by_name: dict[str, list[WorkflowSpec]] = {}
    for s in catalog_specs(root):
        by_name.setdefault(s.family, []).append(s)
    return [Family(n, sorted(ss, key=lambda s: s.name)) for n, ss in sorted(by_name.items())]


def select(root: Path, names: list[str] | None) -> list[Family]:
    """The named families (all of them for None), with an error naming an unknown one."""
    fams = families(root)
    if names is None:
        return fams
    unknown = sorted(set(names) - {f.name for f in fams})
    if unknown:
        raise SwrError(f"unknown family {unknown[0]!r} (see swr catalog list)", file=root)
    return [f for f in fams if f.name in names]


def demo_slice(root: Path) -> list[Path]:
    """The workflows `swr demo` builds by default, listed in ROOT/demo.toml so that the slice lives in one place
    (the Makefile installs its families, the demo builds it, the README describes it)."""
    path = root / DEMO_TOML
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise SwrError(
            "no demo slice: list workflows in it, or build the whole catalog with --full", file=path
        ) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise SwrError(f"unreadable: {e}", file=path) from None
    extra = sorted(set(data) - {"workflows"})
    if extra:
        raise SwrError("unknown key (the file holds one list, `workflows`)", file=path, field=extra[0])
    entries = data.get("workflows")
    if not isinstance(entries, list) or not entries:
        raise SwrError(
            "must be a non-empty list of workflow paths relative to the catalog", file=path, field="workflows"
        )
    return [_slice_entry(root, path, i, rel, entries[:i]) for i, rel in enumerate(entries)]


def _slice_entry(root: Path, path: Path, i: int, rel: object, before: list[object]) -> Path:
    """One demo.toml entry: a workflow directory inside the catalog, named once."""
    where = f"workflows[{i}]"
    if not isinstance(rel, str) or not rel or Path(rel).is_absolute() or ".." in Path(rel).parts:
        raise SwrError(f"{rel!r} is not a path relative to the catalog", file=path, field=where)
    if not (root / rel / WORKFLOW_TOML).is_file():
        raise SwrError(f"{rel!r} is not a workflow directory of {root}", file=path, field=where)
    if rel in before:
        raise SwrError(f"{rel!r} is listed twice", file=path, field=where)
    return root / rel


def demo_families(root: Path) -> list[Family]:
    """The families of the demo slice, each with only its sliced workflows: what `make demo` installs."""
    by_name: dict[str, list[WorkflowSpec]] = {}
    for d in demo_slice(root):
        s = load_spec(d)
        by_name.setdefault(s.family, []).append(s)
    return [Family(n, ss) for n, ss in sorted(by_name.items())]


def install_commands(fams: list[Family]) -> list[list[str]]:
    """The apt-get and pip commands that install what the families require."""
    pip, apt = requirements([s for f in fams for s in f.specs])
    cmds = []
    if apt:
        cmds.append(["apt-get", "install", "-y", "--no-install-recommends", *apt])
    if pip:
        cmds.append([sys.executable, "-m", "pip", "install", "--quiet", *pip])
    return cmds


def install(fams: list[Family]) -> None:
    """Install requirements into swr's own environment (apt packages need root)."""
    for argv in install_commands(fams):
        if argv[0] == "apt-get" and not missing_apt(argv[4:]):
            continue
        try:
            if argv[0] == "apt-get":
                subprocess.run(["apt-get", "update", "-qq"], check=True)
            subprocess.run(argv, check=True)
        except (OSError, subprocess.CalledProcessError) as e:
            raise SwrError(f"{argv[0]} failed: {e}") from None
