"""Revival anti-cheat at grading: public test files must be the ones the workspace started with (their
sha256), and no declared dependency may exclude the target environment's pin of it (pinning a package back
to the version the project was written for is not a revival). The candidate is read on the host without
following any of its links (tree.read_in): a link to a host file or a FIFO reads as absent."""

from __future__ import annotations

import ast
import configparser
import hashlib
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from swr.kinds.revival.spec import norm
from swr.sandbox import tree

MAX_READ = 1 << 20
MAX_HASH = 64 << 20  # a public test file is far smaller; past this it is "changed" (its head's hash differs)


def file_hash(root: Path, rel: str) -> str | None:
    """sha256 of the regular file root/rel (a link on the way, a special or missing file has none; one past
    MAX_HASH hashes as its first bytes): read without following the candidate's links or blocking."""
    data = tree.read_in(root, rel, MAX_HASH)
    return None if data is None else hashlib.sha256(data).hexdigest()


def tests_modified(candidate: Path, hashes: dict[str, str]) -> list[dict[str, Any]]:
    return [
        {"kind": "tests_modified", "file": rel, "detail": "changed" if file_hash(candidate, rel) else "missing"}
        for rel, want in sorted(hashes.items())
        if file_hash(candidate, rel) != want
    ]


def declared(candidate: Path) -> list[tuple[str, str]]:
    """(file, requirement string) for every dependency the project declares in its packaging files."""
    out: list[tuple[str, str]] = []
    reqs = [n for n in tree.names_in(candidate) if fnmatch(n, "requirements*.txt")]
    reqs += [f"requirements/{n}" for n in tree.names_in(candidate, "requirements") if fnmatch(n, "*.txt")]
    for rel in reqs:
        out += [
            (rel.rpartition("/")[2], ln.split("#")[0].strip())
            for ln in _text(candidate, rel).splitlines()
            if ln.split("#")[0].strip() and not ln.lstrip().startswith("-")
        ]
    if text := _text(candidate, "setup.py"):
        try:
            syntax = ast.parse(text)
            out += [
                ("setup.py", n.value)
                for n in ast.walk(syntax)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
        except (SyntaxError, ValueError):
            pass
    if text := _text(candidate, "setup.cfg"):
        cfg = configparser.ConfigParser(interpolation=None)
        try:
            cfg.read_string(text)
            for sec in cfg.sections():
                for key in cfg[sec]:
                    if "require" in key or sec == "options.extras_require":
                        out += [("setup.cfg", ln.strip()) for ln in cfg[sec][key].splitlines() if ln.strip()]
        except configparser.Error:
            pass
    if text := _text(candidate, "pyproject.toml"):
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            doc = {}
        proj = doc.get("project", {}) if isinstance(doc.get("project"), dict) else {}
        deps = list(proj.get("dependencies", []) or [])
        for extra in (proj.get("optional-dependencies", {}) or {}).values():
            deps += list(extra or [])
        deps += list((doc.get("build-system", {}) or {}).get("requires", []) or [])
        out += [("pyproject.toml", d) for d in deps if isinstance(d, str)]
    return out


def dependency_downgrades(candidate: Path, pins: dict[str, str]) -> list[dict[str, Any]]:
    """Declared requirements whose specifier excludes the target pin of the same package."""
    found = []
    for file, text in declared(candidate):
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue  # setup.py's other string constants, comments, URLs
        want = pins.get(norm(req.name))
        if want is not None and req.specifier and not req.specifier.contains(want, prereleases=True):
            found.append(
                {
                    "kind": "dependency_downgrade",
                    "file": file,
                    "requirement": text,
                    "target": want,
                    "detail": f"{text!r} in {file} excludes the target environment's {req.name}=={want}",
                }
            )
    return found


def inspect(candidate: Path, hashes: dict[str, str], pins: dict[str, str]) -> list[dict[str, Any]]:
    return tests_modified(candidate, hashes) + dependency_downgrades(candidate, pins)


def _text(root: Path, rel: str) -> str:
    """A packaging file's first MAX_READ bytes as text ("" for a link, a special or missing file)."""
    data = tree.read_in(root, rel, MAX_READ)
    return "" if data is None else data.decode("utf-8-sig", errors="replace")  # a BOM must not hide a pin
