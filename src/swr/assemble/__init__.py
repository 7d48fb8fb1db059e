"""`swr build`: source folders of every registered kind (workflows, engines, revivals, plug-ins) into one sealed
release. Each kind finds its sources by its marker file and builds them (swr.kinds.<kind>.kind); each adds its
part of release.json; the release carries the defect registers of what it holds."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from swr import __version__
from swr.audit.defects import carry_defects, names_in
from swr.core.errors import SwrError
from swr.core.layout import DEFECTS_TOML, ReleasePaths
from swr.core.outputs import RELEASE, claim
from swr.core.release_dir import finish_release, staging_dir
from swr.core.release_file import ReleaseFile
from swr.kinds import registry
from swr.kinds.protocol import BuildResult
from swr.kinds.workflow.build import (
    VARIANT_REDRAWS,
    BuildOptions,
    Progress,
    WorkflowBuild,
    WorkflowResult,
    build_workflow,
)
from swr.kinds.workflow.spec import SPEC_FILE
from swr.sandbox import get_sandbox

Finished = Callable[[BuildResult, int, int], None]  # (result, finished so far, in all)
__all__ = ["VARIANT_REDRAWS", "BuildOptions", "WorkflowBuild", "WorkflowResult", "build", "build_workflow", "discover"]


def discover(paths: list[Path], marker: str = SPEC_FILE, allow_none: bool = False) -> list[Path]:
    """Directories holding `marker` (workflow.toml, engine.toml): each path is one, or a tree searched
    for them; finding none is an error unless allowed."""
    found: list[Path] = []
    for p in paths:
        if (p / marker).is_file():
            found.append(p)
        elif p.is_dir():
            found += sorted(f.parent for f in p.rglob(marker) if not any(s.startswith(".") for s in f.parts))
        else:
            raise SwrError("no such workflow or engine directory", file=p)
    if not found and not allow_none:
        raise SwrError(f"no {marker} found", file=", ".join(map(str, paths)))
    return found


def build(
    paths: list[Path],
    out: Path,
    opts: BuildOptions,
    progress: Progress = lambda a, t: None,
    finished: Finished = lambda r, i, n: None,
    force: bool = False,
) -> list[BuildResult]:
    """Build a release from workflow directories; failed workflows are reported and left out.
    `finished` hears of each workflow as it ends (a log line per workflow when no progress bar shows).
    `out` is replaced only when empty or an earlier release (or a directory, with `force`)."""
    out = Path(out).absolute()  # sandboxed runs start in "/": a relative mount source would not exist there
    claim(out, RELEASE, force)  # before any work: a refusal costs nothing
    kinds = registry.kinds()
    sources = [discover(paths, k.marker, allow_none=True) for k in kinds]
    if not any(sources):
        discover(paths, kinds[0].marker)  # the one-line error: no workflow.toml found
    if opts.executor not in ("local", "dask"):
        raise SwrError(f"unknown executor {opts.executor!r}: local or dask", field="--executor")
    if opts.scheduler and opts.executor != "dask":
        raise SwrError("a scheduler is for --executor dask", field="--scheduler")
    sandbox = get_sandbox(opts.sandbox)
    staging = staging_dir(out)
    done, lock, total = [0], threading.Lock(), sum(map(len, sources))

    def report(res: BuildResult) -> None:
        with lock:
            done[0] += 1
            finished(res, done[0], total)

    results: list[BuildResult] = []
    summary: dict[str, Any] = {"swr_version": __version__, "seed": opts.seed, "options": opts.summary()}
    try:  # kinds in the registry's order (workflows, engines, revivals, plug-ins), each source once
        for kind, found in zip(kinds, sources):
            built = kind.build(found, staging, opts, sandbox, progress, report) if found else []
            summary.update(kind.release_summary(built, found))
            results += built
    except BaseException:  # an unreachable scheduler, an interrupt: no half-written release is left behind
        shutil.rmtree(staging, ignore_errors=True)
        raise
    summary["tasks"] = sorted(t for r in results for t in r.tasks)
    if ReleasePaths(staging).tasks.is_dir():  # nothing built, nothing to carry
        carry_defects(defect_registers(paths), staging, names_in(staging))
    finish_release(staging, out, ReleaseFile.model_validate(summary), force)
    return results


def defect_registers(paths: list[Path]) -> list[Path]:
    """The defects.toml of every catalog or engines tree a build reads from (in a path or above it)."""
    found = {
        d / DEFECTS_TOML
        for p in paths
        for d in (Path(p).absolute(), *Path(p).absolute().parents)
        if (d / DEFECTS_TOML).is_file()
    }
    return sorted(found)
