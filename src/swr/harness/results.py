"""`swr results`: pass@1, unbiased pass@k over attempts, per domain and family, the failure taxonomy,
infrastructure failures apart, and what passes cost against failures. A planned run with no record is
a failure in the denominator."""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter, defaultdict
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

from swr import kinds
from swr.core.errors import SwrError
from swr.core.layout import ReleasePaths

from .store import RunRecord, Store


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimator (Chen et al. 2021): 1 - C(n-c, k) / C(n, k)."""
    if k > n:
        raise ValueError("k must not exceed the number of attempts")
    return 1.0 if n - c < k else 1.0 - comb(n - c, k) / comb(n, k)


def _mean_pass_at(groups: dict[str, list[bool]], k: int) -> float:
    return statistics.fmean(pass_at_k(len(g), sum(g), k) for g in groups.values()) if groups else 0.0


def _median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def summarise(
    records: list[RunRecord],
    planned: list[tuple[str, int, str]],
    k: int | None = None,
    cohorts: dict[str, dict[str, str]] | None = None,
) -> dict[str, Any]:
    """The job's figures; `cohorts` ({by: {task: cohort}}) adds pass rates per cohort of each split."""
    by_key = {r.key: r for r in records}
    outcomes: dict[str, list[bool]] = defaultdict(list)
    meta: dict[str, tuple[str, str]] = {}
    labels: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    missing = infra = skipped = 0
    for task, _attempt, key in planned:
        r = by_key.get(key)
        if r is not None and r.status == "done" and r.passed is None:  # graded on a machine that cannot run it
            skipped += 1  # (a revival needing a GPU): neither a pass nor a fail, out of every rate, counted apart
            labels[r.label or "skipped"] += 1
            continue
        ok = r is not None and r.status == "done" and bool(r.passed)
        outcomes[task].append(ok)
        if r is None:
            missing += 1
            labels["no_record"] += 1
            continue
        meta[task] = (r.domain, r.family)
        if r.status != "done":
            infra += 1
            labels["infra_failure"] += 1
            continue
        labels[r.label or "unknown"] += 1
        pairs.update(" + ".join(p) for p in combinations(sorted(set(r.labels)), 2))
    attempts = min((len(v) for v in outcomes.values()), default=0)
    k = k or attempts
    done = [r for r in records if r.status == "done"]

    def group(idx: int) -> dict[str, Any]:
        g: dict[str, dict[str, list[bool]]] = defaultdict(dict)
        for task, oks in outcomes.items():
            g[meta.get(task, ("unknown", "unknown"))[idx]][task] = oks
        return {name: {"tasks": len(ts), "pass_at_1": _mean_pass_at(ts, 1)} for name, ts in sorted(g.items())}

    return {
        "runs": len(planned) - skipped,
        **({"skipped": skipped} if skipped else {}),
        "passed": sum(sum(v) for v in outcomes.values()),
        "tasks": len(outcomes),
        "attempts": attempts,
        "k": k,
        "pass_at_1": _mean_pass_at(outcomes, 1) if attempts else 0.0,
        "pass_at_k": _mean_pass_at(outcomes, k) if attempts and k <= attempts else None,
        "infra_failures": infra,
        "missing_records": missing,
        "labels": dict(sorted(labels.items())),
        "co_occurring_labels": dict(pairs.most_common(20)),
        "by_domain": group(0),
        "by_family": group(1),
        "median_turns": {
            "passed": _median([r.turns for r in done if r.passed]),
            "failed": _median([r.turns for r in done if not r.passed]),
        },
        "median_tokens": {
            "passed": _median([r.input_tokens + r.output_tokens for r in done if r.passed]),
            "failed": _median([r.input_tokens + r.output_tokens for r in done if not r.passed]),
        },
        "scores": best_scores(done),
        "cohorts": {by: _split(outcomes, of) for by, of in (cohorts or {}).items()},
    }


def _split(outcomes: dict[str, list[bool]], cohort_of: dict[str, str]) -> dict[str, Any]:
    """{cohort: {tasks, runs, passed, pass_at_1}}: the job's outcomes split by one cohort of each task."""
    g: dict[str, dict[str, list[bool]]] = defaultdict(dict)
    for task, oks in outcomes.items():
        g[cohort_of[task]][task] = oks
    return {
        name: {
            "tasks": len(ts),
            "runs": sum(len(o) for o in ts.values()),
            "passed": sum(sum(o) for o in ts.values()),
            "pass_at_1": _mean_pass_at(ts, 1),
        }
        for name, ts in sorted(g.items())
    }


