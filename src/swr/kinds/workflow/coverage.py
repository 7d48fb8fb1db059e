"""Coverage as the measure of "a different part of the software" (issue 26): which functions of the wrapped
package each workflow's reference executes, recorded by the build into every task (private/coverage.json),
and the overlap rule over them: two workflows of one family whose executed sets overlap above the declared
threshold are one workflow (a `swr audit lint` error unless accepted with a why).

What is recorded: the union, over the first draw of the first SCENARIOS variants (sample_scenario(spec, seed, v,
0): scenarios that do not depend on the gates, so `swr catalog list --measure` recomputes exactly what a build
records), of the package's Python functions entered by the reference outside imports, in one sandboxed probe
process (coverage_probe.py: one import, then the calls; its cost is in bench/RESULTS.md). The package is the import
names of the first `[requires] pip` requirement (the catalog's convention: the wrapped package first, its
helpers such as numpy after it), or `[coverage] package` in workflow.toml. Not recorded, with the reason in
the file: a reference that is not Python (a `command` other than `python3 script`), a family without a Python
package (a program installed by apt, driven through subprocess), a probe that failed. Compiled functions have
no Python frame: a package that is all extension code records an empty set, and the rule says it cannot apply.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from importlib import metadata
from itertools import combinations
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from swr.core.layout import TaskPaths
from swr.core.recordfile import Number, read_record, write_record
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.fork_pool import preload_of, python_argv
from swr.kinds.workflow.reference import Runner, resolve_command
from swr.kinds.workflow.scenario import sample_scenario
from swr.kinds.workflow.spec import WorkflowSpec
from swr.kinds.workflow.taskfile import WorkflowTaskFile
from swr.kinds.workflow.warm_pool import with_call_mount
from swr.sandbox import Mount, RunResult, run

# Two workflows of a family are one workflow when four in five of the functions either executes are executed by
# both (Jaccard |A∩B| / |A∪B| > 0.8). Measured on the 92 workflows of 2026-12 (bench/RESULTS.md): pairs that
# wrap clearly different features of one package overlap up to 0.75 through the package's shared core (pint's
# pi theorem against its unit formatting: its registry and parser; sympy's ODE solver against its rational
# integration: its expression arithmetic), while two calls of one entry point with other arguments overlap near
# 1. A family whose core is larger still declares its own bar, with a why ([coverage] overlap_max).
OVERLAP_MAX = 0.8
# Sets this small are a thin Python layer over compiled code (pysam, spglib, sgp4): their overlap says which
# wrapper was called, not which part of the software ran, so the rule does not judge them (reported as n/a).
MIN_FUNCTIONS = 10
PROBE_SCRIPT = Path(__file__).with_name("coverage_probe.py")
PROBE_DST = "/sandbox/swr/coverage_probe.py"
PROBE_RUN = 0  # the execution cache's run number of the probe (1-3 are the reference's executions)
# Scenarios the probe runs: a categorical input may route a scenario to another part of the package, so one draw
# can miss a branch; three catch most of them, at the cost of three traced calls and one import per workflow
# (bench/RESULTS.md: the build itself runs ~100 executions per workflow at K = 6).
SCENARIOS = 3


class CoverageFile(BaseModel):
    """private/coverage.json: what the workflow's reference executed of its package (the same in every variant
    task of the workflow), or why nothing was recorded."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    package: list[str]  # import names (or dotted prefixes) whose functions count
    scenarios: int = Field(ge=0)  # scenarios the probe ran (the first draw of each of the first SCENARIOS variants)
    failed: int = Field(default=0, ge=0)  # of those, how many raised (what ran until then counts)
    functions: list[str] = []  # "module:qualname", sorted: the package's Python functions entered
    modules: dict[str, int] = {}  # the package's modules the process imported -> functions each defines
    overlap_max: Number  # this workflow's threshold (OVERLAP_MAX, or its family's declared override)
    reason: str | None = None  # why nothing was recorded; the overlap rule then does not apply


def coverage_path(task_root: Path) -> Path:
    return TaskPaths(task_root).coverage


def read_coverage(task_root: Path) -> CoverageFile | None:
    """A task's recorded coverage (None in a release built before coverage was recorded)."""
    path = coverage_path(task_root)
    return read_record(CoverageFile, path) if path.is_file() else None


@cache
def _import_names(dist: str) -> tuple[str, ...]:
    """A distribution's top-level import names: its top_level.txt, else the top of the files it installed
    (a package directory, a .py module, or an extension module: packages_distributions() misses the last)."""
    try:
        d = metadata.distribution(dist)
    except metadata.PackageNotFoundError:
        return ()
    listed = (d.read_text("top_level.txt") or "").split()
    if listed:
        return tuple(sorted(set(listed)))
    names = set()
    for f in d.files or ():
        top = f.parts[0]
        if len(f.parts) > 1 and not top.endswith((".dist-info", ".data")) and top != "__pycache__":
            names.add(top)
        elif len(f.parts) == 1 and f.name.endswith((".py", ".so", ".pyd")):
            names.add(f.name.split(".")[0])
    return tuple(sorted(names))


