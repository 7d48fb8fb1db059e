"""Revival anti-cheat at grading: public test files must be the ones the workspace started with (their
sha256), and no declared dependency may exclude the target environment's pin of it (pinning a package back
to the version the project was written for is not a revival)."""
from __future__ import annotations

import ast
import configparser
import hashlib
import tomllib
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from swr.revival.spec import norm

MAX_READ = 1 << 20


def file_hash(path: Path) -> str | None:
    """sha256 of a regular file (a link or a missing file has none)."""
    if path.is_symlink() or not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tests_modified(candidate: Path, hashes: dict[str, str]) -> list[dict[str, Any]]:
    return [{"kind": "tests_modified", "file": rel, "detail": "changed" if file_hash(candidate / rel) else "missing"}
            for rel, want in sorted(hashes.items()) if file_hash(candidate / rel) != want]


def declared(candidate: Path) -> list[tuple[str, str]]:
    """(file, requirement string) for every dependency the project declares in its packaging files."""
    out: list[tuple[str, str]] = []
    for f in sorted(candidate.glob("requirements*.txt")) + sorted(candidate.glob("requirements/*.txt")):
        out += [(f.name, ln.split("#")[0].strip()) for ln in _text(f).splitlines()
                if ln.split("#")[0].strip() and not ln.lstrip().startswith("-")]
    if (f := candidate / "setup.py").is_file():
        try:
            tree = ast.parse(_text(f))
            out += [("setup.py", n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        except (SyntaxError, ValueError):
            pass
    if (f := candidate / "setup.cfg").is_file():
        cfg = configparser.ConfigParser(interpolation=None)
        try:
            cfg.read_string(_text(f))
            for sec in cfg.sections():
                for key in cfg[sec]:
                    if "require" in key or sec == "options.extras_require":
                        out += [("setup.cfg", ln.strip()) for ln in cfg[sec][key].splitlines() if ln.strip()]
        except configparser.Error:
            pass
    if (f := candidate / "pyproject.toml").is_file():
        try:
            doc = tomllib.loads(_text(f))
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
            found.append({"kind": "dependency_downgrade", "file": file, "requirement": text, "target": want,
                          "detail": f"{text!r} in {file} excludes the target environment's {req.name}=={want}"})
    return found


def inspect(candidate: Path, hashes: dict[str, str], pins: dict[str, str]) -> list[dict[str, Any]]:
    return tests_modified(candidate, hashes) + dependency_downgrades(candidate, pins)


def _text(path: Path) -> str:
    if path.is_symlink():
        return ""
    with open(path, "rb") as f:
        return f.read(MAX_READ).decode("utf-8-sig", errors="replace")  # a BOM must not hide a pin
