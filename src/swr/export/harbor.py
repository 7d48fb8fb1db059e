"""`swr export harbor RELEASE --out DIR`: one Harbor task directory per task of a release, of every kind. The
agent's image holds the public workspace and swr's wheel (for ./feedback); hidden cases, verifiers and the
reference exist only under tests/ (the judge's input) and solution/ (the oracle). docs/harbor.md explains."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from swr import kinds
from swr.core.cachedir import default_cache_dir
from swr.core.errors import SwrError
from swr.core.hashing import hash_files
from swr.core.layout import HarborTaskPaths, ReleasePaths, TaskPaths, WorkspacePaths
from swr.core.outputs import HARBOR, claim
from swr.core.release_dir import list_tasks, load_release
from swr.core.trees import copy_tree
from swr.export import harbor_files as hf
from swr.sandbox.hide import HOST_ONLY

WHEEL_EPOCH = "315532800"  # 1980-01-01, zip's earliest time: the wheel's bytes do not depend on when it was built
MIN_MEMORY_MB = 4096  # the container also holds the agent: never less, whatever the task's own limit
VERIFY_MARGIN_S = 600.0
IMAGE_REF = re.compile(r"[a-z0-9][A-Za-z0-9._/:-]*(@sha256:[0-9a-f]{64})?")  # what FROM may name; no blank, no newline


def export_release(
    release: Path, out: Path, agent_timeout_s: float = 3600.0, base_image: str | None = None
) -> list[Path]:
    """Write one Harbor task per task of the release under out (new or empty); the task directories."""
    if base_image is not None and not IMAGE_REF.fullmatch(base_image):
        raise SwrError(f"{base_image!r} is not an image reference (name[:tag][@sha256:digest])", field="--base-image")
    roots = list_tasks(release)
    claim(out, HARBOR)  # a new or empty directory: nothing of the user's is replaced
    release_hash = str(load_release(release).content_hash) if ReleasePaths(release).summary.is_file() else ""
    wheel = swr_wheel()
    written = []
    for root in roots:
        dest = out / root.name
        export_task(root, dest, wheel, release_hash, agent_timeout_s, base_image)
        written.append(dest)
    return written


def export_task(
    root: Path, dest: Path, wheel: Path, release_hash: str, agent_timeout_s: float, base_image: str | None = None
) -> None:
    """One Harbor task directory from one swr task directory; base_image: FROM (python:<X.Y>-slim if None)."""
    task, hp = kinds.load(root), HarborTaskPaths(dest)
    parts = task.harbor_parts()
    instruction = TaskPaths(root).instruction.read_text() + hf.harbor_note()
    hp.environment.mkdir(parents=True)
    hp.instruction.write_text(instruction)
    _workspace(root, parts, hp.workspace, instruction)
    shutil.copyfile(wheel, hp.environment / wheel.name)
    pins = agent_requirements(task, parts)
    if pins:
        hp.requirements.write_text("\n".join(pins) + "\n")
    hp.swr_requirements.write_text("\n".join(judge_pins(task, parts)) + "\n")
    image = base_image or f"python:{_python(task.id, parts)}-slim"
    hp.dockerfile.write_text(
        hf.dockerfile(
            image,
            tuple(sorted(set(parts.apt))),
            wheel.name,
            bool(pins),
            task.forbidden_binaries,
            exact=parts.judge_exact,
        )
    )
    copy_tree(root, hp.task_copy)
    _script(hp.test_sh, hf.test_sh())
    task.write_oracle(hp.oracle)
    _script(hp.solve_sh, hf.solve_sh())
    hp.toml.write_text(harbor_toml(task, parts, release_hash, agent_timeout_s).dumps())


def _script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)


def _workspace(root: Path, parts: kinds.HarborParts, dest: Path, instruction: str) -> None:
    """What swr's harness would give the agent (harness/workspace.py), without git: the instruction,
    task.toml, ./feedback, and public/ — or, for a task that starts from a project, that project as solution/."""
    src, ws = TaskPaths(root), WorkspacePaths(dest)
    dest.mkdir(parents=True)
    ws.instruction.write_text(instruction)
    shutil.copyfile(src.toml, ws.toml)
    _script(ws.feedback, hf.feedback_sh())
    if parts.project is not None:
        copy_tree(parts.project, ws.solution, symlinks=True)
    else:
        copy_tree(src.public, ws.public)


def _python(task_id: str, parts: kinds.HarborParts) -> str:
    """The image's Python: the task's (a revival's target), else the exporter's (swr needs ≥ 3.11)."""
    version = parts.python or f"{sys.version_info.major}.{sys.version_info.minor}"
    major_minor = ".".join(version.split(".")[:2])
    if tuple(int(x) for x in major_minor.split(".")) < (3, 11):
        raise SwrError(
            f"Python {version} cannot run swr's judge (3.11 or later)", file=task_id, field="environment.python"
        )
    return major_minor


def agent_requirements(task: kinds.KindTask, parts: kinds.HarborParts) -> list[str]:
    """The agent's Python's pins: the task's own and swr's pins of the kind's libraries (an engine's numpy and
    scipy, what its candidates import in swr's sandbox); never a forbidden package. swr and its deps have
    their own venv."""
    forbidden = {canonicalize_name(p) for p in task.forbidden_packages}
    own = [p for p in parts.agent_pip if canonicalize_name(Requirement(p).name) not in forbidden]
    if not parts.agent_libs:
        return own
    names = forbidden | {canonicalize_name(Requirement(p).name) for p in own}
    return own + [
        p for p in runtime_pins() if (n := canonicalize_name(p.split("==")[0])) in parts.agent_libs and n not in names
    ]


def judge_pins(task: kinds.KindTask, parts: kinds.HarborParts) -> list[str]:
    """What swr's venv in the image holds. An exact one (a revival image's) leaves out what only the host side
    imports (Dask and what it brings: toolz …) and the forbidden distributions: the candidate can read that venv,
    and the original must be absent from the image (revived toolz is Dask's dependency). A judge that needs a
    forbidden one cannot be exported."""
    if not parts.judge_exact:
        return runtime_pins(parts.judge_extras)
    forbidden = {canonicalize_name(p) for p in task.forbidden_packages}
    pins = runtime_pins(parts.judge_extras, leave_out=frozenset(forbidden | {canonicalize_name(p) for p in HOST_ONLY}))
    needed = sorted(forbidden & {canonicalize_name(p.split("==")[0]) for p in pins})
    if needed:
        raise SwrError(
            f"swr's judge needs {needed[0]}, which the task forbids: no image can hold one and not the other",
            file=task.id,
            field="anticheat.forbidden_packages",
        )
    return pins


def runtime_pins(extras: tuple[str, ...] = (), leave_out: frozenset[str] = frozenset()) -> list[str]:
    """name==version for every distribution swr needs at run time (transitively), as installed here; what is in
    `leave_out` (normalised names) and what only it requires are not followed."""
    return list(_runtime_pins(extras, leave_out))


@cache  # the installed distributions do not change while one export runs: reading ~300 METADATA files per task
def _runtime_pins(extras: tuple[str, ...], leave_out: frozenset[str]) -> tuple[str, ...]:  # was 90% of it
    seen: dict[str, tuple[str, frozenset[str]]] = {}
    todo: list[tuple[str, frozenset[str]]] = [("swr", frozenset(extras))]
    while todo:
        name, want = todo.pop()
        if canonicalize_name(name) in leave_out:
            continue
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            raise SwrError(f"{name} is not installed, so its version cannot be pinned", field="requirements") from None
        key = canonicalize_name(dist.metadata["Name"])
        old = seen.get(key)
        if old and want <= old[1]:
            continue
        seen[key] = (dist.version, want | (old[1] if old else frozenset()))
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in (want or {""})):
                todo.append((req.name, frozenset(req.extras)))
    return tuple(sorted(f"{k}=={v}" for k, (v, _) in seen.items() if k != "swr"))


def harbor_toml(
    task: kinds.KindTask, parts: kinds.HarborParts, release_hash: str, agent_timeout_s: float
) -> hf.HarborTaskToml:
    """Harbor's task.toml: swr's identity in [metadata], timeouts and resources from the task's limits."""
    meta: Any = task.meta  # every kind's model has family and domain
    verify_s = VERIFY_MARGIN_S + parts.case_s * parts.hidden_cases + parts.verify_extra_s
    metadata = {
        "swr_task": task.id,
        "swr_kind": task.kind.name,
        "family": meta.family,
        "domain": meta.domain,
        "hidden_cases": parts.hidden_cases,
        "swr_release_hash": release_hash,
        "swr_limits": {"memory_mb": parts.memory_mb, "time_s_per_case": parts.case_s},
    }
    return hf.HarborTaskToml(
        task=hf.HarborPackage(
            name=f"swr/{task.id}", description=parts.summary, keywords=("swr", task.kind.name, meta.family, meta.domain)
        ),
        metadata=metadata,
        verifier=hf.HarborVerifier(timeout_sec=verify_s),
        agent=hf.HarborAgent(timeout_sec=agent_timeout_s),
        environment=hf.HarborEnvironment(memory_mb=max(parts.memory_mb, MIN_MEMORY_MB)),
    )


def swr_wheel() -> Path:
    """A wheel of this swr, built from its source tree once per content (cached): the judge the image runs."""
    import swr

    src = Path(swr.__file__).resolve().parent
    project = src.parents[1]
    if not (project / "pyproject.toml").is_file():
        raise SwrError("export needs swr's source tree (an editable install) to build its wheel", file=project)
    h = hashlib.sha256()
    for name in ("pyproject.toml", "README.md"):
        h.update(name.encode() + b"\0" + (project / name).read_bytes())
    hash_files(h, src, project)
    cache = default_cache_dir() / "harbor-wheels" / h.hexdigest()[:20]
    found = sorted(cache.glob("swr-*.whl"))
    if found:
        return found[0]
    return _build_wheel(project, src, cache)


def _build_wheel(project: Path, src: Path, cache: Path) -> Path:
    with tempfile.TemporaryDirectory(prefix="swr-wheel-") as tmp:
        tree = Path(tmp) / "src"
        for name in ("pyproject.toml", "README.md"):
            shutil.copyfile(project / name, Path(tmp) / name)
        copy_tree(src, tree / src.name)
        env = {**os.environ, "SOURCE_DATE_EPOCH": WHEEL_EPOCH, "PIP_NO_INPUT": "1"}
        res = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--no-deps",
                "--no-build-isolation",
                "--wheel-dir",
                str(Path(tmp) / "dist"),
                tmp,
            ],
            capture_output=True,
            text=True,
            env=env,
        )
        if res.returncode != 0:
            tail = [ln for ln in res.stderr.splitlines() if ln.strip()]
            raise SwrError(f"cannot build swr's wheel: {tail[-1] if tail else res.returncode}", file=project)
        built = sorted((Path(tmp) / "dist").glob("swr-*.whl"))
        cache.mkdir(parents=True, exist_ok=True)
        part = cache / (built[0].name + ".partial")
        shutil.copyfile(built[0], part)
        os.replace(part, cache / built[0].name)
    return cache / built[0].name