def _requirement_name(req: str) -> str:
    name = req.split(";")[0]
    for sep in "<>=!~[ @":
        name = name.split(sep)[0]
    return name.strip()


def packages_of(spec: WorkflowSpec) -> tuple[list[str], str | None]:
    """The import names whose functions count, or why there are none."""
    if spec.coverage.package:
        return list(spec.coverage.package), None
    if not spec.requires.pip:
        apt = f" (apt: {', '.join(spec.requires.apt)})" if spec.requires.apt else ""
        return [], f"the family wraps a program{apt}, not a Python package: nothing recorded"
    dist = _requirement_name(spec.requires.pip[0])
    names = [n for n in _import_names(dist) if not n.startswith("_") and n.isidentifier()]
    if not names:
        return [], f"no import name found for `{dist}` (not installed?): declare [coverage] package"
    return names, None


def _probe_argv(spec: WorkflowSpec) -> tuple[dict[str, Any] | None, str | None]:
    """The probe's configuration minus the packages: how to call the reference in-process, or why not."""
    if spec.entry:
        return {"entry": spec.entry, "argv": None, "preload": []}, None
    argv = python_argv(resolve_command(spec.command or []))
    if argv is None:
        return None, f"the reference is not a Python program (`{spec.describe_command()}`): nothing recorded"
    return {"entry": None, "argv": argv, "preload": preload_of(spec.directory / argv[0], (spec.directory,))}, None


def coverage_scenarios(spec: WorkflowSpec, seed: int, variants: int) -> list[dict[str, Any]]:
    """The first draw of the first SCENARIOS variants: independent of the gates, so a build and an on-demand
    measure agree."""
    return [sample_scenario(spec, seed, v, 0) for v in range(1, min(variants, SCENARIOS) + 1)]


def record(runner: Runner, cache: ExecutionCache, scenarios: list[dict[str, Any]]) -> CoverageFile:
    """The reference's coverage on these scenarios: the probe run once in the sandbox, or the cached result."""
    spec = runner.spec
    threshold = spec.coverage.overlap_max or OVERLAP_MAX
    packages, why = packages_of(spec)
    cfg, why_not = _probe_argv(spec)
    why = why or why_not
    if why or cfg is None:
        return CoverageFile(package=packages, scenarios=0, overlap_max=threshold, reason=why)
    cfg["packages"] = packages
    probe = {"coverage": scenarios, "config": cfg, "probe": PROBE_SCRIPT.read_text()}
    key = cache.key(spec, probe, PROBE_RUN)
    res = cache.get(key)
    if res is None:
        res = replace(_run_probe(runner, cfg, scenarios), artifacts=None)  # its files are not what it records
        cache.put(key, res)
    base = CoverageFile(package=packages, scenarios=len(scenarios), overlap_max=threshold)
    if not res.ok:
        tail = res.stderr.decode(errors="replace").strip().splitlines()
        how = f"limit {res.limit} hit" if res.limit else f"exit code {res.returncode}"
        why = f"the coverage probe failed ({how}){': ' + tail[-1][:200] if tail else ''}"
        return base.model_copy(update={"reason": why})
    try:  # the reply of a process the reference ran in: read as the model, or recorded as unreadable
        got = json.loads(res.stdout)
        found = {k: got[k] for k in ("failed", "functions", "modules")}
        cov = CoverageFile.model_validate({**base.model_dump(exclude_unset=True), **found, "reason": None})
    except (ValueError, KeyError, TypeError):  # pydantic's ValidationError is a ValueError
        return base.model_copy(update={"reason": "the coverage probe's reply is unreadable"})
    if cov.functions:
        return cov
    return cov.model_copy(
        update={"reason": f"no Python function of {', '.join(packages)} ran (compiled code is not seen)"}
    )


def _run_probe(runner: Runner, cfg: dict[str, Any], scenarios: list[dict[str, Any]]) -> RunResult:
    """One sandboxed process: the probe over every scenario, within the task's limits times the scenarios run."""
    lim = runner.limits
    limits = replace(lim, time_s=lim.time_s * (len(scenarios) + 1), stdout_bytes=max(lim.stdout_bytes, 64 << 20))
    job = runner.job([sys.executable, PROBE_DST, json.dumps(cfg)], limits, artifacts=runner.new_dir())
    job = replace(job, extra_mounts=with_call_mount([*job.extra_mounts, Mount(PROBE_SCRIPT, PROBE_DST)]))
    stdin = "".join(json.dumps(s, sort_keys=True) + "\n" for s in scenarios).encode()
    return run(runner.sandbox, job, stdin)


def write_coverage(task_roots: Iterable[Path], cov: CoverageFile) -> None:
    for root in task_roots:
        write_record(coverage_path(root), cov)


def jaccard(a: CoverageFile, b: CoverageFile) -> float | None:
    """|A∩B| / |A∪B| of the executed functions; None where either recorded nothing or fewer than MIN_FUNCTIONS
    (the rule cannot judge them)."""
    if a.reason or b.reason or min(len(a.functions), len(b.functions)) < MIN_FUNCTIONS:
        return None
    sa, sb = set(a.functions), set(b.functions)
    return len(sa & sb) / len(sa | sb)


