"""What a report shows, gathered from the results store, the run directories and the release: plain dicts
and lists in a fixed order, so that the same inputs always give the same pages."""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swr.audit import saved_result
from swr.core.errors import SwrError
from swr.core.layout import JobPaths, ReleasePaths, RunPaths, results_db
from swr.core.release_dir import list_tasks, load_release
from swr.core.release_file import ReleaseFile
from swr.harness.matrix import compare_jobs, label_of
from swr.harness.results import job_results, summarise
from swr.harness.store import RunRecord, Store
from swr.kinds.taskfile import read_task_file

from .composition import composition_stats

AUDITS = ("sensitivity", "replay", "mutation")  # the audit tables a report shows ("not run" when absent)


@dataclass
class Run:
    """One recorded run and where its page and files are."""

    record: RunRecord
    page: str  # the run page's name: a hash of (job, key), so no job name reaches a file name
    paths: RunPaths


@dataclass
class ReportData:
    """Everything the pages render: jobs' numbers, the release's tasks and audits, and the runs."""

    jobs: list[str]
    release: Path | None
    releases: list[str] = field(default_factory=list)  # every release the jobs ran on
    compare: dict[str, Any] | None = None
    by_model: dict[str, dict[str, Any]] = field(default_factory=dict)  # label -> swr.harness.results.summarise
    runs: list[Run] = field(default_factory=list)
    tasks: list[dict[str, str]] = field(default_factory=list)  # the release's tasks (id, kind, domain, family)
    audits: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    summary: ReleaseFile | None = None  # release.json
    contamination: dict[str, dict[str, Any]] = field(default_factory=dict)  # job -> its contamination table
    composition: dict[str, Any] | None = None  # the release's composition statistics (report.composition)


def page_name(job: str, key: str) -> str:
    """A run page's file name: job names are user text, so only a hash of them names a file."""
    return hashlib.sha256(f"{job}\0{key}".encode()).hexdigest()[:20]


def is_release(arg: str) -> bool:
    return ReleasePaths(Path(arg)).summary.is_file()


def split_args(args: list[str], jobs_dir: Path) -> tuple[Path | None, list[str]]:
    """The release (an argument holding release.json) and the job names among the arguments."""
    if not args:
        raise SwrError("name one or more jobs, or a release", field="JOB|RELEASE")
    releases = [Path(a).absolute() for a in args if is_release(a)]
    jobs = [a for a in args if not is_release(a)]
    if len(releases) > 1:
        raise SwrError(f"at most one release per report, got {len(releases)}", field="RELEASE")
    if jobs and not results_db(jobs_dir).is_file():
        raise SwrError(
            f"{jobs[0]!r} is not a release (no release.json) and there is no results store here",
            file=results_db(jobs_dir),
        )
    return (releases[0] if releases else None), list(dict.fromkeys(jobs))


def gather(args: list[str], jobs_dir: Path, k: int | None = None) -> ReportData:
    """Resolve the arguments and read everything the report shows."""
    release, jobs = split_args(args, jobs_dir)
    data = ReportData(jobs=sorted(jobs), release=release)
    if jobs:
        _gather_jobs(data, jobs_dir, k)
    if data.release is None and data.releases:
        data.release = Path(data.releases[0])
    if data.release is not None:
        _gather_release(data, data.release)
    return data


def _gather_jobs(data: ReportData, jobs_dir: Path, k: int | None) -> None:
    """Per job its config and records; per model the pooled summary; across models compare_jobs."""
    store = Store(jobs_dir, create=False)
    try:
        configs = {}
        for job in data.jobs:
            cfg = store.job(job)
            if cfg is None:
                raise SwrError(f"no job named {job!r} (and no release.json at that path)", file=store.path)
            configs[job] = (cfg, store.runs(job))
    finally:
        store.close()
    data.releases = sorted({str(cfg["release"]) for cfg, _ in configs.values()})
    data.compare = compare_jobs(jobs_dir, data.jobs, k)
    pooled: dict[str, tuple[list[RunRecord], list[tuple[str, int, str]]]] = defaultdict(lambda: ([], []))
    for job, (cfg, records) in configs.items():
        by_key = {r.key: r for r in records}
        for task, attempt, key in cfg["planned"]:
            r = by_key.get(key)
            label = label_of(r.agent, r.model) if r else label_of(cfg["agent"], cfg.get("model"))
            recs, planned = pooled[label]
            planned.append((task, int(attempt), key))
            if r is not None:
                recs.append(r)
        data.runs += [Run(r, page_name(job, r.key), JobPaths(jobs_dir, job).run(r.key)) for r in records]
    data.by_model = {label: summarise(recs, planned) for label, (recs, planned) in sorted(pooled.items())}
    data.contamination = {job: c for job in data.jobs if (c := contamination_of(jobs_dir, job, k))}
    data.runs.sort(key=lambda x: (x.record.task, x.record.job, x.record.attempt, x.record.key))


def contamination_of(jobs_dir: Path, job: str, k: int | None) -> dict[str, Any] | None:
    """The job's contamination table (swr results --cohort contamination) when its release is still there and
    holds a task with a contamination cohort (a revival task); None otherwise, so that other jobs' reports and
    those of a removed release stay as they were."""
    try:
        res = job_results(jobs_dir, job, k, ("contamination",))
    except SwrError:  # the release (or a task of it) is gone: the report shows what it has
        return None
    split = res["cohorts"]["contamination"]
    if set(split) <= {"n/a"}:
        return None
    return {"cohorts": split, **res["contamination"]}


def _gather_release(data: ReportData, release: Path) -> None:
    """The release's tasks (from each task.toml) and its saved audit results."""
    try:
        data.summary = load_release(release)
    except SwrError:
        data.summary = None  # a job's release that has since moved: the report still shows the runs
        return
    for root in list_tasks(release):
        meta = read_task_file(root)
        data.tasks.append({"task": root.name, "kind": meta.kind, "domain": meta.domain, "family": meta.family})
    data.audits = {name: saved_result(release, name) for name in AUDITS}
    data.composition = composition_stats(release)


def task_counts(tasks: list[dict[str, str]], by: str) -> dict[str, int]:
    """How many tasks of the release fall in each domain (or family, or kind)."""
    return dict(sorted(Counter(t[by] for t in tasks).items()))
