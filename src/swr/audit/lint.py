"""`swr audit lint`: verifier configurations that cannot be trusted. Workflow tasks: found without running
anything (and, with `rerun`, tolerances tighter than the reference's own run-to-run variation); engine tasks:
verifier checks that grade a figure the candidate reports about itself (the probe in selfreport.py)."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, cast

from swr import kinds
from swr.core.layout import WORKFLOW_TOML
from swr.core.release_dir import list_tasks
from swr.judge.artifacts import artifact_kind
from swr.judge.artifacts.fields import Reference, artifact_leaves
from swr.judge.compare import dotted
from swr.judge.decision import parse_output, reference_view
from swr.kinds.engine.task import EngineTask
from swr.kinds.workflow.coverage import overlap_findings
from swr.kinds.workflow.reference import Runner
from swr.kinds.workflow.task import Task, load_workflow_task
from swr.sandbox import get_sandbox

from .constants import as_findings
from .mesh_mutants import printed_digits
from .oracle import leaf_within, leaves, limit
from .selfreport import self_report_audit

SELF_REPORTED = re.compile(
    r"(^|_)(residual|error|err|converged|success|status|message|iterations?|n_?iter|"
    r"nfev|njev|runtime|elapsed|wall|wall_time|cpu_time|timing)(_|$)",
    re.I,
)
RECOMPUTABLE_FROM_MESH = re.compile(r"(^|_)(volume|area|surface_area|bounds|centroid|euler|watertight)(_|$)", re.I)
VOLATILE = {
    "timestamp": re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?"),
    "uuid": re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I),
    "path": re.compile(r"(^|\s)/(tmp|home|root|sandbox|var|proc)/"),
}
Finding = dict[str, Any]
RERUN_MARGIN = 0.5  # flag a float whose run-to-run drift uses more than half of its tolerance band
ROUNDOFF = 1e-12  # a spread below this share of a field's largest |value| is roundoff: the field is constant
CHECKS = frozenset(
    {
        "nothing_graded",
        "tolerance_too_loose",
        "percentage_pass",
        "pattern_matches_nothing",
        "self_reported",
        "volatile_value",
        "tolerance_below_drift",
        "rerun_failed",
        "instruction_constant",
        "coverage_overlap",
        "tolerance_below_file_precision",
    }
)


def _finding(task: Task, severity: str, check: str, field: str, message: str) -> dict[str, Any]:
    return {"task": task.id, "severity": severity, "check": check, "field": field, "message": message}


def lint_task(task: Task) -> list[dict[str, Any]]:
    tol = task.tolerances
    refs = [Reference(e.output, e.files) for e in [*task.public, *task.hidden]]
    views = [reference_view(r, tol) for r in refs]
    graded = [dict(leaves(v, tol)) for v in views]
    found: list[dict[str, Any]] = []
    if not any(graded):
        return [_finding(task, "error", "nothing_graded", "", "every output field is ignored: any output passes")]
    found += _loose_fields(task, graded) + _threshold(task, graded) + _dead_patterns(task, graded)
    found += _loose_periods(task, graded) + _constants(task) + _mesh_precision(task, refs)
    arts = {dotted(p) for r in refs for p, _ in artifact_leaves(r, tol)}
    for path in sorted({p for g in graded for p in g}, key=str):
        name, key = dotted(path), str(path[-1]) if path else ""
        if SELF_REPORTED.search(key):
            found.append(
                _finding(
                    task,
                    "warning",
                    "self_reported",
                    name,
                    "a diagnostic the program reports about "
                    "itself is graded; recompute it from the output, or ignore it",
                )
            )
        elif arts and RECOMPUTABLE_FROM_MESH.search(key):
            found.append(
                _finding(
                    task,
                    "warning",
                    "self_reported",
                    name,
                    "a number recomputable from an artifact is graded as reported; grade the artifact instead",
                )
            )
    for kind, rx in VOLATILE.items():
        hits = sorted({dotted(p) for g in graded for p, v in g.items() if isinstance(v, str) and rx.search(v)})
        found += [_finding(task, "warning", "volatile_value", h, f"a graded value looks like a {kind}") for h in hits]
    return found


def _mesh_precision(task: Task, refs: list[Reference]) -> list[dict[str, Any]]:
    """A mesh graded tighter than its file writes numbers (one unit of the last printed digit; float32's 7
    digits in a binary file): re-encoding the same surface moves its area and volume past the band."""
    tol, tight = task.tolerances, {}
    for ref in refs:
        for path, name in artifact_leaves(ref, tol):
            band = tol.for_path(path)
            if ref.files is None or artifact_kind(Path(name)) != "mesh" or band is None:
                continue
            floor = 10.0 ** (1 - printed_digits(ref.files / name))
            if band[1] < floor:
                tight[dotted(path)] = (band[1], floor)
    return [
        _finding(
            task,
            "warning",
            "tolerance_below_file_precision",
            f,
            f"rtol {r:g} is below the {lo:g} the mesh file's digits carry",
        )
        for f, (r, lo) in sorted(tight.items())
    ]


def _constants(task: Task) -> list[dict[str, Any]]:
    """The instruction's stated constants against the workflow's declared ones and its reference's code."""
    has_reference = (task.reference_dir / WORKFLOW_TOML).is_file()
    return as_findings(task.id, task.reference_spec() if has_reference else None)


