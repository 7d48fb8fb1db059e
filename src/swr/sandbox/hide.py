"""Forbidden packages and programs made absent from a sandbox: capabilities, not names.

A forbidden distribution: every file its RECORD lists (package dirs, module files, `.libs` dirs, native
libraries wherever the wheel put them, data, scripts), and every system copy of its native libraries,
is covered by a stub bound over it. A forbidden program: every file of the Debian package that ships it
(its internal compilers and libraries too), and its Python binding. While any package is forbidden, no
other Python is usable: other interpreters and their library directories (the system's dist-packages,
the base installation's site-packages, bundled Pythons), zipped copies of a forbidden package and copies
vendored inside other packages are covered too; the task's own interpreter and its standard library stay.
A regex over the candidate's source is only a second signal: `importlib.import_module("num" + "py")`
passes any scan, not this.

Everything here is computed once per process (lru caches): a build's thousands of reference jobs hide
nothing and pay nothing; a grading process pays a few hundred milliseconds once."""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from functools import cache, lru_cache
from pathlib import Path

# where other Python installations live under the sandbox's /usr: `<prefix>/bin/python*`, 0..3 levels deep
PREFIX_ROOTS = ("/usr/lib", "/usr/local", "/usr/libexec", "/usr/lib64")
SYSTEM_BINS = ("/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin")
LIB_DIRS = ("/usr/lib", "/usr/lib64", "/usr/local/lib", f"/usr/lib/{sysconfig.get_config_var('MULTIARCH') or ''}")
ARCHIVES = (".whl", ".zip", ".egg", ".pyz")
VENDOR_DIRS = ("_vendor", "vendor", "_vendored", "extern", "_vendored_packages")
DEB_SKIP = ("/usr/share/doc/", "/usr/share/man/", "/usr/share/lintian/", "/usr/share/bug/")


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


@cache
def locations(package: str) -> tuple[Path, ...]:
    """Everything of the package a sandbox must not read: where its modules import from (with the
    `<name>.libs` beside them), every file of its RECORD, and system copies of its native libraries."""
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
    found += distribution_files(package) + system_copies(package)
    return tuple(dict.fromkeys(p.resolve() for p in found))


@cache
def _record(package: str) -> tuple[Path, ...]:
    """The files a distribution installed, as its RECORD lists them (paths normalised, existing only)."""
    from importlib import metadata

    try:
        dist = metadata.distribution(package)
    except (metadata.PackageNotFoundError, ValueError):
        return ()
    paths = (Path(os.path.normpath(str(dist.locate_file(f)))) for f in dist.files or ())
    return tuple(p for p in paths if os.path.lexists(p))


@cache
def distribution_files(package: str) -> tuple[Path, ...]:
    """Every file of a distribution's RECORD, whole directories where it owns every entry."""
    return compress(list(_record(package)))


@cache
def native_libraries(package: str) -> tuple[str, ...]:
    """File names of the shared libraries a distribution ships (its Python extensions aside): what
    `ctypes.CDLL` could load; the anti-cheat scan and the reconnaissance test look for them."""
    return tuple(sorted({p.name for p in _record(package) if _shared_library(p.name)}))


def _shared_library(name: str) -> bool:
    return (
        ".so" in name
        and not name.endswith((".py", ".pyc"))
        and ".cpython-" not in name
        and ".abi3." not in name
        and not name.startswith("_")
    )


@cache
def system_copies(package: str) -> tuple[Path, ...]:
    """The system's copies of a distribution's native libraries (libgmsh.so.* from a Debian package too),
    found by their name up to `.so` in the linker's directories."""
    stems = {n.split(".so")[0] for n in native_libraries(package) if n.startswith("lib")}
    return tuple(
        dict.fromkeys(
            Path(p).resolve()
            for s in sorted(stems)
            for d in LIB_DIRS
            for p in glob.glob(f"{glob.escape(d)}/{glob.escape(s)}.so*")
        )
    )


def compress(files: list[Path]) -> tuple[Path, ...]:
    """The smallest set of paths covering `files`: a directory whose every entry is one of them (or such a
    directory, or a `__pycache__`) stands for all of them — one mount instead of thousands. (Strings, not
    Paths: a distribution lists thousands of files.)"""
    given = {str(f) for f in files}
    parents: set[str] = set()
    for f in given:
        d = os.path.dirname(f)
        while d not in parents and d != "/":
            parents.add(d)
            d = os.path.dirname(d)
    keep = {str(p) for p in _keep()}
    owned: set[str] = set()
    for d in sorted(parents, key=lambda p: -p.count("/")):
        if d in keep:
            continue
        try:
            with os.scandir(d) as it:
                entries = [(e.path, e.name) for e in it]
        except OSError:
            continue
        if entries and all(p in given or p in owned or name == "__pycache__" for p, name in entries):
            owned.add(d)
    return tuple(Path(p) for p in sorted(given | owned) if not _under(p, owned))


