"""Forbidden packages made unimportable in a sandbox: each of their import locations in swr's Python
environment is covered by a stub that raises ImportError. A regex over the candidate's source is only a
second signal: `importlib.import_module("num" + "py")` passes any scan, not this."""
from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

STUB = 'raise ImportError("this package is forbidden in this task and is not installed in its sandbox")\n'
_lock = threading.Lock()


@lru_cache(maxsize=1)
def _by_distribution() -> dict[str, tuple[str, ...]]:
    """Import names per normalised distribution name (scikit-image -> skimage is not guessable)."""
    from importlib import metadata

    out: dict[str, list[str]] = {}
    for name, dists in metadata.packages_distributions().items():
        for d in dists:
            out.setdefault(_normal(d), []).append(name)
    return {k: tuple(sorted(v)) for k, v in out.items()}


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def import_names(package: str) -> tuple[str, ...]:
    """What `import` calls a distribution's modules; a name no distribution claims is taken as one."""
    return _by_distribution().get(_normal(package)) or (package.replace("-", "_"),)


@lru_cache(maxsize=None)
def locations(package: str) -> tuple[Path, ...]:
    """Where the package's modules live (directories of a package, or module files), and the
    `<name>.libs` directories of bundled native libraries beside them."""
    found: list[Path] = []
    for name in import_names(package):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is None:
            continue
        here = [Path(p) for p in spec.submodule_search_locations or ()]
        if not here and spec.origin and os.path.isfile(spec.origin):
            here.append(Path(spec.origin))
        found += here + [p.parent / f"{name}.libs" for p in here if (p.parent / f"{name}.libs").is_dir()]
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=1)
def stubs() -> tuple[Path, Path]:
    """(a directory holding only a raising __init__.py, a file holding only the raise): bound over a
    package directory or a module file. Made once per process, world-readable, removed when it exits (a
    killed one's are swept by the next swr command: leftovers.py)."""
    with _lock:
        d = Path(tempfile.mkdtemp(prefix=f"swr-hide-{os.getpid()}-"))
        owner = os.getpid()
        atexit.register(lambda: os.getpid() == owner and shutil.rmtree(d, ignore_errors=True))  # not a fork's
        os.chmod(d, 0o755)
        (d / "pkg").mkdir(mode=0o755)
        (d / "pkg" / "__init__.py").write_text(STUB)
        (d / "module.py").write_text(STUB)
        (d / "program").write_text("")
        for p in (d / "pkg" / "__init__.py", d / "module.py"):
            p.chmod(0o644)
        (d / "program").chmod(0)  # neither executable nor readable: `which` and the shell pass it by
        return d / "pkg", d / "module.py"


def covers(packages: tuple[str, ...], programs: tuple[str, ...] = ()) -> list[tuple[Path, Path]]:
    """(stub, location) pairs for a backend to bind read-only: every location of every package, and
    every copy of a program on the sandbox's PATH (an empty file no one may execute)."""
    if not packages and not programs:
        return []
    pkg_stub, module_stub = stubs()
    program = pkg_stub.parent / "program"
    return ([(pkg_stub if loc.is_dir() else module_stub, loc) for p in packages for loc in locations(p)]
            + [(program, loc) for name in programs for loc in program_locations(name)])


def program_locations(name: str) -> list[Path]:
    """Every file named `name` on the sandbox's PATH (symlinks resolved: a bind lands on the target)."""
    from swr.sandbox.base import sandbox_path

    found = [Path(d) / name for d in sandbox_path().split(":") if (Path(d) / name).exists()]
    return list(dict.fromkeys(p.resolve() for p in found))


@lru_cache(maxsize=1)
def _swr_needs() -> frozenset[str]:
    """Every distribution `./feedback` may import from: swr's requirements, transitively, but for what only
    the host-side ones (HOST_ONLY) bring."""
    from importlib import metadata

    from packaging.requirements import Requirement

    seen: set[str] = set()
    todo = ["swr"]
    while todo:
        name = _normal(todo.pop())
        if name in seen or name in HOST_ONLY:
            continue
        seen.add(name)
        try:
            reqs = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo += [r.name for r in map(Requirement, reqs) if r.marker is None or r.marker.evaluate({"extra": ""})]
    return frozenset(seen)


# swr's requirements that only the host side imports (the Dask executor, model clients): `./feedback` in an
# agent's sandbox never loads them, so what only they pull in (toolz, cloudpickle …) can be hidden there too.
HOST_ONLY = frozenset({"dask", "distributed", "openai", "cryptography"})


def for_agents(packages: tuple[str, ...]) -> tuple[str, ...]:
    """What an agent's sandbox can hide: not what swr's own `./feedback` imports there (the candidate's
    grading sandbox hides all of them; anti-cheat names any use)."""
    return tuple(p for p in packages if _normal(p) not in _swr_needs())