def _threshold(task: Task, graded: list[dict[tuple, Any]]) -> list[dict[str, Any]]:
    """A pass on a share of scenarios: wrong answers pass, and on exact checks there is no 'nearly right'."""
    t = task.pass_threshold
    if t >= 1.0:
        return []
    exact = any(isinstance(v, (bool, int, str)) for g in graded for v in g.values())
    return [
        _finding(
            task,
            "error" if exact else "warning",
            "percentage_pass",
            "",
            f"a pass needs only {t:.0%} of hidden scenarios" + (" on exact checks" if exact else ""),
        )
    ]


def _dead_patterns(task: Task, graded: list[dict[tuple, Any]]) -> list[dict[str, Any]]:
    """Tolerance and ignore patterns that match no output path: a typo that silently grades otherwise."""
    paths = {p for g in graded for p in g}
    tol, dead = task.tolerances, []
    pats = {f[0] for f in tol.fields} | {a[0] for a in tol.artifacts} | {p for p, _ in tol.periods} | set(tol.zeros)
    for pat in sorted(pats):
        segs = pat.split(".")
        if not any(len(p) >= len(segs) and all(s in ("*", str(x)) for s, x in zip(segs, p)) for p in paths):
            dead.append(pat)
    return [
        _finding(task, "warning", "pattern_matches_nothing", p, "this [outputs] pattern matches no output field")
        for p in dead
    ]


def _loose_fields(task: Task, graded: list[dict[tuple, Any]]) -> list[dict[str, Any]]:
    """Fields that vary across scenarios but never beyond their tolerance: they cannot tell answers apart."""
    tol = task.tolerances
    loose, varied = [], 0
    for path in sorted({p for g in graded for p in g}, key=str):
        vals = [g[path] for g in graded if path in g]
        if not all(type(v) is float and math.isfinite(v) for v in vals) or _constant(vals) or tol.is_zero(path):
            continue  # a field zero by construction varies by rounding noise only (the gates check it does)
        varied += 1
        if all(leaf_within(a, b, tol, path) for a in vals for b in vals):
            loose.append(dotted(path))
    sev = "error" if loose and len(loose) == varied else "warning"
    return [
        _finding(
            task,
            sev,
            "tolerance_too_loose",
            p,
            "every scenario's value lies within the tolerance of every other's: the field cannot discriminate",
        )
        for p in loose
    ]


def _loose_periods(task: Task, graded: list[dict[tuple, Any]]) -> list[dict[str, Any]]:
    """A periodic field whose band reaches half its period accepts every angle; one whose values are not
    floats is not compared modulo anything (the period is a typo or a wrong field)."""
    tol, found = task.tolerances, []
    for path in sorted({p for g in graded for p in g}, key=str):
        period = tol.period_for(path)
        if not period:
            continue
        vals = [g[path] for g in graded if path in g]
        if not all(type(v) is float for v in vals):
            found.append(
                _finding(
                    task,
                    "error",
                    "tolerance_too_loose",
                    dotted(path),
                    f"a period ({period:g}) is declared for a field that is not a float: it is compared exactly",
                )
            )
        elif any(math.isfinite(v) and limit(v, tol, path) >= period / 2 for v in vals):
            found.append(
                _finding(
                    task,
                    "error",
                    "tolerance_too_loose",
                    dotted(path),
                    f"the tolerance band reaches half the field's period ({period:g}): every value passes",
                )
            )
    return found


def _constant(vals: list[float]) -> bool:
    """Equal up to roundoff (D = 1 of an L-section, the convexity of convex solids): not a field that varies,
    so not one that fails to discriminate."""
    return max(vals) - min(vals) <= ROUNDOFF * max(abs(v) for v in vals)


def rerun_drift(task: Task, runner: Runner) -> list[dict[str, Any]]:
    """Re-run the hidden scenarios in other processes; flag floats whose drift eats the tolerance band."""
    tol, found = task.tolerances, []
    for h in task.hidden:
        res = runner.run_second(h.scenario)
        out, _ = parse_output(res.stdout) if res.ok else (None, None)
        if out is None:
            found.append(_finding(task, "error", "rerun_failed", "", "the reference failed when re-run"))
            continue
        again = dict(leaves(out, tol))
        for path, r in leaves(h.output, tol):
            g = again.get(path)
            if type(r) is float and isinstance(g, float) and math.isfinite(r) and math.isfinite(g):
                band = limit(r, tol, path)
                if abs(g - r) > RERUN_MARGIN * band:
                    found.append(
                        _finding(
                            task,
                            "error" if abs(g - r) > band else "warning",
                            "tolerance_below_drift",
                            dotted(path),
                            f"run-to-run drift {abs(g - r):.3g} against a band of {band:.3g}",
                        )
                    )
    return found


