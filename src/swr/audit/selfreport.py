"""The engine half of `swr audit lint`: a dynamic probe for verifier checks that grade a figure the candidate
reports about itself (a residual, a divergence, a balance) instead of recomputing it from the candidate's own
output. The reference's hidden outputs are graded three ways: as they are, with every primary number perturbed
but the diagnostics kept, and with only the diagnostics tampered. A check whose measured value ignores the
first change and follows the second reads a self-report; one that compares a reported figure with a
recomputed one moves with the primary data and is not flagged."""

from __future__ import annotations

import hashlib
import json
import random
import re
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from swr.core.layout import CANDIDATE_RUN
from swr.judge.leaves import Where, map_leaves, walk
from swr.kinds.engine.grading import Case, grade_engine, run_candidate
from swr.kinds.engine.task import EngineTask
from swr.sandbox import Sandbox

Outputs = dict[str, dict[str, Any]]  # case id -> the JSON object a candidate printed
Measured = dict[tuple[str, str], tuple[Any, ...]]  # (case, check) -> its (item, measured, pass) records

DIAGNOSTIC = re.compile(
    r"(^|_)(residuals?|divergences?|div|flux|fluxes|conservation|conserved|balances?|"
    r"imbalances?|wirelength|wire_length|length_total|total_length|errors?|err|norms?|converged|"
    r"convergence|legal|legality|valid|validity|ok|drc|violations?|success|feasible|"
    r"iterations?)(_|$)",
    re.I,
)
NOT_APPLICABLE = "the reference printed no JSON object on any hidden case: there is no reported figure to probe"
REPLAYED = "outputs"  # in the replay candidate: one stored output per case input
REPLAY = f"""#!/usr/bin/env python3
# Replays a stored output: the one written for this input (keyed by its canonical JSON).
import hashlib, json, sys
from pathlib import Path
key = hashlib.sha256(json.dumps(json.load(sys.stdin), sort_keys=True).encode()).hexdigest()
sys.stdout.write((Path(__file__).resolve().parent / "{REPLAYED}" / (key + ".json")).read_text())
"""


