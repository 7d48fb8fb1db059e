"""Grading an engine candidate: each case's input to `./run` in the sandbox, its output to the hidden
verifier (sandboxed too: it reads untrusted output), its records per (case, check, item), and the verdict:
k of N items passed, as the paper's Table 2 scores an engine (docs/engines.md "Score")."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr.core.layout import CANDIDATE_RUN, VERIFY
from swr.kinds.engine.spec import Check, EngineSpec
from swr.kinds.engine.verdict import EngineVerdict
from swr.sandbox import WORKDIR, GiB, Job, Limits, Mount, Sandbox, run

TAIL = 2000
Case = dict[str, Any]


@dataclass
class Ran:
    """One case's candidate run: its parsed output, or why there is none, and the items the case scores."""

    case: str
    output: dict[str, Any] | None
    failure: str | None  # execution_failure | parse_failure
    detail: str = ""
    items: tuple[str, ...] = ()  # the case's `items`; () when it has none: the case is then its one item

    @property
    def scored(self) -> tuple[str, ...]:
        """The ids this case scores: its items, else the case itself."""
        return self.items or (self.case,)


def case_items(case: Case) -> tuple[str, ...]:
    """A hidden case's `items` (the scored units inside it, written by the engine's generator); () when it
    names none. Their shape is checked where the build reads the cases (check.check_items)."""
    return tuple(str(i) for i in case.get("items") or ())


@dataclass(frozen=True)
class CandidateTerms:
    """What running a candidate needs of its engine: the interface's limits and the forbidden tools. All of it
    is public (task.toml holds it), so `./feedback` runs the examples in a workspace without the private
    engine.toml."""

    timeout_s: float
    memory_mb: int
    packages: tuple[str, ...]
    binaries: tuple[str, ...]

    @classmethod
    def of(cls, spec: EngineSpec) -> CandidateTerms:
        return cls(
            spec.interface.timeout_s,
            spec.interface.memory_mb,
            tuple(spec.forbidden.packages),
            tuple(spec.forbidden.binaries),
        )


def limits(spec: EngineSpec, verifier: bool = False) -> Limits:
    t = spec.verify_timeout_s if verifier else spec.interface.timeout_s
    return Limits(time_s=t, memory_bytes=(4 * GiB if verifier else spec.interface.memory_mb << 20))


def run_candidate(
    spec: EngineSpec | CandidateTerms,
    candidate: Path,
    case: Case,
    sandbox: Sandbox,
    beneath: tuple[Path, ...] = (),
    env: dict[str, str] | None = None,
) -> Ran:
    """One case through `./run`; `beneath`: directories layered under the candidate's own (a cheat is
    graded over the reference, so it may be one changed file); `env`: variables over the sandbox's own
    (the build runs the reference on another BLAS kernel to measure platform variation)."""
    terms = spec if isinstance(spec, CandidateTerms) else CandidateTerms.of(spec)
    items = case_items(case)
    run_file = next((d / CANDIDATE_RUN for d in (candidate, *beneath) if (d / CANDIDATE_RUN).is_file()), None)
    if run_file is None:
        return Ran(case["id"], None, "missing_candidate", f"{candidate / 'run'} does not exist", items)
    job = Job(
        ["./run"],
        Mount(candidate.resolve(), WORKDIR, "overlay", tuple(d.resolve() for d in beneath)),
        Limits(time_s=terms.timeout_s, memory_bytes=terms.memory_mb << 20),
        env=dict(env or {}),
        hidden=terms.packages,
        hidden_bins=terms.binaries,
    )
    res = run(sandbox, job, (json.dumps(case["input"]) + "\n").encode())
    if not res.ok:
        why = f"limit {res.limit}" if res.limit else f"exit code {res.returncode}"
        return Ran(
            case["id"], None, "execution_failure", f"{why}: {res.stderr.decode(errors='replace')[-TAIL:]}", items
        )
    try:
        out = json.loads(res.stdout)
    except ValueError as e:
        return Ran(case["id"], None, "parse_failure", f"stdout is not one JSON object: {e}", items)
    if not isinstance(out, dict):
        return Ran(case["id"], None, "parse_failure", "stdout is JSON but not an object", items)
    return Ran(case["id"], out, None, "", items)


def run_verifier(
    spec: EngineSpec, verifier_dir: Path, case: Case, output: dict[str, Any], sandbox: Sandbox
) -> list[dict[str, Any]]:
    """verify.py, sandboxed, on one case: {"case", "items", "input", "expected", "output", "checks"} in,
    {"checks": [...]} out, a record per check (case-wide) or per (check, item) (`item`, one of the case's)."""
    checks = {c.name: {"kind": c.kind, "threshold": c.threshold, "better": c.better} for c in spec.checks}
    items = case_items(case)
    payload = {
        "case": case["id"],
        "items": list(items or (case["id"],)),
        "input": case["input"],
        "expected": case.get("expected"),
        "output": output,
        "checks": checks,
    }
    job = Job(["python3", VERIFY], Mount(verifier_dir.resolve(), WORKDIR, "overlay"), limits(spec, verifier=True))
    res = run(sandbox, job, json.dumps(payload).encode())
    try:
        got = json.loads(res.stdout)["checks"] if res.ok else None
    except (ValueError, KeyError, TypeError):
        got = None
    if not isinstance(got, list):
        detail = f"verifier failed ({res.limit or res.returncode}): {res.stderr.decode(errors='replace')[-TAIL:]}"
        return [record(c, case["id"], None, False, detail) for c in spec.checks]
    reported = [r for r in got if isinstance(r, dict)]
    return [r for c in spec.checks for r in check_records(c, case["id"], items or (case["id"],), reported)]


