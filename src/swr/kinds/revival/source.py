"""The project a revival task starts from: fetched from PyPI (checked against its sha256, never committed)
or a local folder; its own import graph (which module the rest leans on most); and the broken copy the
agent gets, with the reference that repairs it."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections import Counter
from pathlib import Path

from swr.core.cachedir import default_cache_dir
from swr.core.errors import SwrError
from swr.core.layout import PORT_PATCH, REVIVAL_PROJECT, REVIVAL_TOML
from swr.core.trees import BUILD_OUTPUTS, JUNK, copy_tree
from swr.kinds.revival.envs import interpreter
from swr.kinds.revival.spec import RevivalSpec

SKIP = frozenset({".git", "__pycache__", ".tox", ".eggs", "build", "dist"})
DEBIAN_MIRROR = "https://deb.debian.org/debian"  # $SWR_DEBIAN_MIRROR overrides it (a local mirror, the tests)
ORIG_SUFFIXES = (".tar.xz", ".tar.gz", ".tar.bz2")
FETCH_TIMEOUT_S = 120
PYPI_JSON = "https://pypi.org/pypi"
SIMPLE_API = "https://pypi.org/simple/{name}/"  # the index pip reads, in its JSON form (PEP 691)
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"


def sdist(spec: RevivalSpec) -> Path:
    """The sdist of a pypi source, fetched by the native interpreter's pip (which still reads the project's
    metadata); a wrong sha256 is refused."""
    assert spec.pypi is not None and spec.sha256 is not None  # RevivalSpec's validator: a pypi source has both
    return cached_sdist(
        *spec.pypi,
        spec.sha256,
        python=interpreter(spec.native.python)[0] / "bin" / "python3",
        spec=spec.directory / REVIVAL_TOML,
    )


def cached_sdist(name: str, version: str, sha256: str, python: Path | None = None, spec: Path | None = None) -> Path:
    """NAME==VERSION's sdist from the swr cache (keyed by its sha256), downloaded on first use."""
    kept = [p for p in _archives(_sdists() / sha256) if _sha256(p) == sha256]
    if kept:
        return kept[0]
    try:
        archive = fetch_sdist(name, version, python, spec)
    except SwrError:  # pip prepares the sdist's metadata, which an old setup.py's setup_requires can fail: the index
        found = pypi_file(name, version, sha256)
        if found is None:
            raise
        archive = found
    if (got := _sha256(archive)) != sha256:
        raise SwrError(f"{archive.name} has sha256 {got}, the spec says {sha256}", file=spec, field="sha256")
    return archive


def debian_orig(spec: RevivalSpec) -> Path:
    """The upstream tarball (`SRC_UPSTREAM.orig.tar.*`) of a `debian:SRC=VERSION` source from the Debian pool,
    kept in the swr cache under its sha256 like an sdist; a wrong sha256 is refused."""
    assert spec.debian is not None and spec.sha256 is not None  # RevivalSpec's validator
    kept = [p for p in _archives(_sdists() / spec.sha256) if _sha256(p) == spec.sha256]
    if kept:
        return kept[0]
    src, version = spec.debian
    upstream = version.partition(":")[2] or version  # no epoch
    upstream = upstream.rpartition("-")[0] or upstream  # no Debian revision
    mirror = os.environ.get("SWR_DEBIAN_MIRROR", DEBIAN_MIRROR).rstrip("/")
    prefix = src[:4] if src.startswith("lib") else src[0]
    why = "not found"
    for suffix in ORIG_SUFFIXES:
        name = f"{src}_{upstream}.orig{suffix}"
        try:
            with urllib.request.urlopen(f"{mirror}/pool/main/{prefix}/{src}/{name}", timeout=FETCH_TIMEOUT_S) as r:
                data = r.read()
        except urllib.error.HTTPError as e:
            why = f"HTTP {e.code}"
            continue
        except (urllib.error.URLError, OSError) as e:
            raise SwrError(f"cannot download {name}: {e}", file=spec.directory / REVIVAL_TOML, field="source") from None
        if (got := hashlib.sha256(data).hexdigest()) != spec.sha256:
            raise SwrError(
                f"{name} has sha256 {got}, the spec says {spec.sha256}",
                file=spec.directory / REVIVAL_TOML,
                field="sha256",
            )
        return _keep(name, data)
    raise SwrError(
        f"no {src}_{upstream}.orig.tar.* in {mirror}/pool/main/{prefix}/{src}/ ({why})",
        file=spec.directory / REVIVAL_TOML,
        field="source",
    )


def pypi_file(name: str, version: str, sha256: str) -> Path | None:
    """NAME==VERSION's file with this sha256, straight from PyPI's JSON API (no metadata is built); None when
    the release lists no such file or the index cannot be read."""
    url = f"{PYPI_JSON}/{name}/json"
    try:
        with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT_S) as r:
            files = json.load(r).get("releases", {}).get(version, [])
        hit = next((f for f in files if f.get("digests", {}).get("sha256") == sha256), None)
        if hit is None:
            return None
        with urllib.request.urlopen(hit["url"], timeout=FETCH_TIMEOUT_S) as r:
            data = r.read()
    except (urllib.error.URLError, OSError, ValueError, KeyError):
        return None
    return _keep(hit["filename"], data) if hashlib.sha256(data).hexdigest() == sha256 else None