def _under(path: str, dirs: set[str]) -> bool:
    d = os.path.dirname(path)
    while d != "/":
        if d in dirs:
            return True
        d = os.path.dirname(d)
    return False


@lru_cache(maxsize=1)
def _keep() -> frozenset[Path]:
    """Directories never covered whole: the task's interpreter's own paths and their ancestors."""
    needed = {Path(p).resolve() for p in (*sys.path, *sysconfig.get_paths().values(), sys.executable) if p}
    needed.add(Path(__file__).resolve().parent.parent)
    return frozenset(needed | {a for p in needed for a in p.parents})


STUBS = Path(__file__).resolve().parent / "stubs"
NULL = Path("/dev/null")


def stubs() -> tuple[Path, Path]:
    """(a directory holding only a raising __init__.py, a file holding only the raise): bound over a
    directory or a Python file. They ship in swr's package, which every sandbox sees at its own path: their
    mounts name no temporary host directory in the sandbox's mountinfo. Other files are covered by /dev/null
    (bound `nodev`: neither readable, executable nor loadable)."""
    return STUBS / "pkg", STUBS / "module.py"


def covers(
    packages: tuple[str, ...], programs: tuple[str, ...] = (), paths: tuple[Path, ...] = ()
) -> list[tuple[Path, Path]]:
    """(stub, location) pairs for a backend to bind read-only, outermost first: every location of every
    package, every file of every program's package, and, when a package is forbidden, every other Python;
    `paths` are covered as they are (copies of a revived original the caller found by content, wherever the
    job mounts them: a target venv is none of swr's Python roots)."""
    if not packages and not programs and not paths:
        return []
    return list(_covers(tuple(sorted(set(packages))), tuple(sorted(set(programs))), tuple(sorted(set(paths)))))


@lru_cache(maxsize=64)
def _covers(
    packages: tuple[str, ...], programs: tuple[str, ...], paths: tuple[Path, ...] = ()
) -> tuple[tuple[Path, Path], ...]:
    pkg_stub, module_stub = stubs()
    found = [loc for p in packages for loc in locations(p)] + [loc for n in programs for loc in program_files(n)]
    found += debian_files(tuple(dict.fromkeys(p for n in programs for p in program_locations(n))))
    if packages:
        found += other_pythons() + zipped(packages) + vendored(packages)
    given = [p.resolve() for p in paths if os.path.lexists(p)]
    visible = [p for p in dict.fromkeys(found) if _mounted(p) and p not in _keep()] + given
    visible = list(dict.fromkeys(p for p in visible if p not in _keep()))
    seen = set(visible)
    outer = [p for p in visible if not any(a in seen for a in p.parents)]
    return tuple((_stub_for(p, pkg_stub, module_stub), p) for p in sorted(outer, key=lambda p: len(p.parts)))


def _stub_for(loc: Path, pkg_stub: Path, module_stub: Path) -> Path:
    if loc.is_dir():
        return pkg_stub
    return module_stub if loc.suffix == ".py" else NULL


def _mounted(p: Path) -> bool:
    """A path the sandbox sees: under /usr (where /bin, /lib… lead) or one of the Python roots."""
    from swr.sandbox.base import python_roots

    return p.is_relative_to("/usr") or any(p.is_relative_to(r) for r in python_roots())


def program_locations(name: str) -> list[Path]:
    """Every file named `name` on the sandbox's PATH (symlinks resolved: a bind lands on the target)."""
    from swr.sandbox.base import sandbox_path

    found = [Path(d) / name for d in sandbox_path().split(":") if (Path(d) / name).exists()]
    return list(dict.fromkeys(p.resolve() for p in found))


@cache
def program_files(name: str) -> tuple[Path, ...]:
    """A forbidden program: every copy on PATH, and a Python distribution of the same name (its binding)
    unless swr's own `./feedback` needs it. The files of the Debian packages shipping the copies (the
    compiler behind a driver, its runtime, its libraries) are `debian_files`, asked for all programs at once."""
    found = program_locations(name)
    if _normal(name) not in _swr_needs():
        found += locations(name) if distribution_files(name) else ()
    return tuple(dict.fromkeys(found))


