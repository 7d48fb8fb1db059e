"""`swr report`: a static HTML report of jobs and their release (the library is swr.report)."""

from __future__ import annotations

from pathlib import Path

import typer

from swr.cli.common import app, handled, out


@app.command("report")
@handled
def report(
    args: list[str] = typer.Argument(
        ..., metavar="JOB…|RELEASE", help="Job names (in --jobs-dir) and/or one release directory."
    ),
    out_dir: Path = typer.Option(
        ..., "--out", "-o", help="Directory to write the report into: new, empty, or an earlier report."
    ),
    jobs_dir: Path = typer.Option(Path("jobs"), "--jobs-dir", help="Where the store and run records live."),
    k: int = typer.Option(None, "-k", help="k of pass@k (default: the fewest attempts per task)."),
    force: bool = typer.Option(
        False,
        "--force",
        help="Replace --out even when it is not an earlier report (never a file, nor the current or home directory).",
    ),
) -> None:
    """Write a static HTML report: pass rates, failure taxonomy, interaction length, the model × task
    matrix, the release's audits, and a page per run with its trajectory, diff and verdict."""
    from swr.report import build_report
    from swr.report.summary import summary_table

    out.print(summary_table(build_report(args, out_dir, jobs_dir, k, force)))
