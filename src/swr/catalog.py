"""The shipped catalog: find its workflows and install what they require (pip + apt)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from swr.build import discover
from swr.errors import SwrError
from swr.spec import WorkflowSpec, load_spec


def catalog_specs(root: Path) -> list[WorkflowSpec]:
    return [load_spec(d) for d in discover([root])]


def requirements(specs: list[WorkflowSpec]) -> tuple[list[str], list[str]]:
    """The union of pip and apt requirements, sorted and deduplicated."""
    pip = sorted({r for s in specs for r in s.requires.pip})
    apt = sorted({r for s in specs for r in s.requires.apt})
    return pip, apt


def install(specs: list[WorkflowSpec]) -> None:
    """Install requirements into swr's own environment (and apt packages, which need root)."""
    pip, apt = requirements(specs)
    if apt:
        _run(["apt-get", "install", "-y", "--no-install-recommends", *apt], "apt-get")
    if pip:
        _run([sys.executable, "-m", "pip", "install", "--quiet", *pip], "pip")


def _run(argv: list[str], what: str) -> None:
    try:
        subprocess.run(argv, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SwrError(f"{what} failed: {e}") from None
