"""The revival spec (`revival.toml`): which project, how it is broken, the environment it ran in and the one
it must run in, and the hidden tests and probes its verifier runs (docs/revival.md)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from swr.core.errors import SwrError, load_toml
from swr.core.layout import PORT_PATCH, PROBES, REVIVAL_PROJECT, REVIVAL_TOML
from swr.kinds.engine.spec import DOMAINS

KINDS = ("deleted-module", "dependency-rot", "build")
# The post-cutoff cohort's date (`swr results --cohort contamination`, docs/revival.md): a task whose project was
# created on or after it (`created`: its repository's creation or first release) is one no model trained before it
# can have read. Later than the knowledge cutoff of the models swr grades today; the one place it is stated.
POST_CUTOFF = dt.date(2026, 1, 1)
PIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?==[A-Za-z0-9.+!_-]+$")
PYPI = re.compile(r"^pypi:([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+)$")
# a Debian source package at a version (epoch and Debian revision allowed): its upstream .orig.tar.* is the source
DEBIAN = re.compile(r"^debian:([a-z0-9][a-z0-9+.-]+)=((?:\d+:)?[A-Za-z0-9.+~-]+)$")
# a Debian binary package, optionally pinned: `name` or `name=version`, a trailing `*` globbing point releases
APT = re.compile(r"^([a-z0-9][a-z0-9+.-]+)(?:=((?:\d+:)?[A-Za-z0-9.+~-]+\*?))?$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Env(_Strict):
    """An interpreter (a pyenv version prefix, e.g. "3.12") and exact pins installed into a fresh venv; the
    Debian packages the host must have for it (`apt`, checked, never installed by swr); and the `build` steps,
    shell commands run in the project inside the sandbox (network off, the build cap) before its tests."""

    python: str = Field(pattern=r"^\d+\.\d+(\.\d+)?$")
    pip: tuple[str, ...] = ()
    apt: tuple[str, ...] = ()
    build: tuple[str, ...] = ()

    @field_validator("apt")
    @classmethod
    def _debian(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [p for p in v if not APT.match(p)]
        if bad:
            raise ValueError(f"not a Debian package `name` or `name=version[*]`: {bad[0]!r}")
        return v

    @field_validator("build")
    @classmethod
    def _steps(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if any(not s.strip() for s in v):
            raise ValueError("a build step is a non-empty shell command")
        return v

    @field_validator("pip")
    @classmethod
    def _pinned(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [p for p in v if not PIN.match(p)]
        if bad:
            raise ValueError(f"not an exact pin NAME==VERSION: {bad[0]!r}")
        return v

    def pins(self) -> dict[str, str]:
        """{normalised name: version}."""
        return {norm(p.split("==")[0].split("[")[0]): p.split("==")[1] for p in self.pip}


class Verify(_Strict):
    hidden: tuple[str, ...] = Field(min_length=1)  # test files removed from the workspace
    public: tuple[str, ...] = ()  # test files or node ids that ./feedback runs (their files are hashed)
    pythonpath: tuple[str, ...] = (".",)
    probes: tuple[str, ...] = ()
    # a JVM task's: what `java -cp` runs its hidden JUnit classes (hidden `*.java` files) with, entries relative
    # to the project (its build's output) or absolute (Debian's jars, e.g. /usr/share/java/junit4.jar)
    classpath: tuple[str, ...] = ()
    atol: float = Field(default=0.0, ge=0)
    rtol: float = Field(default=1e-9, ge=0)
    timeout_s: float = Field(default=600.0, gt=0)

    @field_validator("hidden", "public", "pythonpath", "probes")
    @classmethod
    def _relative(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for p in v:
            path = p.split("::")[0]
            if path.startswith("/") or ".." in Path(path).parts:
                raise ValueError(f"a path inside the project, not {p!r}")
        return v

    @field_validator("probes")
    @classmethod
    def _probes(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [p for p in v if not (p.startswith(PROBES + "/") and p.endswith(".py"))]
        if bad:
            raise ValueError(f"a probe is a script under {PROBES}/, not {bad[0]!r}")
        return v

    def public_files(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.split("::")[0] for p in self.public))


class RevivalAnticheat(_Strict):
    forbidden_packages: tuple[str, ...] = ()
    # host files (absolute; links resolved) covered in the target's sandboxes, grading's and the agent's, that the
    # native side needs: the era's built library a JVM task records natively (Debian's jar) is not a revival
    forbidden_paths: tuple[str, ...] = ()

    @field_validator("forbidden_paths")
    @classmethod
    def _absolute(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [p for p in v if not p.startswith("/") or ".." in Path(p).parts]
        if bad:
            raise ValueError(f"an absolute host path, not {bad[0]!r}")
        return v


class ObfuscateVariant(_Strict):
    """`[obfuscate]`: also build this task's obfuscated variant (swr.kinds.revival.obfuscate_task), a contamination
    control: every project name renamed, docstrings and the original's name gone, the same verifier."""

    seed: int = 0
    name: str | None = Field(default=None, pattern=r"^[a-z0-9][a-z0-9-]*$")  # its task id (default: from the new names)
    summary: str | None = None  # its summary (default: the plain one, the original's names replaced)
    package: str | None = None  # the top-level package, when the project has several
    strip: tuple[str, ...] = ()  # more text to replace everywhere (a title, an author)
    drop: tuple[str, ...] = ()  # project paths left out of the variant: what the rewrite cannot carry