def _covers(pattern: str, field: str) -> bool:
    """An accept's field against a finding's: "" names the task itself; otherwise segments, `*` for any one,
    a pattern covering its subtree (as [outputs] patterns do)."""
    if not pattern or not field:
        return pattern == field
    segs, parts = pattern.split("."), field.split(".")
    return len(segs) <= len(parts) and all(s in ("*", p) for s, p in zip(segs, parts))


def apply_accepts(tasks: list[Task], findings: list[Finding]) -> tuple[list[Finding], list[Finding]]:
    """Warnings a workflow's `[[lint.accept]]` declares right move to `accepted` (with the reason); errors stay.
    An accept that names no check or accepts no warning of any of its tasks is a `stale_accept`, so none rot."""
    by_id = {t.id: t for t in tasks}
    accepts = {t.id: t.meta.lint.accept if t.meta.lint else () for t in tasks}
    kept: list[Finding] = []
    accepted: list[Finding] = []
    used: dict[tuple[str, int], str] = {}  # (workflow, accept index) -> the severity it matched, warning first
    for f in findings:
        acc = accepts.get(f["task"], ())
        hit = next((i for i, a in enumerate(acc) if a.check == f["check"] and _covers(a.field, f["field"])), None)
        if hit is None:
            kept.append(f)
            continue
        wf = by_id[f["task"]].meta.workflow
        used[wf, hit] = min(used.get((wf, hit), f["severity"]), f["severity"], key=("warning", "error").index)
        if f["severity"] != "warning":
            kept.append(f)
            continue
        accepted.append({**f, "severity": "accepted", "workflow": wf, "accept": acc[hit].field, "why": acc[hit].why})
    return kept + _stale(tasks, accepts, used), accepted


def _stale(tasks: list[Task], accepts: dict[str, Any], used: dict[tuple[str, int], str]) -> list[Finding]:
    """One warning per accept of a workflow that names no check, or accepted no warning in any of its tasks."""
    first: dict[str, Task] = {}
    for t in sorted(tasks, key=lambda t: t.id):
        first.setdefault(t.meta.workflow, t)
    found = []
    for wf, t in first.items():
        for i, a in enumerate(accepts[t.id]):
            if a.check not in CHECKS:
                why = f"names no lint check ({a.check!r})"
            elif (wf, i) not in used:
                why = f"of {a.check} matches no finding of this workflow's tasks: remove it"
            elif used[wf, i] == "error":
                why = f"of {a.check} matches only errors, which cannot be accepted"
            else:
                continue
            found.append(_finding(t, "warning", "stale_accept", a.field, f"[[lint.accept]] {why}"))
    return found


def lint_audit(release: Path, *, rerun: bool = False, sandbox: str = "bwrap", jobs: int = 2) -> dict[str, Any]:
    """Workflow tasks: their tolerance tables; engine tasks: the self-report probe of their verifier."""
    roots = list_tasks(release)
    linted, not_linted = kinds.covered(roots, "lint")  # tolerance tables
    engines, _ = kinds.covered(roots, "selfreport")  # verifier programs, probed
    not_applicable = [n for n in not_linted if n["task"] not in {r.name for r in engines}]
    tasks = [load_workflow_task(r) for r in linted]
    findings = [f for t in tasks for f in lint_task(t)] + overlap_findings(tasks)
    probes: list[dict[str, Any]] = []
    if engines:
        found, probes, na = self_report_audit(
            [cast(EngineTask, kinds.load(r)) for r in engines], get_sandbox(sandbox), jobs
        )
        findings, not_applicable = findings + found, not_applicable + na
    if rerun:
        sb = get_sandbox(sandbox)
        runners: dict[str, Runner] = {}
        try:
            for t in tasks:
                wf = t.meta.workflow
                runner = runners.setdefault(wf, Runner(t.reference_spec(), sb))
                findings += rerun_drift(t, runner)
        finally:
            for r in runners.values():
                r.close()
    findings, accepted = apply_accepts(tasks, findings)
    findings = [{**f, "severity": "error"} if f["check"] == "coverage_overlap" else f for f in findings]  # unaccepted
    return {
        "release": str(release),
        "tasks": len(tasks) + len(engines),
        "findings": findings,
        "accepted": accepted,
        "self_report_probes": probes,
        "not_applicable": not_applicable,
        "errors": sum(f["severity"] == "error" for f in findings),
        "warnings": sum(f["severity"] == "warning" for f in findings),
    }