def check_records(c: Check, case: str, items: tuple[str, ...], reported: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One check's records of a case from what the verifier reported: its case-wide record (no `item`), its
    records of the case's own items, and "not reported" for what neither covers. A record naming another
    item covers nothing (a verifier cannot add items: the hidden cases define them) and is dropped."""
    mine = [r for r in reported if r.get("check") == c.name]
    wide = next((r for r in mine if r.get("item") is None), None)
    own = {r["item"]: r for r in reversed(mine) if r.get("item") in items}  # reversed: the first one wins
    out = [_from_verifier(c, case, None, wide)] if wide is not None else []
    out += [_from_verifier(c, case, i, own[i]) for i in items if i in own]
    if wide is None:
        missing = [i for i in items if i not in own]
        if not own:  # nothing at all: one case-wide record says so
            out.append(record(c, case, None, False, "not reported"))
        else:
            out += [record(c, case, None, False, "not reported", item=i) for i in missing]
    return out


def _from_verifier(c: Check, case: str, item: str | None, r: dict[str, Any]) -> dict[str, Any]:
    return record(c, case, r.get("measured"), r.get("pass") is True, str(r.get("detail", "")), item=item)


def record(
    c: Check, case: str, measured: Any, passed: bool, detail: str = "", item: str | None = None
) -> dict[str, Any]:
    """The verifier's result format: one record per (case, check), or per (case, check, item)."""
    if c.kind == "tolerance" and passed:  # the verifier's word is checked against the spec's threshold
        passed = isinstance(measured, (int, float)) and within(c, float(measured))
    return {
        "case": case,
        "item": item,
        "check": c.name,
        "kind": c.kind,
        "measured": measured,
        "threshold": c.threshold,
        "better": c.better if c.kind == "tolerance" else None,
        "pass": bool(passed),
        "detail": detail[:TAIL],
    }


def within(c: Check, measured: float) -> bool:
    assert c.threshold is not None
    return measured <= c.threshold if c.better == "lower" else measured >= c.threshold


def grade_engine(
    spec: EngineSpec,
    verifier_dir: Path,
    candidate: Path,
    cases: list[Case],
    sandbox: Sandbox,
    jobs: int = 2,
    task_id: str = "",
    beneath: tuple[Path, ...] = (),
    env: dict[str, str] | None = None,
) -> EngineVerdict:
    """The engine verdict: every record, `score` "k/N" over the cases' items, pass at the spec's `pass_at`."""

    def one(case: Case) -> tuple[Ran, list[dict[str, Any]]]:
        return grade_case(spec, verifier_dir, candidate, case, sandbox, beneath, env)

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        results = list(pool.map(one, cases))
    return verdict(spec, task_id, results)


def grade_case(
    spec: EngineSpec,
    verifier_dir: Path,
    candidate: Path,
    case: Case,
    sandbox: Sandbox,
    beneath: tuple[Path, ...] = (),
    env: dict[str, str] | None = None,
) -> tuple[Ran, list[dict[str, Any]]]:
    """One case: the candidate's run, and the verifier's records of it (failed records when it did not run)."""
    ran = run_candidate(spec, candidate, case, sandbox, beneath, env)
    if ran.output is None:
        return ran, [record(c, case["id"], None, False, f"{ran.failure}: {ran.detail}") for c in spec.checks]
    return ran, run_verifier(spec, verifier_dir, case, ran.output, sandbox)


def item_failures(spec: EngineSpec, ran: Ran, recs: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Per item the case scores, the checks it fails: for each check, the record covering the item (its own,
    else the check's case-wide one) must exist and pass; two covering records of one kind must both pass."""

    def holds(check: str, item: str) -> bool:
        own = [r for r in recs if r["check"] == check and r.get("item") == item]
        cover = own or [r for r in recs if r["check"] == check and r.get("item") is None]
        return bool(cover) and all(r["pass"] for r in cover)

    return {i: [c.name for c in spec.checks if not holds(c.name, i)] for i in ran.scored}


def verdict(spec: EngineSpec, task_id: str, results: list[tuple[Ran, list[dict[str, Any]]]]) -> EngineVerdict:
    """score "k/N": items passed of the cases' items; pass: k >= the spec's `pass_at`. failed_checks: each
    check failed on at least one item (what the failure taxonomy names), in the spec's order."""
    per_item = [fails for ran, recs in results for fails in item_failures(spec, ran, recs).values()]
    n, k = len(per_item), sum(not fails for fails in per_item)
    failing = {name for fails in per_item for name in fails}
    failed = [c for c in spec.checks if c.name in failing]
    passed = n > 0 and k >= spec.score.pass_at
    runs = [ran for ran, _ in results]
    missing = all(r.failure == "missing_candidate" for r in runs)
    exec_fail = [r for r in runs if r.failure]
    labels = (["missing_candidate"] if missing else sorted({r.failure for r in exec_fail if r.failure})) + [
        f"{c.kind}_failure:{c.name}" for c in failed
    ]
    return EngineVerdict.model_validate(
        {
            "task": task_id,
            "kind": "engine",
            "pass": passed,
            "label": "pass" if passed or not labels else labels[0],
            "labels": labels,
            "score": f"{k}/{n}",
            "failed_checks": [c.name for c in failed],
            "records": [r for _, recs in results for r in recs],
            "cases": [{"case": ran.case, "failure": ran.failure, "detail": ran.detail[-TAIL:]} for ran in runs],
        }
    )
