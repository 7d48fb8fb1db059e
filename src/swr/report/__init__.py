"""`swr report JOB…|RELEASE --out DIR`: a static HTML report of jobs (pass rates, failure taxonomy,
interaction length, the model × task matrix, a page per run) and of their release (tasks and audits)."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from swr.errors import SwrError
from swr.layout import ReportPaths

from .data import gather
from .pages import write_pages


def _clear(report: ReportPaths) -> None:
    """Make room for the report: an empty or missing directory, or an earlier report (whose pages go)."""
    root = report.root
    if root.exists() and not root.is_dir():
        raise SwrError("exists and is not a directory", file=root)
    if root.is_dir() and any(root.iterdir()) and not report.index.is_file():
        raise SwrError("not empty and not an earlier report (no index.html): choose another --out", file=root)
    if report.runs.is_dir():
        shutil.rmtree(report.runs)
    root.mkdir(parents=True, exist_ok=True)


def build_report(args: list[str], out: Path, jobs_dir: Path, k: int | None = None) -> dict[str, Any]:
    """Write the report; what it holds (jobs, models, runs, release, pages) for the command to print."""
    data = gather(args, jobs_dir, k)
    report = ReportPaths(out)
    _clear(report)
    pages = write_pages(data, report)
    return {"index": str(report.index), "jobs": data.jobs, "release": str(data.release) if data.release else None,
            "models": [m["model"] for m in (data.compare or {}).get("models", [])], "runs": len(data.runs),
            "tasks": len(data.tasks), "pages": len(pages),
            "audits": {name: doc is not None for name, doc in sorted(data.audits.items())}}
