"""`swr results JOB JOB…`: models side by side, after the SWR paper's per-model accounting (Appendix G/H).
A model is (agent, model); jobs of the same model pool their runs. Definitions are in docs/results.md."""

from __future__ import annotations

import statistics
import warnings
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.core.layout import ReleasePaths
from swr.kinds.taskfile import read_task_file
from swr.kinds.verdict import Verdict

from .results import pass_at_k
from .score_table import score_tables
from .store import RunRecord, Store

MISSING = "missing_candidate"  # a run that left no program: recorded, but nothing was scored


@dataclass(frozen=True)
class Planned:
    """One scheduled run of a model: which job planned it, and its record if one was written."""

    job: str
    task: str
    attempt: int
    record: RunRecord | None


@dataclass
class Pool:
    """Every planned run of one (agent, model) over the jobs compared."""

    agent: str
    model: str | None
    jobs: set[str] = field(default_factory=set)
    runs: list[Planned] = field(default_factory=list)

    @property
    def label(self) -> str:
        return label_of(self.agent, self.model)


def label_of(agent: str, model: str | None) -> str:
    return f"{agent}/{model or 'none'}"


def agreement(verdict: Verdict | None) -> float | None:
    """Diagnostic agreement of a verdict: a workflow's field agreement (matched graded leaves over all),
    an engine's or revival's share of cases passed (its score k/N); None when the verdict has neither."""
    a = verdict.agreement() if verdict else None
    return None if a is None else float(a)


def is_valid(r: RunRecord | None) -> bool:
    """The paper's "scored" run: it finished, and its hidden verifier graded a program the agent left."""
    return (
        r is not None
        and r.status == "done"
        and r.verdict is not None
        and MISSING not in r.verdict.labels
        and r.verdict.label != MISSING
    )


def verdict_failed(r: RunRecord) -> bool:
    """A valid run its verifier failed (a run failed only by anti-cheat policy has a passing verdict)."""
    return is_valid(r) and not (r.verdict and r.verdict.passed)


def _score(r: RunRecord | None) -> str | None:
    return r.verdict.score if r and r.verdict else None


def _rank(p: Planned) -> tuple[int, int, float]:
    """Best run first: passed > failed > infrastructure failure > no record; then the higher agreement."""
    r = p.record
    if r is None:
        return (0, 0, -1.0)
    a = agreement(r.verdict)
    return (int(bool(r.passed)), 2 if r.status == "done" else 1, -1.0 if a is None else a)


def best_cell(runs: list[Planned]) -> dict[str, Any]:
    """The matrix cell of one (task, model): its best run (ties: the first in job, attempt order)."""
    if not runs:
        return {"passed": False, "score": None, "label": "not_planned", "run": None, "job": None}
    best = max(runs, key=_rank)  # max keeps the first of equals
    r = best.record
    if r is None:
        return {"passed": False, "score": None, "label": "no_record", "run": None, "job": best.job}
    label = "pass" if r.passed else (r.label or ("infra_failure" if r.status != "done" else "fail"))
    return {"passed": bool(r.passed), "score": _score(r), "label": label, "run": r.key, "job": r.job}


def _median(xs: list[float]) -> float | None:
    return float(statistics.median(xs)) if xs else None


def _varies(xs: list[float]) -> bool:
    return any(x != xs[0] for x in xs)


def _coefficient(name: str, xs: list[float], ys: list[float]) -> float | None:
    """scipy.stats' `name` coefficient; None with fewer than 3 points or when either side does not vary
    (where scipy would warn and give nan). Inputs that vary by a few ulps give scipy's value without its
    NearConstantInputWarning, as the hand-written formula did. scipy.stats is imported here, not at the
    top: it takes about a second, which every `swr` command would pay."""
    if len(xs) < 3 or len(xs) != len(ys) or not (_varies(xs) and _varies(ys)):
        return None
    import scipy.stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", scipy.stats.NearConstantInputWarning)
        return float(getattr(scipy.stats, name)(xs, ys).statistic)