def over(covs: dict[str, CoverageFile]) -> list[tuple[str, str, float, float]]:
    """The pairs of one family's workflows over their threshold (the lower of the two): (a, b, overlap, bar)."""
    found = []
    for a, b in combinations(sorted(covs), 2):
        j = jaccard(covs[a], covs[b])
        bar = min(covs[a].overlap_max, covs[b].overlap_max)
        if j is not None and j > bar:
            found.append((a, b, j, bar))
    return found


def family_coverage(covs: dict[str, CoverageFile]) -> dict[str, Any]:
    """A family's coverage of its package: functions executed by any workflow over the functions defined in the
    package's modules any of them imported (`reached`), and the largest overlap of a pair of its workflows."""
    executed = sorted({f for c in covs.values() for f in c.functions})
    modules: dict[str, int] = {}
    for c in covs.values():
        modules.update(c.modules)
    reached = sum(modules.values())
    pairs = [(j, a, b) for a, b in combinations(sorted(covs), 2) if (j := jaccard(covs[a], covs[b])) is not None]
    top = max(pairs, default=None)
    return {
        "package": sorted({p for c in covs.values() for p in c.package}),
        "executed": len(executed),
        "reached": reached,
        "share": round(len(executed) / reached, 4) if reached else None,
        "max_overlap": round(top[0], 4) if top else None,
        "max_pair": [top[1], top[2]] if top else None,
        "threshold": min((c.overlap_max for c in covs.values()), default=OVERLAP_MAX),
        "over": [[a, b, round(j, 4)] for a, b, j, _ in over(covs)],
        "not_recorded": {w: c.reason for w, c in sorted(covs.items()) if c.reason},
        "too_few": sorted(w for w, c in covs.items() if not c.reason and len(c.functions) < MIN_FUNCTIONS),
    }


def release_coverage(task_roots: Iterable[Path]) -> dict[str, dict[str, CoverageFile]]:
    """family -> workflow -> coverage, from a release's tasks (each workflow's first task with a record)."""
    from swr.kinds.taskfile import read_task_file

    out: dict[str, dict[str, CoverageFile]] = {}
    for root in sorted(task_roots):
        cov = read_coverage(root)
        if cov is None:
            continue
        meta = read_task_file(root)
        assert isinstance(meta, WorkflowTaskFile)  # a coverage record is a workflow task's
        out.setdefault(meta.family, {}).setdefault(meta.workflow, cov)
    return out


def measure(specs: list[WorkflowSpec], sandbox: Any, seed: int = 0, variants: int = 6) -> dict[str, CoverageFile]:
    """On demand, without a build: each workflow's coverage as a build with this seed and K records it (the
    execution cache makes it free after that build, and the build free after it)."""
    out, cache_ = {}, ExecutionCache()
    for spec in specs:
        runner = Runner(spec, sandbox)
        try:
            out[spec.name] = record(runner, cache_, coverage_scenarios(spec, seed, variants))
        finally:
            runner.close()
    return out


def overlap_findings(tasks: list[Any]) -> list[dict[str, Any]]:
    """`swr audit lint`'s coverage_overlap findings: one per pair over its bar, on the first task of the pair's
    first workflow by name (where its `[[lint.accept]]`, field = the other workflow's name, belongs). Reported
    as warnings so that an accept can take them; lint_audit makes those left errors."""
    first: dict[tuple[str, str], Any] = {}
    for t in sorted(tasks, key=lambda t: t.id):
        first.setdefault((t.meta.family, t.meta.workflow), t)
    by_family: dict[str, dict[str, CoverageFile]] = {}
    for (family, wf), t in first.items():
        if (cov := read_coverage(t.root)) is not None:
            by_family.setdefault(family, {})[wf] = cov
    found = []
    for family, covs in sorted(by_family.items()):
        for a, b, j, bar in over(covs):
            found.append(
                {
                    "task": first[family, a].id,
                    "severity": "warning",
                    "check": "coverage_overlap",
                    "field": b,
                    "message": f"workflows {a} and {b} of {family} execute largely the same functions of "
                    f"{', '.join(covs[a].package)} (Jaccard {j:.2f} > {bar:g}): they are one workflow; make one "
                    f"exercise another part of the package, or accept it in {a}'s [[lint.accept]] "
                    f'(check = "coverage_overlap", field = "{b}") with a why',
                }
            )
    return found


def catalog_coverage(fams: list[Any], release: Path | None, sandbox: Any = None) -> dict[str, dict[str, Any] | None]:
    """`swr catalog list`'s coverage per family: read from a release's tasks (a family it does not hold: None),
    or, without one, measured on demand (the probe per workflow, no build; see measure)."""
    if release is not None:
        from swr.core.release_dir import list_tasks
        from swr.kinds import kind_of

        recorded = release_coverage(r for r in list_tasks(release) if kind_of(r) == "workflow")
        return {f.name: family_coverage(recorded[f.name]) if f.name in recorded else None for f in fams}
    return {f.name: family_coverage(measure(f.specs, sandbox)) for f in fams}