@cache
def debian_files(paths: tuple[Path, ...]) -> tuple[Path, ...]:
    """The files of the Debian packages that installed `paths` (docs aside): one `dpkg-query -S` and one
    `-L` for all of them (each call reads dpkg's whole database)."""
    query = shutil.which("dpkg-query", path="/usr/bin:/bin")
    if not query or not paths:
        return ()
    usr = [p if p.is_relative_to("/usr") else Path("/usr") / p.relative_to("/") for p in paths]  # usrmerge
    asked = dict.fromkeys(str(q) for q in (*paths, *usr))
    res = subprocess.run([query, "-S", *asked], capture_output=True, text=True, check=False)
    owners = {o for line in res.stdout.splitlines() if ": " in line for o in line.split(": ")[0].split(", ")}
    if not owners:
        return ()
    res = subprocess.run([query, "-L", *sorted(owners)], capture_output=True, text=True, check=False)
    files = [Path(line).resolve() for line in res.stdout.splitlines() if line.startswith("/") and os.path.isfile(line)]
    return compress([f for f in files if f.is_relative_to("/usr") and not str(f).startswith(DEB_SKIP)])


@lru_cache(maxsize=1)
def other_pythons() -> tuple[Path, ...]:
    """Every Python the sandbox could run but the task's own: system and bundled interpreters with their
    library directories, and the base installation's site-packages when the task's venv does not use it
    (the venv's python is the base binary: running it directly must find nothing installed)."""
    found: list[Path] = []
    for d in SYSTEM_BINS:
        found += [Path(p) for p in glob.glob(f"{d}/python*") + glob.glob(f"{d}/pypy*")]
    for root in PREFIX_ROOTS:
        for depth in range(4):
            for exe in glob.glob(f"{root}/{'*/' * depth}bin/python*") + glob.glob(f"{root}/{'*/' * depth}bin/pypy*"):
                prefix = Path(exe).parent.parent
                libs = [Path(p) for lib in ("python*", "pypy*") for p in glob.glob(f"{prefix}/lib/{lib}")]
                found += [Path(exe), *libs]
    found += [
        Path(p)
        for p in glob.glob("/usr/lib/python*")
        + glob.glob("/usr/local/lib/python*")
        + glob.glob("/usr/lib/pypy*")
        + ["/usr/share/python-wheels"]
        if os.path.lexists(p)
    ]
    if sys.prefix != sys.base_prefix:
        found += [Path(p) for p in glob.glob(f"{sys.base_prefix}/lib/python*/site-packages")]
    me = Path(sys.executable).resolve()
    return tuple(dict.fromkeys(p.resolve() for p in found if p.resolve() != me))


@cache
def zipped(packages: tuple[str, ...]) -> tuple[Path, ...]:
    """Archives a Python could import a forbidden package from (wheels, eggs, zips) in the places Pythons
    keep them: wheel caches, ensurepip's bundle, the task's own path entries and site directories."""
    names = {n for p in packages for n in import_names(p)}
    places = [
        "/usr/share/python-wheels",
        f"{sys.base_prefix}/lib/python*/ensurepip/_bundled",
        *(p for p in sys.path if p),
        *sysconfig.get_paths().values(),
    ]
    archives = {
        Path(a)
        for pl in places
        for a in glob.glob(pl) + glob.glob(f"{pl}/*")
        if a.endswith(ARCHIVES) and os.path.isfile(a)
    }
    return tuple(sorted(a.resolve() for a in archives if _holds(a, names)))


@cache
def vendored(packages: tuple[str, ...]) -> tuple[Path, ...]:
    """Copies of a forbidden package vendored inside another (`pip/_vendor/rich`, `setuptools/_vendor/…`):
    importable under the other's name, so covered too."""
    names = {n for p in packages for n in import_names(p)}
    found = [d / f for d in _vendor_dirs() for n in sorted(names) for f in (n, f"{n}.py") if os.path.lexists(d / f)]
    return tuple(sorted({p.resolve() for p in found}))


@lru_cache(maxsize=1)
def _vendor_dirs() -> tuple[Path, ...]:
    """The `_vendor`-style directories of the packages in the task's site directories."""
    sites = sorted({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})
    tops = [Path(site) / e for site in sites for e in (os.listdir(site) if os.path.isdir(site) else ())]
    return tuple(t / v for t in tops for v in VENDOR_DIRS if os.path.isdir(t / v))


def _holds(archive: Path, names: set[str]) -> bool:
    """An archive with a top-level module or package of one of `names` (at its root or under a vendored
    `_vendor/`-style directory)."""
    try:
        with zipfile.ZipFile(archive) as z:
            tops = {part.split(".")[0] for n in z.namelist() for part in n.split("/")[:-1] or [n]}
    except (OSError, zipfile.BadZipFile):
        return False
    return bool(tops & names)


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
