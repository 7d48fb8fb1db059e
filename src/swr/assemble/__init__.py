"""`swr build`: the catalog's workflows, engines and revivals into one sealed release. swr.kinds.workflow.build
builds one workflow (sampling, the reference run twice, the gates of swr.kinds.workflow.gates, the instruction of
swr.kinds.workflow.instructions); engines build through swr.kinds.engine, revivals through swr.kinds.revival; the
release carries the defect registers of what it holds."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from swr import __version__
from swr.audit.defects import carry_defects, names_in
from swr.kinds.engine.spec import ENGINE_FILE
from swr.kinds.engine.task import EngineResult, build_engine
from swr.core.errors import SwrError
from swr.core.layout import DEFECTS_TOML, REVIVAL_TOML, ReleasePaths
from swr.core.outputs import RELEASE, claim
from swr.core.release_dir import finish_release, staging_dir
from swr.core.release_file import ReleaseFile
from swr.kinds.revival.build import RevivalResult
from swr.kinds.revival.obfuscate_task import build_with_variant
from swr.sandbox import Sandbox, get_sandbox
from swr.kinds.workflow.spec import SPEC_FILE, WorkflowSpec, load_spec

from swr.kinds.workflow.gates import GATES
from swr.kinds.workflow.build import VARIANT_REDRAWS, BuildOptions, Progress, WorkflowBuild, WorkflowResult, build_workflow

Finished = Callable[["WorkflowResult | EngineResult | RevivalResult", int, int], None]  # (result, finished so far, in all)
__all__ = ["VARIANT_REDRAWS", "BuildOptions", "WorkflowBuild", "WorkflowResult", "build", "discover"]


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


def _timed(fn: Callable[[], WorkflowResult]) -> WorkflowResult:
    """The result with its wall time, for progress lines."""
    t0 = time.monotonic()
    res = fn()
    res.wall_s = time.monotonic() - t0
    return res


def build(paths: list[Path], out: Path, opts: BuildOptions, progress: Progress = lambda a, t: None,
          finished: Finished = lambda r, i, n: None, force: bool = False) -> list[WorkflowResult]:
    """Build a release from workflow directories; failed workflows are reported and left out.
    `finished` hears of each workflow as it ends (a log line per workflow when no progress bar shows).
    `out` is replaced only when empty or an earlier release (or a directory, with `force`)."""
    out = Path(out).absolute()  # sandboxed runs start in "/": a relative mount source would not exist there
    claim(out, RELEASE, force)  # before any work: a refusal costs nothing
    engines = discover(paths, ENGINE_FILE, allow_none=True)
    revivals = discover(paths, REVIVAL_TOML, allow_none=True)
    specs = [load_spec(d) for d in discover(paths, allow_none=bool(engines or revivals))]
    names = [s.name for s in specs]
    if dup := sorted({n for n in names if names.count(n) > 1}):
        raise SwrError(f"workflow name {dup[0]!r} is used by more than one workflow", field="name")
    if opts.executor not in ("local", "dask"):
        raise SwrError(f"unknown executor {opts.executor!r}: local or dask", field="--executor")
    if opts.scheduler and opts.executor != "dask":
        raise SwrError("a scheduler is for --executor dask", field="--scheduler")
    sandbox = get_sandbox(opts.sandbox)
    staging = staging_dir(out)
    done, lock = [0], threading.Lock()

    def report(res: WorkflowResult) -> WorkflowResult:
        with lock:
            done[0] += 1
            finished(res, done[0], len(specs) + len(engines) + len(revivals))  # engines, revivals: after
        return res

    try:
        results: list[Any] = _workflows(specs, staging, opts, sandbox, progress, report)
    except BaseException:  # an unreachable scheduler, an interrupt: no half-written release is left behind
        shutil.rmtree(staging, ignore_errors=True)
        raise
    for d in engines:  # one at a time: each runs its cases `jobs` at a time
        res = build_engine(d, ReleasePaths(staging).tasks, sandbox, opts.jobs, opts.seed)
        results.append(res)
        finished(res, len(results), len(specs) + len(engines) + len(revivals))
    for d in revivals:  # one at a time: each runs a project's test suite several times
        res = build_with_variant(d, ReleasePaths(staging).tasks, sandbox)  # and its [obfuscate] variant
        results.append(res)
        finished(res, len(results), len(specs) + len(engines) + len(revivals))
    summary = ReleaseFile.model_validate({"swr_version": __version__, "seed": opts.seed, "options": opts.summary(),
               "tasks": sorted(t for r in results for t in r.tasks),
               "workflows": sorted((r.summary() for r in results if isinstance(r, WorkflowResult)),
                                   key=lambda w: w["name"]),
               **({"engines": [r.summary() for r in results if isinstance(r, EngineResult)]} if engines else {}),
               **({"revivals": [r.summary() for r in results if isinstance(r, RevivalResult)]} if revivals else {}),
               "gates": {"gates": list(GATES), "workflows_built": sum(not r.failure for r in results
                                                                      if isinstance(r, WorkflowResult)),
                         "workflows_failed": sum(bool(r.failure) for r in results if isinstance(r, WorkflowResult))}})
    if ReleasePaths(staging).tasks.is_dir():  # nothing built, nothing to carry
        carry_defects(defect_registers(paths), staging, names_in(staging))
    finish_release(staging, out, summary, force)
    return results


def _workflows(specs: list[WorkflowSpec], staging: Path, opts: BuildOptions, sandbox: Sandbox, progress: Progress,
               report: Callable[[WorkflowResult], WorkflowResult]) -> list[WorkflowResult]:
    """Every workflow built (results in `specs` order): `jobs` at a time here, each running its executions
    one at a time (a lone workflow gets the `jobs`), those that run system programs (`requires.apt`: the
    slowest executions) first so that none is left alone on one core at the end; or on Dask workers (where
    progress counts whole workflows, since their executions happen out of sight)."""
    if opts.executor == "dask":
        from .distributed import build_on_dask

        def returned(res: WorkflowResult) -> None:
            report(res)
            progress(1, 0)

        progress(0, len(specs))
        return build_on_dask(specs, staging, opts, returned)
    at_once = max(1, min(opts.jobs, len(specs)))
    each = replace(opts, jobs=max(1, opts.jobs // at_once))  # one at a time beside others: one import per role

    def one(spec: WorkflowSpec) -> WorkflowResult:
        with ThreadPoolExecutor(each.jobs) as runs:
            return build_workflow(spec, staging, each, sandbox, runs, progress)

    first = sorted(range(len(specs)), key=lambda i: not specs[i].requires.apt)  # stable: then in `specs` order
    with ThreadPoolExecutor(at_once) as workflows:
        done = dict(zip(first, workflows.map(lambda i: report(_timed(lambda: one(specs[i]))), first)))
    return [done[i] for i in range(len(specs))]


def defect_registers(paths: list[Path]) -> list[Path]:
    """The defects.toml of every catalog or engines tree a build reads from (in a path or above it)."""
    found = {d / DEFECTS_TOML for p in paths for d in (Path(p).absolute(), *Path(p).absolute().parents)
             if (d / DEFECTS_TOML).is_file()}
    return sorted(found)
