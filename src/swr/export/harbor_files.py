"""The files of an exported Harbor task: task.toml (one pydantic model of Harbor 0.26's schema, the fields swr
sets), the agent image's Dockerfile, tests/test.sh and solution/solve.sh. Text only; harbor.py writes them."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import BaseModel, ConfigDict

from swr.core.layout import (
    HARBOR_REWARD,
    HARBOR_SOLUTION,
    HARBOR_TESTS,
    HARBOR_VERIFIER_LOGS,
    HARBOR_WORKDIR,
    SOLUTION,
    HarborTaskPaths,
)

AGENT_USER = "agent"  # Harbor's root-agent rule: the agent runs as a non-root user the image creates
WHEEL_DIR = "/opt/swr-wheel"  # where the image keeps the judge's wheel it installed
PYENV_SHIM = "/opt/swr-pyenv"  # a pyenv-shaped root whose one version is the image's Python (revival venvs)
SWR_VENV = "/opt/swr"  # swr and its dependencies, apart from the agent's Python
TASK_PATH = "/usr/local/bin:/usr/bin:/bin"  # the candidate's PATH: python3 is the image's (the agent's) Python
JUDGE_CACHE = "/var/cache/swr"  # the judge's SWR_CACHE (revival venvs): readable by the candidate's user


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HarborPackage(_Model):
    name: str  # org/name
    description: str
    keywords: tuple[str, ...] = ()


class HarborVerifier(_Model):
    timeout_sec: float
    environment_mode: str = "separate"  # a fresh container of the same image; the agent's solution is restored


class HarborAgent(_Model):
    timeout_sec: float
    user: str = AGENT_USER


class HarborEnvironment(_Model):
    build_timeout_sec: float = 1800.0
    cpus: int = 2
    memory_mb: int
    storage_mb: int = 10240
    workdir: str = HARBOR_WORKDIR


class HarborTaskToml(_Model):
    """Harbor's task.toml (schema 1.4) as swr writes it; `harbor lint` checks it against Harbor's own model."""

    schema_version: str = "1.4"
    artifacts: tuple[str, ...] = (HARBOR_SOLUTION,)  # collected after the agent, restored for the verifier
    task: HarborPackage
    metadata: dict[str, Any]
    verifier: HarborVerifier
    agent: HarborAgent
    environment: HarborEnvironment

    def dumps(self) -> str:
        return tomli_w.dumps(self.model_dump(mode="json"))


def dockerfile(
    image: str,
    apt: tuple[str, ...],
    wheel: str,
    has_requirements: bool,
    forbidden_bins: tuple[str, ...] = (),
    exact: bool = False,
) -> str:
    """The agent's image (and, in Harbor's separate mode, the verifier's): apt packages (forbidden programs
    among them root-only), the task's pins in the image's Python (the agent's), swr and its pinned runtime
    in its own venv SWR_VENV (the judge, ./feedback), the public workspace in the workdir. `exact`: swr's venv
    holds its requirements file and nothing pip would add (a revival image's leaves Dask and the original out)."""
    p = HarborTaskPaths(Path("."))
    lines = [f"FROM {image}", "ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1"]
    if apt:
        lines.append(
            "RUN apt-get update && apt-get install -y --no-install-recommends "
            f"{shlex.join(sorted(apt))} && rm -rf /var/lib/apt/lists/*"
        )
    if forbidden_bins:  # the verifier (root) may run them; the agent and its candidate may not
        lines.append(
            f'RUN for b in {shlex.join(forbidden_bins)}; do p=$(command -v "$b") && '
            'chmod 0700 "$(readlink -f "$p")"; done; true'
        )
    if has_requirements:
        req = _rel(p.requirements)
        lines += [f"COPY {req} /tmp/{req}", f"RUN python3 -m pip install --no-cache-dir -r /tmp/{req}"]
    swr_req = _rel(p.swr_requirements)
    lines += [
        f"COPY {swr_req} /tmp/{swr_req}",
        f"RUN python3 -m venv {SWR_VENV} && {SWR_VENV}/bin/python -m pip install --no-cache-dir "
        f"{'--no-deps ' if exact else ''}-r /tmp/{swr_req}",
        f"COPY {wheel} {WHEEL_DIR}/{wheel}",
        f"RUN {SWR_VENV}/bin/python -m pip install --no-cache-dir --no-index --no-deps {WHEEL_DIR}/{wheel}",
        # revival tasks make their target venv with "a pyenv interpreter": this image's is the one
        f"RUN v=$(python3 -c 'import platform; print(platform.python_version())') && mkdir -p "
        f"{PYENV_SHIM}/versions && ln -s /usr/local {PYENV_SHIM}/versions/$v",
        f"ENV PYENV_ROOT={PYENV_SHIM}",
        f"RUN useradd --create-home --uid 1000 {AGENT_USER}",
        f"WORKDIR {HARBOR_WORKDIR}",
        f"COPY {_rel(p.workspace)}/ {HARBOR_WORKDIR}/",
        f"RUN mkdir -p {HARBOR_SOLUTION} && chown -R {AGENT_USER}:{AGENT_USER} {HARBOR_WORKDIR}",
    ]
    return "\n".join(lines) + "\n"


def _rel(path: Path) -> str:
    """A path under environment/ as the Docker build context (environment/ itself) names it."""
    return path.relative_to(HarborTaskPaths(Path(".")).environment).as_posix()


def test_sh() -> str:
    """Seals the hidden task (root only), then runs swr's judge from its venv on the restored solution: each
    candidate execution runs as SWR_HARBOR_USER on the task's Python. Paths: SWR_HARBOR_* variables."""
    return f"""#!/bin/bash
# swr's hidden verifier for Harbor: grades ${{SWR_HARBOR_SOLUTION}} on the hidden cases of the task in
# ${{SWR_HARBOR_TESTS}}/task and writes ${{SWR_HARBOR_LOGS}}/{HARBOR_REWARD} (docs/harbor.md: the components).
set -u
TESTS="${{SWR_HARBOR_TESTS:-{HARBOR_TESTS}}}"
SOLUTION_DIR="${{SWR_HARBOR_SOLUTION:-{HARBOR_SOLUTION}}}"
LOGS="${{SWR_HARBOR_LOGS:-{HARBOR_VERIFIER_LOGS}}}"
PY="${{SWR_HARBOR_PYTHON:-{SWR_VENV}/bin/python}}"
export SWR_HARBOR_USER="${{SWR_HARBOR_USER:-{AGENT_USER}}}" SWR_HARBOR_TASK_PATH="${{SWR_HARBOR_TASK_PATH:-{TASK_PATH}}}"
export SWR_CACHE="${{SWR_CACHE:-{JUDGE_CACHE}}}"
chmod -R go-rwx "$TESTS"  # hidden cases, outputs and verifier: root's alone while candidates run
mkdir -p "$LOGS"
# Harbor runs this in the agent's workdir: `python -m` would put it first on sys.path (a planted swr package or
# entry point would run as root), so the judge starts from / and isolated (-I: no cwd, no PYTHON*, no user site)
cd /
exec "$PY" -I -m swr.export.harbor_judge "$TESTS/task" "$SOLUTION_DIR" "$LOGS"
"""


def solve_sh() -> str:
    """The oracle: the task's reference solution, written into the solution directory."""
    return f"""#!/bin/bash
# The oracle: puts the task's reference solution where the agent's would be.
set -eu
SOLUTION_DIR="${{SWR_HARBOR_SOLUTION:-{HARBOR_SOLUTION}}}"
HERE="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$SOLUTION_DIR"
mkdir -p "$SOLUTION_DIR"
cp -a "$HERE/oracle/." "$SOLUTION_DIR/"
"""


def feedback_sh() -> str:
    """./feedback in the workspace: swr's public-split grading of solution/ (no hidden file is in the image),
    from swr's venv, the candidate on the task's Python (SWR_NONE_PATH)."""
    return (
        f'#!/bin/sh\ncd "$(dirname "$0")" && SWR_NONE_PATH={TASK_PATH} exec {SWR_VENV}/bin/python '
        f'-m swr.cli feedback . {SOLUTION} --sandbox none --jobs 1 "$@"\n'
    )


def harbor_note() -> str:
    """What instruction.md adds for a Harbor trial: where the workspace is and what is graded."""
    return (
        f"\n## In this environment\n\nYour working directory is `{HARBOR_WORKDIR}`: the files named above "
        f"are there, and your solution must be in `{HARBOR_SOLUTION}`. When you finish, that directory "
        "alone is copied into a fresh container of this image and graded there on the hidden cases.\n"
    )
