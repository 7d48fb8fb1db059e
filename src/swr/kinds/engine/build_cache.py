"""The engine build's cache: what `check_engine` found for an engine (its cases, the report of every gate), kept
under the swr cache dir and keyed by the content of everything that decides it, so building the same engine
again — a second release holding it, `make test`'s several releases — costs a copy, not minutes of sandboxed
runs (issue 25: "the heavy builds are cached by content").

The key holds the engine folder's bytes, the release seed, swr's own source, the interpreter and every
installed distribution (the verifiers' OCP, shapely, ezdxf...), the Debian packages the engine declares (ngspice,
ccx, yosys), the sandbox backend, its PATH and the CPU-quirk variables it passes on, and the CPU (the
achievability margins measure platform variation). Only a clean check is kept: a problem may be a transient (a
timeout on a loaded machine) and is found again next time."""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

import swr
from swr.core.cachedir import default_cache_dir
from swr.core.hashing import content_hash, tree_hash
from swr.core.trees import JUNK
from swr.kinds.engine.spec import EngineSpec
from swr.sandbox.base import FORWARDED_ENV, sandbox_path

VERSION = 1  # of the stored form
OFF = "SWR_NO_ENGINE_CACHE"  # set (to anything) to check every engine afresh


def cache_dir() -> Path:
    return default_cache_dir() / "engine-checks"


@cache
def _host() -> dict[str, Any]:
    """What every engine's key shares: swr's source, the Python environment and the CPU."""
    dists = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions() if d.metadata["Name"])
    cpu = ""
    try:
        cpu = next(ln for ln in Path("/proc/cpuinfo").read_text().splitlines() if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {
        "swr": tree_hash(Path(swr.__file__).parent, JUNK),
        "python": sys.version,
        "dists": dists,
        "machine": platform.machine(),
        "cpu": cpu,
    }


def _debian(packages: list[str]) -> list[str]:
    """name=version of each declared Debian package as dpkg has it ("" when absent: the check will say so)."""
    if not packages:
        return []
    res = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Package}=${Version}\\n", *packages], capture_output=True, text=True
    )
    return sorted(res.stdout.split())


def key(spec: EngineSpec, seed: int, backend: str) -> str:
    return content_hash(
        {
            "version": VERSION,
            "engine": tree_hash(spec.directory, JUNK),
            "seed": seed,
            "backend": backend,
            "apt": _debian(list(spec.apt)),
            "env": {k: os.environ.get(k) for k in FORWARDED_ENV},  # what the sandbox passes on (BLAS kernel)
            "path": sandbox_path(),
            **_host(),
        }
    )


def load(k: str) -> dict[str, Any] | None:
    """The stored check for key k, or None (absent, switched off, or unreadable: then it is made again)."""
    if os.environ.get(OFF):
        return None
    try:
        data = json.loads((cache_dir() / f"{k}.json").read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == VERSION else None


def store(k: str, data: dict[str, Any]) -> None:
    """Written whole then renamed: a reader never sees half a file, and two builds racing write the same bytes."""
    if os.environ.get(OFF):
        return
    d = cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / f".{k}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps({"version": VERSION, **data}))
    os.replace(tmp, d / f"{k}.json")


def clear() -> None:
    shutil.rmtree(cache_dir(), ignore_errors=True)
