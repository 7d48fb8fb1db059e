"""Virtual environments for revival tasks: one per (interpreter, pins) under the swr cache, keyed by a content
hash, built once with a pyenv interpreter. The sandbox sees a venv and its interpreter read-only at their
own host paths, so a candidate can neither install into nor pin back the environment it is graded in."""

from __future__ import annotations

import fcntl
import fnmatch
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from swr.core.cachedir import default_cache_dir
from swr.core.errors import SwrError
from swr.core.hashing import content_hash
from swr.kinds.revival.spec import APT, Env
from swr.sandbox import Mount

READY = ".swr-ready"  # written last: a venv without it is half-built and made again
PIP_TIMEOUT_S = 1800


@dataclass(frozen=True)
class Venv:
    """A built environment: its directory and the interpreter prefix its python links to."""

    root: Path
    prefix: Path
    version: str

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"

    def mounts(self) -> tuple[Mount, ...]:
        """Both read-only at their own paths (the venv's python is a link into the prefix)."""
        return (Mount(self.prefix, str(self.prefix), "ro"), Mount(self.root, str(self.root), "ro"))


def pyenv_root() -> Path:
    return Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")


def interpreter(version: str) -> tuple[Path, str]:
    """(prefix, full version) of the highest installed pyenv interpreter matching "3.12" or "3.12.1"."""
    root = pyenv_root() / "versions"
    found = []
    for d in root.iterdir() if root.is_dir() else []:
        if re.fullmatch(r"\d+\.\d+\.\d+", d.name) and (d.name == version or d.name.startswith(version + ".")):
            found.append(d)
    if not found:
        raise SwrError(f"no pyenv interpreter {version} under {root}", field="python")
    best = max(found, key=lambda d: tuple(int(x) for x in d.name.split(".")))
    return best.resolve(), best.name


def envs_dir() -> Path:
    return default_cache_dir() / "revival-envs"


def env_key(env: Env, version: str) -> str:
    """The venv's content key: the interpreter's full version, the pins and the Debian packages the pins may
    build against (an environment without `apt` keeps the key it had before `apt` existed). Build steps are
    not in it: they change what is built in a project, never the venv (they key the native recording)."""
    doc: dict[str, object] = {"python": version, "pip": sorted(env.pip)}
    if env.apt:
        doc["apt"] = sorted(env.apt)
    return content_hash(doc)[:20]


def missing_apt(env: Env) -> list[str]:
    """The env's Debian packages not installed on this host (or installed at a version its pin does not
    match), as dpkg-query reports them."""
    out = []
    for want in env.apt:
        m = APT.match(want)
        assert m is not None  # Env's validator
        name, pin = m.group(1), m.group(2)
        try:
            res = subprocess.run(
                ["dpkg-query", "-W", "-f", "${db:Status-Status} ${Version}", name], capture_output=True, text=True
            )
        except FileNotFoundError:  # not a Debian system: nothing is installed the way the spec says
            out.append(want)
            continue
        status, _, version = res.stdout.strip().partition(" ")
        if res.returncode != 0 or status != "installed" or (pin and not fnmatch.fnmatchcase(version, pin)):
            out.append(want)
    return out


def require_apt(env: Env, file: Path | None = None, field: str = "apt") -> None:
    """One line naming the packages missing for env and the apt-get line that installs them."""
    if missing := missing_apt(env):
        names = " ".join(m.split("=")[0] for m in missing)
        raise SwrError(
            f"Debian package(s) not installed: {', '.join(missing)} (apt-get install -y {names}; "
            "`make sysdeps` installs every revival's)",
            file=file,
            field=field,
        )


def ensure(env: Env) -> Venv:
    """The venv for env, made if absent (under a lock: parallel builds share it); a pip failure or a missing
    Debian package is one line."""
    prefix, version = interpreter(env.python)
    key = env_key(env, version)
    root = envs_dir() / key
    if (root / READY).is_file():  # made already; in an agent's sandbox its directory is read-only (no lock)
        return Venv(root, prefix, version)
    require_apt(env)
    root.parent.mkdir(parents=True, exist_ok=True)
    with open(root.parent / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / READY).is_file():
            _build(prefix, root, env.pip)
    return Venv(root, prefix, version)


def locator() -> dict[str, str]:
    """Environment variables under which swr, inside a sandbox that mounts a venv and its interpreter at
    their host paths (an agent's, for ./feedback), finds them where the host does."""
    return {"PYENV_ROOT": str(pyenv_root()), "SWR_CACHE": str(default_cache_dir())}


def _build(prefix: Path, root: Path, pins: tuple[str, ...]) -> None:
    shutil.rmtree(root, ignore_errors=True)
    _run([str(prefix / "bin" / "python3"), "-m", "venv", str(root)], root, "venv")
    pip = [str(root / "bin" / "python"), "-m", "pip", "--no-input", "--disable-pip-version-check"]
    if pins:  # the pins are the whole environment: nothing floats in through a dependency's open range
        _run([*pip, "install", "-q", "--no-deps", *pins], root, "pip install " + " ".join(pins))
    _run([*pip, "check"], root, "pip check (every dependency of a pin must be pinned too)", said="stdout")
    for d, _, files in os.walk(root):  # the sandbox user reads it (a umask of 077 would hide it)
        os.chmod(d, 0o755)
        for f in files:
            p = os.path.join(d, f)
            if not os.path.islink(p):
                os.chmod(p, os.stat(p).st_mode | 0o444)
    (root / READY).write_text(" ".join(pins) + "\n")


def _run(argv: list[str], root: Path, what: str, said: str = "stderr") -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_CONSTRAINT"))}
    try:
        res = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=PIP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise SwrError(f"timed out making the environment: {what}", file=root) from None
    if res.returncode != 0:
        text = res.stdout if said == "stdout" else res.stderr
        tail = [ln for ln in text.splitlines() if "is ignored" not in ln and ln.strip()]
        raise SwrError(f"cannot make the environment ({what}): {tail[-1] if tail else res.returncode}", file=root)


def installed(venv: Venv) -> dict[str, str]:
    """{normalised distribution name: version} installed in the venv (read from its metadata directories)."""
    from swr.kinds.revival.spec import norm

    out = {}
    for site in venv.root.glob("lib/python*/site-packages"):
        for meta in site.glob("*.dist-info"):
            name, _, version = meta.name[: -len(".dist-info")].partition("-")
            out[norm(name)] = version
    return out