def diagnostic(path: Where, declared: list[str]) -> str | None:
    """The reported field a leaf belongs to: a path engine.toml declares as self-reported, or the leaf's path
    up to the first key that names a diagnostic (`documents.*.balances`); None for primary data."""
    for d in declared:
        if _under(path, d.split(".")):
            return d
    for i, p in enumerate(path):
        if isinstance(p, str) and DIAGNOSTIC.search(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", p)):
            return general(path[: i + 1])
    return None


def _under(path: Where, pattern: list[str]) -> bool:
    return len(path) >= len(pattern) and all(s in ("*", str(p)) for s, p in zip(pattern, path))


def general(path: Where) -> str:
    """The leaf's path with list indices as `*` (one name for the same field in every document or row)."""
    return ".".join("*" if isinstance(p, int) else p for p in path) or "."


def numeric_leaves(doc: Any) -> Iterator[tuple[Where, Any]]:
    """Every number and boolean of a JSON document, in document order."""
    return ((p, v) for p, v in walk(doc) if isinstance(v, (int, float)))


def rewrite(doc: Any, fn: Callable[[Where, Any], Any]) -> Any:
    """A copy of doc with fn(path, value) in place of every number and boolean (in document order)."""
    return map_leaves(doc, lambda p, v: fn(p, v) if isinstance(v, (int, float)) else v)


def perturbed(doc: Any, diag: Callable[[Where], bool], rng: random.Random) -> Any:
    """Every primary number moved by 5-15 % and a small absolute step (integers stay integers); the
    diagnostics and the booleans kept as reported."""

    def move(path: Where, v: Any) -> Any:
        if isinstance(v, bool) or diag(path):
            return v
        rel = rng.choice((-1, 1)) * rng.uniform(0.05, 0.15)
        if isinstance(v, int):
            return round(v * (1 + rel)) + rng.choice((-1, 1)) * rng.randint(1, 3)
        return v * (1 + rel) + rng.choice((-1, 1)) * rng.uniform(1e-3, 1e-2)

    return rewrite(doc, move)


def tampered(doc: Any, diag: Callable[[Where], bool], wild: bool) -> Any:
    """Only the diagnostics changed: booleans flipped, numbers set to zero or (wild) to values far off and
    different from each other, so that neither a sum nor a ratio of them survives."""
    seen = [0]

    def tamper(path: Where, v: Any) -> Any:
        if not diag(path):
            return v
        if isinstance(v, bool):
            return not v
        seen[0] += 1
        if not wild:
            return 0 if isinstance(v, int) else 0.0
        return v * 7 + 1000 + 13 * seen[0] if isinstance(v, int) else v * 1e3 + 1e3 + 0.37 * seen[0]

    return rewrite(doc, tamper)


def replay_candidate(dest: Path, cases: list[Case], outputs: Outputs) -> Path:
    """A candidate whose `./run` prints the stored output of the case it is given."""
    (dest / REPLAYED).mkdir(parents=True)
    for c in cases:
        key = hashlib.sha256(json.dumps(c["input"], sort_keys=True).encode()).hexdigest()
        (dest / REPLAYED / f"{key}.json").write_text(json.dumps(outputs[c["id"]]))
    (dest / CANDIDATE_RUN).write_text(REPLAY)
    (dest / CANDIDATE_RUN).chmod(0o755)
    return dest


class Probe:
    """One engine task's verifier, graded on replayed variants of the reference's hidden outputs."""

    def __init__(self, task: EngineTask, sandbox: Sandbox, jobs: int, scratch: Path):
        self.task, self.spec, self.sandbox, self.jobs, self.scratch = task, task.spec, sandbox, jobs, scratch
        self.graded = 0

    def reference_outputs(self) -> Outputs:
        """The reference, run once per hidden case the way grading runs a candidate."""
        with ThreadPoolExecutor(max(1, self.jobs)) as pool:
            ran = list(
                pool.map(lambda c: run_candidate(self.spec, self.task.reference_dir, c, self.sandbox), self.task.hidden)
            )
        return {r.case: r.output for r in ran if isinstance(r.output, dict)}

    def grade(self, cases: list[Case], outputs: Outputs) -> Measured:
        """The verifier's (item, measured, pass) records per (case, check) for these outputs, through engine
        grading (a check reported per item has several)."""
        self.graded += 1
        cand = replay_candidate(self.scratch / f"variant-{self.graded}", cases, outputs)
        v = grade_engine(self.spec, self.task.verifier_dir, cand, cases, self.sandbox, self.jobs, self.task.id)
        got: Measured = {}
        for r in v.records:
            got[(r.case, r.check)] = (*got.get((r.case, r.check), ()), (r.item, r.measured, r.passed))
        return got

    def followers(
        self,
        cases: list[Case],
        ref: Outputs,
        base: Measured,
        ignoring: set[tuple[str, str]],
        diag: Callable[[Where], bool],
    ) -> set[str]:
        """Checks that ignored the primary data and change when only the chosen diagnostics are tampered."""
        moved: set[str] = set()
        for wild in (False, True):
            got = self.grade(cases, {c: tampered(o, diag, wild) for c, o in ref.items()})
            moved |= {check for (case, check) in ignoring if got.get((case, check)) != base[(case, check)]}
        return moved


def probe_task(task: EngineTask, sandbox: Sandbox, jobs: int = 2) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Findings (one per flagged check and reported field) and what was probed; `not_applicable` in the
    summary when the reference printed no JSON object."""
    declared = list(task.spec.diagnostics)

    def diag(p: Where) -> bool:
        return diagnostic(p, declared) is not None

    with tempfile.TemporaryDirectory(prefix="swr-selfreport-") as tmp:
        probe = Probe(task, sandbox, jobs, Path(tmp))
        ref = probe.reference_outputs()
        summary: dict[str, Any] = {"task": task.id, "cases": len(ref), "diagnostics": [], "flagged": {}}
        if not ref:
            return [], {**summary, "not_applicable": NOT_APPLICABLE}
        cases = [c for c in task.hidden if c["id"] in ref]
        groups = sorted({g for o in ref.values() for p, _ in numeric_leaves(o) if (g := diagnostic(p, declared))})
        summary["diagnostics"] = groups
        if not groups:
            return [], summary
        base = probe.grade(cases, ref)
        rng = {c: random.Random(f"{task.id}:{c}") for c in ref}
        kept = probe.grade(cases, {c: perturbed(o, diag, rng[c]) for c, o in ref.items()})
        ignoring = {k for k, v in base.items() if kept.get(k) == v}
        flagged = probe.followers(cases, ref, base, ignoring, diag) if ignoring else set()
        fields = {check: groups for check in flagged}
        if flagged and len(groups) > 1:  # which reported field each check follows
            per = {
                g: probe.followers(cases, ref, base, ignoring, lambda p, g=g: diagnostic(p, declared) == g)  # type: ignore[misc]  # mypy cannot infer a lambda with a default argument
                for g in groups
            }
            fields = {check: [g for g in groups if check in per[g]] or groups for check in flagged}
    summary["flagged"] = {c: fields[c] for c in sorted(fields)}
    return [_finding(task.id, check, field) for check in sorted(fields) for field in fields[check]], summary


def _finding(task: str, check: str, field: str) -> dict[str, Any]:
    """lint's finding shape, plus the verifier check that reads the reported field."""
    return {
        "task": task,
        "severity": "error",
        "check": "self_reported",
        "field": field,
        "message": f"verifier check `{check}` grades the candidate-reported `{field}`: its measured value "
        "ignores the primary output; recompute it from the output",
        "verifier_check": check,
    }


def self_report_audit(
    tasks: list[EngineTask], sandbox: Sandbox, jobs: int = 2
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, str]]]:
    """Findings, per-task probe summaries, and `not_applicable` entries for the engine tasks of a release."""
    findings: list[dict[str, Any]] = []
    probes: list[dict[str, Any]] = []
    na: list[dict[str, str]] = []
    for t in tasks:
        found, summary = probe_task(t, sandbox, jobs)
        findings += found
        probes.append(summary)
        if "not_applicable" in summary:
            na.append({"task": t.id, "kind": t.kind.name, "why": summary["not_applicable"]})
    return findings, probes, na
