"""`swr revive make pypi:NAME==VERSION`: the revival folder of a PyPI release. The one in the revivals folder
whose spec names that source is used as it is; when there is none, the sdist is downloaded (pip, into the swr
cache) and a scaffold is written from it — its sha256, its upload date and its test files recorded, the
choices only a person can make (kind, domain, environments, probes) left to complete (docs/revival.md)."""

from __future__ import annotations

import datetime as dt
import email.parser
import hashlib
import json
import re
import tarfile
import tempfile
import tomllib
import urllib.request
import zipfile
from pathlib import Path

from swr.core.errors import SwrError
from swr.core.layout import REVIVAL_TOML
from swr.kinds.revival.source import SIMPLE_API, SIMPLE_JSON, fetch_sdist, unpack
from swr.kinds.revival.spec import PYPI, norm

TODO = "TODO"
# CPython minors and their first release: the native interpreter a scaffold proposes is the newest minor
# that was out when the sdist was published (a guess the scaffold says is one).
PYTHONS = (
    ("3.7", dt.date(2018, 6, 27)),
    ("3.8", dt.date(2019, 10, 14)),
    ("3.9", dt.date(2020, 10, 5)),
    ("3.10", dt.date(2021, 10, 4)),
    ("3.11", dt.date(2022, 10, 24)),
    ("3.12", dt.date(2023, 10, 2)),
)


def parse(source: str) -> tuple[str, str]:
    """(name, version) of `pypi:NAME==VERSION`; anything else is one line naming the argument."""
    m = PYPI.match(source)
    if not m:
        raise SwrError(f"a PyPI source is `pypi:NAME==VERSION`, not {source!r}", field="source")
    return m.group(1), m.group(2)


def find_folder(revivals: Path, name: str, version: str) -> Path | None:
    """The folder under `revivals` whose revival.toml says `source = "pypi:NAME==VERSION"` (names compared
    as PyPI compares them); a folder whose TOML does not parse names no source and is passed over."""
    found = []
    for toml in sorted(revivals.glob(f"*/{REVIVAL_TOML}")) if revivals.is_dir() else []:
        try:
            src = tomllib.loads(toml.read_text()).get("source")
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError):
            continue
        m = PYPI.match(src) if isinstance(src, str) else None
        if m and norm(m.group(1)) == norm(name) and m.group(2) == version:
            found.append(toml.parent)
    if len(found) > 1:
        raise SwrError(
            f"{len(found)} revival folders name pypi:{name}=={version}: {', '.join(f.name for f in found)}",
            file=revivals,
        )
    return found[0] if found else None


def resolve(source: str, revivals: Path) -> tuple[Path, bool]:
    """(revival folder, whether it was scaffolded just now) for a `pypi:` source."""
    name, version = parse(source)
    folder = find_folder(revivals, name, version)
    if folder is not None:
        return folder, False
    return scaffold(revivals, name, version), True


def upload_date(name: str, version: str, archive: Path, sha256: str) -> dt.date | None:
    """The day PyPI received this sdist (the index's JSON form, PEP 691/700: what pip reads), or None when
    the index cannot be asked; an index that lists another sha256 for the file is refused."""
    req = urllib.request.Request(SIMPLE_API.format(name=norm(name)), headers={"Accept": SIMPLE_JSON})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            files = json.load(resp).get("files", [])
    except (OSError, ValueError, AttributeError):
        return None
    for f in files:
        if f.get("filename") == archive.name:
            listed = (f.get("hashes") or {}).get("sha256")
            if listed not in (None, sha256):
                raise SwrError(f"{archive.name} has sha256 {sha256}, PyPI lists {listed}", field="sha256")
            when = f.get("upload-time")
            return dt.date.fromisoformat(when[:10]) if isinstance(when, str) else None
    return None


def archive_date(archive: Path) -> dt.date:
    """The newest file date inside the sdist: when PyPI cannot be asked, the day it was built."""
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as z:
            return max((dt.date(*i.date_time[:3]) for i in z.infolist()), default=dt.date(1980, 1, 1))
    with tarfile.open(archive) as t:
        newest = max((m.mtime for m in t.getmembers()), default=0)
    return dt.datetime.fromtimestamp(newest, dt.UTC).date()


def scaffold(revivals: Path, name: str, version: str) -> Path:
    """revivals/<name>/revival.toml from the downloaded sdist; refused when that folder already exists."""
    folder = revivals / re.sub(r"[^a-z0-9-]+", "-", norm(name)).strip("-")
    if folder.exists():
        raise SwrError(f"exists and does not name pypi:{name}=={version} in its {REVIVAL_TOML}", file=folder)
    archive = fetch_sdist(name, version)
    sha = hashlib.sha256(archive.read_bytes()).hexdigest()
    released = upload_date(name, version, archive, sha)
    how = "PyPI's upload date of this sdist"
    if released is None:
        released, how = archive_date(archive), "the sdist's newest file date (PyPI did not answer)"
    with tempfile.TemporaryDirectory(prefix="swr-scaffold-") as d:
        project = unpack(archive, Path(d) / "p")
        summary = _summary(project)
        tests = sorted(
            p.relative_to(project).as_posix()
            for p in project.rglob("*.py")
            if p.name.startswith("test_") or p.name.endswith("_test.py")
        )
        pythonpath = "src" if (project / "src").is_dir() else "."
    native = [v for v, first in PYTHONS if first <= released][-1:] or [PYTHONS[0][0]]
    folder.mkdir(parents=True)
    (folder / REVIVAL_TOML).write_text(
        _render(name, version, sha, released, how, summary, native[0], tests, pythonpath)
    )
    return folder


def _summary(project: Path) -> str:
    info = project / "PKG-INFO"
    text = info.read_text(errors="replace") if info.is_file() else ""
    return (email.parser.Parser().parsestr(text, headersonly=True).get("Summary") or TODO).strip()


def _render(
    name: str,
    version: str,
    sha: str,
    released: dt.date,
    how: str,
    summary: str,
    native: str,
    tests: list[str],
    pythonpath: str,
) -> str:
    q = json.dumps  # a TOML basic string is a JSON string
    return f"""\
# Scaffolded by `swr revive make pypi:{name}=={version}` from the downloaded sdist: source, sha256, released,
# the summary and the test files are the release's; kind, domain, the environments, the split of the tests
# into hidden and public and the probes are yours to choose (docs/revival.md). It cannot build until `kind`
# and `domain` are set.
name = {q(re.sub(r"[^a-z0-9-]+", "-", norm(name)).strip("-"))}
kind = "{TODO}: deleted-module | dependency-rot | build"
domain = "{TODO}: one of the engine domains"
summary = {q(summary)}
source = "pypi:{name}=={version}"
sha256 = "{sha}"
released = {released.isoformat()}  # {how}

[native]
python = "{native}"  # a guess: the newest CPython out when the release was
pip = ["pytest==8.3.3"]

[target]
python = "3.12"
pip = ["pytest==8.3.3"]

[verify]
hidden = [{", ".join(q(t) for t in tests)}]
public = []
pythonpath = [{q(pythonpath)}]
probes = []

[anticheat]
forbidden_packages = [{q(name)}]
"""