def best_scores(records: list[RunRecord]) -> dict[str, str]:
    """Per task with a scored verdict (engine tasks: "k/N" cases), the best run's score."""
    best: dict[str, tuple[float, str]] = {}
    for r in records:
        score = r.verdict.score if r.verdict else None
        if score is not None:
            k, n = (int(x) for x in score.split("/"))
            if r.task not in best or k / max(n, 1) > best[r.task][0]:
                best[r.task] = (k / max(n, 1), score)
    return {t: s for t, (_, s) in sorted(best.items())}


def job_results(
    jobs_dir: Path, job: str, k: int | None = None, cohorts: tuple[str, ...] = (), cutoff: dt.date | None = None
) -> dict[str, Any]:
    """A job's results; `cohorts` (kinds.COHORTS) are read from each task's task.toml in the job's release."""
    store = Store(jobs_dir, create=False)
    try:
        cfg = store.job(job)
        if cfg is None:
            raise SwrError(f"no job named {job!r}", file=store.path)
        planned = [tuple(p) for p in cfg["planned"]]
        split = {by: task_cohorts(Path(cfg["release"]), {p[0] for p in planned}, by, cutoff) for by in cohorts}
        records = store.runs(job)
        out = summarise(records, planned, k, split)
        if "contamination" in cohorts:
            out["contamination"] = contamination(Path(cfg["release"]), _passes(records, planned))
        return {
            "job": job,
            "agent": cfg["agent"],
            "model": cfg["model"],
            "cutoff": cutoff and cutoff.isoformat(),
            **out,
        }
    finally:
        store.close()


def parse_cutoff(text: str | None) -> dt.date | None:
    """--cutoff as a date; a malformed one is a one-line error."""
    try:
        return dt.date.fromisoformat(text) if text else None
    except ValueError:
        raise SwrError(f"a date YYYY-MM-DD, not {text!r}", field="--cutoff") from None


def task_cohorts(release: Path, tasks: set[str], by: str, cutoff: dt.date | None) -> dict[str, str]:
    """{task: its cohort} from the release the job ran on (a task no longer there is an error)."""
    if by not in kinds.COHORTS:
        raise SwrError(f"a cohort is one of {', '.join(kinds.COHORTS)}, not {by!r}", field="--cohort")
    if by == "released" and cutoff is None:
        raise SwrError("the released cohort needs a cutoff date (YYYY-MM-DD)", field="--cutoff")
    at = ReleasePaths(release)
    for t in tasks:
        if not at.task(t).toml.is_file():
            raise SwrError("not found: cohorts are read from the release the job ran on", file=at.task(t).toml)
    return {t: kinds.cohort(at.task(t).root, by, cutoff) for t in sorted(tasks)}


def _passes(records: list[RunRecord], planned: list[tuple[str, int, str]]) -> dict[str, list[bool]]:
    """{task: each planned attempt passed}, as summarise counts them (no record, or not done: a failure)."""
    by_key = {r.key: r for r in records}
    out: dict[str, list[bool]] = defaultdict(list)
    for task, _attempt, key in planned:
        r = by_key.get(key)
        out[task].append(r is not None and r.status == "done" and bool(r.passed))
    return dict(out)


def contamination(release: Path, passes: dict[str, list[bool]]) -> dict[str, Any]:
    """The paper's contamination table beside the cohort split: the post-cutoff date, and per obfuscated pair in
    the job the variant's line similarity to its original (recorded in the release when the variant was built,
    plain and with canonical identifiers) with both tasks' pass@1 (None for a twin the job did not run)."""
    at = ReleasePaths(release)
    pairs = []
    for task in sorted(passes):
        found = kinds.contamination(at.task(task).root)
        if found is None:
            continue
        original = found.pop("original")
        pairs.append(
            {
                "obfuscated": task,
                "original": original,
                **found,
                "pass_at_1": _mean_pass_at({task: passes[task]}, 1),
                "original_pass_at_1": _mean_pass_at({original: passes[original]}, 1) if original in passes else None,
            }
        )
    return {"post_cutoff": kinds.POST_CUTOFF.isoformat(), "pairs": pairs}