class Requires(_Strict):
    """`[requires]`: what the machine must have for the task to run at all. `device = "gpu"`: its project's
    kernels need an accelerator; where there is none (swr.kinds.revival.device) build, grade and run skip it
    with one line, counting it neither a pass nor a fail."""

    device: Literal["cpu", "gpu"] = "cpu"


class RevivalSpec(_Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    kind: Literal[KINDS]  # type: ignore[valid-type]
    domain: Literal[DOMAINS]  # type: ignore[valid-type]
    summary: str
    source: str  # "pypi:NAME==VERSION", "debian:SRCPKG=VERSION" or "local"
    sha256: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    released: dt.date
    created: dt.date | None = None  # the repository's creation or first release (the post-cutoff cohort)
    module: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_.]*$")
    native: Env
    target: Env
    verify: Verify
    anticheat: RevivalAnticheat = RevivalAnticheat()
    obfuscate: ObfuscateVariant | None = None
    requires: Requires = Requires()
    directory: Path = Field(exclude=True)

    @model_validator(mode="after")
    def _check(self) -> RevivalSpec:
        if self.source != "local" and not PYPI.match(self.source) and not DEBIAN.match(self.source):
            raise ValueError(f"source is `pypi:NAME==VERSION`, `debian:SRCPKG=VERSION` or `local`, not {self.source!r}")
        if self.source != "local" and self.sha256 is None:
            raise ValueError("a pypi or debian source needs `sha256` (of its sdist or .orig.tar.*)")
        if self.kind == "build" and not (self.native.build and self.target.build):
            raise ValueError("a build task says how it is built: `native.build` and `target.build` (shell steps)")
        if self.module is not None and self.kind != "deleted-module":
            raise ValueError("`module` is for deleted-module tasks")
        if self.obfuscate is not None and self.kind != "deleted-module":
            raise ValueError("`obfuscate` is for deleted-module tasks (a port cannot be renamed with its project)")
        return self

    @property
    def pypi(self) -> tuple[str, str] | None:
        """(name, version) of a PyPI source."""
        m = PYPI.match(self.source)
        return (m.group(1), m.group(2)) if m else None

    @property
    def debian(self) -> tuple[str, str] | None:
        """(source package, version) of a Debian source."""
        m = DEBIAN.match(self.source)
        return (m.group(1), m.group(2)) if m else None

    @property
    def family(self) -> str:
        return self.name


def norm(name: str) -> str:
    """A distribution name as PyPI compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def load_revival(directory: Path, check_files: bool = True) -> RevivalSpec:
    """revival.toml, validated; a bad field is one line naming the file and field. `check_files`: the
    probes, a local project and the port the spec names exist beside it (a source folder, not a task)."""
    path = Path(directory) / REVIVAL_TOML
    data = load_toml(path)
    try:
        spec = RevivalSpec.model_validate({**data, "directory": Path(directory).resolve()})
    except ValidationError as e:
        err = e.errors()[0]
        msg = err["msg"].removeprefix("Value error, ")
        raise SwrError(msg, file=path, field=".".join(str(x) for x in err["loc"]) or None) from None
    if not check_files:
        return spec
    need = list(spec.verify.probes)
    if spec.source == "local":
        need.append(REVIVAL_PROJECT)
    if spec.kind != "deleted-module":
        need.append(PORT_PATCH)
    for rel in need:
        if not (spec.directory / rel).exists():
            raise SwrError(f"missing {rel}", file=path)
    return spec
