"""`swr export …` (what users take away: an SFT corpus of verified trajectories, Harbor tasks) and
`swr subset` (a held-out task-id file for `swr run -i @FILE` and `swr export sft --exclude`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from swr.cli.common import JSON, app, handled, out
from swr.cli.run import JOBS_DIR

export_app = typer.Typer(no_args_is_help=True, help="Export verified trajectories or tasks.")


def sft_table(res: dict[str, Any]) -> Table:
    t = Table(title=f"SFT corpus: {res['out']}")
    t.add_column("what")
    t.add_column("count", justify="right")
    for what, n in [
        ("entries written", res["entries"]),
        ("verified runs in the pool", res["runs"]),
        ("tasks", res["tasks"]),
        ("tasks with a single success", res["single_success_tasks"]),
        *((f"left out: {k}", v) for k, v in res["skipped"].items()),
        ("held-out sibling groups", len(res["held_out_groups"])),
    ]:
        t.add_row(what, str(n))
    return t


@export_app.command("sft")
@handled
def sft(
    jobs: list[str] = typer.Argument(..., metavar="JOB...", help="Recorded jobs to take runs from."),
    out_file: Path = typer.Option(..., "--out", help="The corpus, JSON lines."),
    jobs_dir: Path = JOBS_DIR,
    entries: int = typer.Option(
        None,
        "--entries",
        help="Entries to write (default: every verified run once); more than the runs oversamples, fewer subsamples.",
    ),
    exclude: Path = typer.Option(
        None,
        "--exclude",
        help="Task-id file (e.g. from `swr subset`): these tasks and their sibling variants are left out.",
    ),
    seed: int = typer.Option(0, "--seed"),
    max_tokens: int = typer.Option(None, "--max-tokens", min=1, help="Drop rows longer than this."),
    tokenizer: str = typer.Option(
        None,
        "--tokenizer",
        help="A tiktoken encoding (default o200k_base), a tokenizer.json file, or a local Hugging Face tokenizer.",
    ),
    as_json: bool = JSON,
) -> None:
    """Verified trajectories as chat rows for SFT (docs/export.md)."""
    from swr.export.sft import export_sft
    from swr.export.subset import read_ids

    held = tuple(read_ids(exclude, "--exclude")) if exclude else ()
    res = export_sft(
        jobs_dir, jobs, out_file, entries=entries, exclude=held, seed=seed, max_tokens=max_tokens, tokenizer=tokenizer
    )
    if as_json:
        print(json.dumps(res, indent=2))
    else:
        out.print(sft_table(res))


@app.command("subset")
@handled
def subset(
    release: Path,
    size: int = typer.Option(100, "--size", min=1),
    out_file: Path = typer.Option(..., "--out", help="Task-id file, one id a line."),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """A held-out subset stratified by domain and family, like SWR100."""
    from swr.export.subset import subset as draw

    ids = draw(release, size, seed)
    out_file.parent.mkdir(parents=True, exist_ok=True)
    out_file.write_text("".join(f"{i}\n" for i in ids))
    out.print(f"{len(ids)} task ids written to {out_file}", markup=False, highlight=False)


def harbor_table(rows: list[dict[str, Any]], out_dir: Path) -> Table:
    t = Table("task", "kind", "harbor task directory", title=f"{len(rows)} Harbor tasks in {out_dir}")
    for r in rows:
        t.add_row(r["task"], r["kind"], r["dir"])
    return t


@export_app.command("harbor")
@handled
def harbor(
    release: Path,
    out_dir: Path = typer.Option(..., "--out", help="A new or empty directory."),
    agent_timeout: float = typer.Option(
        3600.0, "--agent-timeout", min=1, help="Seconds an agent may work on a task ([agent] timeout_sec)."
    ),
    base_image: str | None = typer.Option(
        None,
        "--base-image",
        help="The Dockerfiles' FROM (default python:<X.Y>-slim), e.g. pinned python:3.12-slim@sha256:…",
    ),
    as_json: bool = JSON,
) -> None:
    """One Harbor task directory per task of a release, every kind (docs/harbor.md)."""
    from swr.core.layout import HarborTaskPaths
    from swr.export.harbor import export_release
    from swr.kinds.taskfile import read_task_file

    dirs = export_release(release, out_dir, agent_timeout, base_image)
    rows = [{"task": d.name, "kind": read_task_file(HarborTaskPaths(d).task_copy).kind, "dir": str(d)} for d in dirs]
    if as_json:
        print(json.dumps(rows, indent=2))
    else:
        out.print(harbor_table(rows, out_dir))