def _keep(name: str, data: bytes) -> Path:
    """The bytes kept in the cache under their sha256, as `name` (written whole, then renamed)."""
    home = _sdists() / hashlib.sha256(data).hexdigest()
    home.mkdir(parents=True, exist_ok=True)
    tmp = home / f".{name}.{os.getpid()}"
    tmp.write_bytes(data)
    os.replace(tmp, home / name)
    return home / name


def fetch_sdist(name: str, version: str, python: Path | None = None, spec: Path | None = None) -> Path:
    """NAME==VERSION's sdist, downloaded with pip and kept in the swr cache under its own sha256."""
    _sdists().mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=_sdists(), prefix=".fetch-") as d:
        res = subprocess.run(
            [
                str(python or sys.executable),
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                d,
                f"{name}=={version}",
            ],
            capture_output=True,
            text=True,
        )
        got = _archives(Path(d))
        if not got:
            lines = [ln for ln in res.stderr.splitlines() if ln.strip() and "is ignored" not in ln]
            raise SwrError(
                f"cannot download the sdist: {lines[-1] if lines else res.returncode}", file=spec, field="source"
            )
        home = _sdists() / _sha256(got[0])
        home.mkdir(exist_ok=True)
        os.replace(got[0], home / got[0].name)
        return home / got[0].name


def _sdists() -> Path:
    return default_cache_dir() / "revival-sdists"


def _archives(d: Path) -> list[Path]:
    return sorted(p for p in d.glob("*") if p.suffix in (".gz", ".zip", ".bz2", ".xz")) if d.is_dir() else []


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def original(spec: RevivalSpec, dest: Path) -> Path:
    """The intact project at dest: the sdist's (or Debian .orig tarball's) single top directory, or project/
    of a local source."""
    if spec.source == "local":
        copy_tree(spec.directory / REVIVAL_PROJECT, dest, ignore=JUNK | BUILD_OUTPUTS)
        return dest
    return unpack(debian_orig(spec) if spec.debian else sdist(spec), dest)


def unpack(archive: Path, dest: Path) -> Path:
    """The sdist's single top directory (or everything in it) at dest."""
    tmp = dest.with_name(dest.name + ".unpack")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as z:
            z.extractall(tmp)
    else:
        with tarfile.open(archive) as t:
            t.extractall(tmp, filter="data")
    tops = list(tmp.iterdir())
    os.replace(tops[0] if len(tops) == 1 and tops[0].is_dir() else tmp, dest)
    shutil.rmtree(tmp, ignore_errors=True)
    return dest


def _modules(project: Path, roots: tuple[str, ...], tests: tuple[str, ...]) -> dict[str, Path]:
    """{dotted name: file} of the project's own modules (test files left out)."""
    out: dict[str, Path] = {}
    for r in roots:
        base = (project / r).resolve()
        for f in base.rglob("*.py"):
            rel = f.relative_to(base)
            if any(p in SKIP or p.startswith(".") for p in rel.parts) or _is_test(f.relative_to(project), tests):
                continue
            if rel.parts[0] in ("setup.py", "conftest.py") or not (base / rel.parts[0] / "__init__.py").is_file():
                continue
            parts = rel.with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return out


def _is_test(rel: Path, tests: tuple[str, ...]) -> bool:
    return "tests" in rel.parts or "test" in rel.parts or rel.name.startswith("test_") or rel.as_posix() in tests


def imported_by(project: Path, roots: tuple[str, ...], tests: tuple[str, ...] = ()) -> Counter[str]:
    """How many of the project's modules import each of its modules (the package's own import graph)."""
    mods = _modules(project, roots, tests)
    counts: Counter[str] = Counter()
    for name, f in mods.items():
        pkg = name if f.name == "__init__.py" else name.rpartition(".")[0]
        try:
            tree = ast.parse(f.read_bytes())
        except SyntaxError:
            continue
        seen: set[str] = set()
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                    base = ".".join([*up, *([base] if base else [])])
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            seen |= {t for t in targets if t in mods and t != name}
        counts.update(seen)
    return counts


def most_imported(project: Path, roots: tuple[str, ...], tests: tuple[str, ...] = ()) -> str:
    """The module the rest of the package leans on most (a package's __init__ is never chosen)."""
    mods = _modules(project, roots, tests)
    counts = imported_by(project, roots, tests)
    ranked = sorted((m for m in counts if mods[m].name != "__init__.py"), key=lambda m: (-counts[m], m))
    if not ranked:
        raise SwrError("the package's modules import none of each other: name one with `module`", field="module")
    return ranked[0]


def module_file(project: Path, roots: tuple[str, ...], module: str) -> Path:
    """The file of a dotted module (relative to the project)."""
    for r in roots:
        for cand in (Path(r) / (module.replace(".", "/") + ".py"), Path(r) / module.replace(".", "/") / "__init__.py"):
            if (project / cand).is_file():
                return Path(os.path.normpath(cand))
    raise SwrError(f"no module {module} in the project", field="module")


def apply_patch(project: Path, patch: Path) -> None:
    """git apply, paths relative to the project root (a patch that does not apply is one line)."""
    res = subprocess.run(
        ["git", "apply", "--whitespace=nowarn", str(patch.resolve())],
        cwd=project,
        capture_output=True,
        text=True,
        env={"PATH": os.environ.get("PATH", ""), "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"},
    )
    if res.returncode != 0:
        raise SwrError(f"the patch does not apply: {res.stderr.strip().splitlines()[-1:]}", file=patch)


def port_patch(spec: RevivalSpec) -> Path:
    return spec.directory / PORT_PATCH