def pearson(xs: list[float], ys: list[float]) -> float | None:
    """Pearson's r, or None (see _coefficient)."""
    return _coefficient("pearsonr", xs, ys)


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rho (Pearson's r of the ranks, ties sharing their mean rank): what a monotone, not only
    linear, relation shows; or None (see _coefficient)."""
    return _coefficient("spearmanr", xs, ys)


def model_row(pool: Pool, k: int) -> dict[str, Any]:
    """A model's accounting: planned runs, records, scored (valid) runs, passes and what they cost."""
    recs = [p.record for p in pool.runs if p.record is not None]
    done = [r for r in recs if r.status == "done"]
    first = [p for p in pool.runs if p.attempt == 1]
    by_task: dict[str, list[bool]] = defaultdict(list)
    for p in pool.runs:
        by_task[p.task].append(bool(p.record and p.record.status == "done" and p.record.passed))
    failed = [a for r in done if verdict_failed(r) and (a := agreement(r.verdict)) is not None]
    return {
        "model": pool.label,
        "agent": pool.agent,
        "jobs": sorted(pool.jobs),
        "runs": len(pool.runs),
        "records": len(recs),
        "valid_runs": sum(map(is_valid, recs)),
        "infra_failures": sum(r.status != "done" for r in recs),
        "passes": sum(bool(r.passed) for r in done),
        "first_attempt_pass_rate": (
            sum(bool(p.record and p.record.passed) for p in first) / len(first) if first else 0.0
        ),
        "pass_at_k": statistics.fmean(pass_at_k(len(v), sum(v), k) for v in by_task.values()) if by_task else 0.0,
        "median_turns": _median([r.turns for r in done]),
        "median_tokens": _median([r.input_tokens + r.output_tokens for r in done]),
        "total_cost": round(sum(r.cost for r in recs), 10),
        "mean_failed_agreement": statistics.fmean(failed) if failed else None,
    }


def _pools(store: Store, jobs: list[str]) -> tuple[dict[str, Pool], dict[str, Path]]:
    """Each model's planned runs (every job's own: two jobs with the same settings ran twice), and each
    job's release."""
    pools: dict[str, Pool] = {}
    releases: dict[str, Path] = {}
    configs: dict[str, dict[str, Any]] = {}
    for job in jobs:
        if (cfg := store.job(job)) is None:
            raise SwrError(f"no job named {job!r}", file=store.path)
        configs[job] = cfg
    for job, cfg in configs.items():
        releases[job] = Path(cfg["release"])
        records = {r.key: r for r in store.runs(job)}  # a job's own records: keys are unique within a job
        for task, attempt, key in cfg["planned"]:
            r = records.get(key)
            agent, model = (r.agent, r.model) if r else (cfg["agent"], cfg.get("model"))
            pool = pools.setdefault(label_of(agent, model), Pool(agent, model))
            pool.jobs.add(job)
            pool.runs.append(Planned(job, task, int(attempt), r))
    return dict(sorted(pools.items())), releases


def task_info(task: str, runs: list[Planned], releases: dict[str, Path]) -> dict[str, str]:
    """kind, domain and family from the task.toml of a release that planned it, else from its records."""
    for job in sorted({p.job for p in runs}):
        root = ReleasePaths(releases[job]).task(task).root
        try:
            meta = read_task_file(root)
        except SwrError:
            continue
        return {"task": task, "domain": meta.domain, "family": meta.family, "kind": meta.kind}
    r = next((p.record for p in runs if p.record and p.record.status == "done"), None)
    kind = r.verdict.kind if r and r.verdict else "unknown"
    return {
        "task": task,
        "domain": (r and r.domain) or "unknown",
        "family": (r and r.family) or "unknown",
        "kind": kind,
    }


def family_turns(pools: dict[str, Pool], tasks: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Across families (all models pooled): pass rate (passes over planned runs) against median turns of
    the finished runs. n counts families with a finished run."""
    planned: dict[str, list[bool]] = defaultdict(list)
    turns: dict[str, list[int]] = defaultdict(list)
    for pool in pools.values():
        for p in pool.runs:
            fam = tasks[p.task]["family"]
            planned[fam].append(bool(p.record and p.record.status == "done" and p.record.passed))
            if p.record and p.record.status == "done":
                turns[fam].append(p.record.turns)
    fams = sorted(f for f in planned if turns[f])
    rate = [sum(planned[f]) / len(planned[f]) for f in fams]
    med = [float(statistics.median(turns[f])) for f in fams]
    return {"n": len(fams), "pearson": pearson(rate, med), "spearman": spearman(rate, med)}


def _k(pools: dict[str, Pool], k: int | None) -> int:
    """k for pass@k: at most the fewest attempts any model made at any task (default: that many)."""
    counts = [n for pool in pools.values() for n in _attempts(pool).values()]
    most = min(counts, default=1)
    if k is not None and not 1 <= k <= most:
        raise SwrError(f"k must be between 1 and {most}, the fewest attempts a model made at a task", field="-k")
    return most if k is None else k


def _attempts(pool: Pool) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for p in pool.runs:
        out[p.task] += 1
    return out


def compare_jobs(jobs_dir: Path, jobs: list[str], k: int | None = None) -> dict[str, Any]:
    """Every model of the jobs side by side: exactly what `swr results JOB… --json` prints."""
    names = sorted(set(jobs))
    store = Store(jobs_dir, create=False)
    try:
        pools, releases = _pools(store, names)
    finally:
        store.close()
    k = _k(pools, k)
    by_cell: dict[str, dict[str, list[Planned]]] = defaultdict(lambda: defaultdict(list))
    for label, pool in pools.items():
        for p in pool.runs:
            by_cell[p.task][label].append(p)
    tasks = {t: task_info(t, [p for ps in by_cell[t].values() for p in ps], releases) for t in sorted(by_cell)}
    matrix = {t: {m: best_cell(by_cell[t].get(m, [])) for m in pools} for t in tasks}
    for t, row in matrix.items():
        tasks[t]["successes"] = sum(c["passed"] for c in row.values())
    dist = {str(n): sum(info["successes"] == n for info in tasks.values()) for n in range(len(pools) + 1)}
    planned_in = {t: [releases[j] for j in sorted({p.job for ps in by_cell[t].values() for p in ps})] for t in tasks}
    return {
        "jobs": names,
        "k": k,
        "models": [model_row(pool, k) for pool in pools.values()],
        "tasks": list(tasks.values()),
        "matrix": matrix,
        "success_distribution": dist,
        "family_turns_correlation": family_turns(pools, tasks),
        "non_discriminating": [t for t, info in tasks.items() if pools and info["successes"] == len(pools)],
        "score_tables": score_tables(matrix, list(pools), planned_in),
    }


def models_in(jobs_dir: Path, jobs: list[str]) -> int:
    """How many (agent, model) pairs the jobs hold: one means `swr results` shows a job's summary."""
    store = Store(jobs_dir, create=False)
    try:
        return len(_pools(store, sorted(set(jobs)))[0])
    finally:
        store.close()
