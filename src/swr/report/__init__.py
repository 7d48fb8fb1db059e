"""`swr report JOB…|RELEASE --out DIR`: a static HTML report of jobs (pass rates, failure taxonomy,
interaction length, the model × task matrix, a page per run) and of their release (tasks and audits)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from swr.core.layout import ReportPaths
from swr.core.outputs import REPORT, claim, mark

from .data import gather
from .pages import write_pages


def _clear(report: ReportPaths, force: bool) -> None:
    """Make room for the report: a missing or empty directory, or an earlier report (its marker, or the
    index.html an older swr wrote), whose run pages go; anything else only with `force`."""
    if claim(report.root, REPORT, force) and report.runs.is_dir() and not report.runs.is_symlink():
        shutil.rmtree(report.runs)
    report.root.mkdir(parents=True, exist_ok=True)


def build_report(
    args: list[str], out: Path, jobs_dir: Path, k: int | None = None, force: bool = False
) -> dict[str, Any]:
    """Write the report; what it holds (jobs, models, runs, release, pages) for the command to print."""
    claim(out, REPORT, force)  # before gathering: a refusal costs nothing
    data = gather(args, jobs_dir, k)
    report = ReportPaths(out)
    _clear(report, force)
    pages = write_pages(data, report)
    mark(out, REPORT)
    return {
        "index": str(report.index),
        "jobs": data.jobs,
        "release": str(data.release) if data.release else None,
        "models": [m["model"] for m in (data.compare or {}).get("models", [])],
        "runs": len(data.runs),
        "tasks": len(data.tasks),
        "pages": len(pages),
        "audits": {name: doc is not None for name, doc in sorted(data.audits.items())},
    }
