"""The `swr` command: parse, call the library, render. Usage errors exit 2 with one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from swr.cli.common import JOBS, JSON, SANDBOX, app, err, handled, out
from swr.core.errors import SwrError

if TYPE_CHECKING:
    from swr.kinds.protocol import BuildResult


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
        disable=not err.is_terminal,
    )


def _log_line(text: str) -> None:
    """A progress line for logs: the bar shows on a terminal, these lines everywhere else (CI)."""
    if not err.is_terminal:
        err.print(text, markup=False, highlight=False, soft_wrap=True)


def _workflow_done(r: BuildResult, i: int, n: int) -> None:
    """`[i/n] family/workflow: k tasks (t s)`, or why it was left out."""
    from swr.cli.tables import dropped_note

    s = r.summary()  # every kind's: name, family, domain, status, reason, tasks
    n_tasks = len(r.tasks)
    what = f"{n_tasks} task{'s' * (n_tasks != 1)}" if not r.failure else f"left out: {r.failure}"
    what = s["reason"] if s["status"] == "skipped" else what  # a task this machine cannot run (no GPU)
    what += dropped_note(getattr(r, "dropped", {}))  # engines drop no variant
    margins = getattr(r, "margins", "")  # an engine's thresholds: attained, required, margin, variation
    adequacy = getattr(r, "adequacy", "")  # an engine's mutants killed by its hidden cases, and the kill rate
    _log_line(
        f"[{i}/{n}] {s['family']}/{s['name']}: {what} ({r.wall_s:.0f} s)"
        + (f"; margins: {margins}" if margins else "")
        + (f"; adequacy: {adequacy}" if adequacy else "")
    )


FORCE = typer.Option(
    False,
    "--force",
    help="Replace --out even when it is not an earlier release (never a file, nor the current or home directory).",
)


def _run_build(paths: list[Path], out_dir: Path, opts: Any, force: bool = False) -> bool:
    """Build with a progress bar (or a line per workflow off a terminal), print the table and each failure's
    line; True if all built."""
    from swr.assemble import build as do_build
    from swr.cli.tables import build_table

    with _progress() as bar:
        tid = bar.add_task("workflows" if opts.executor == "dask" else "executions", total=0)  # dask: out of sight
        results = do_build(
            paths,
            out_dir,
            opts,
            lambda a, t: bar.update(tid, advance=a, total=(bar.tasks[tid].total or 0) + t),
            _workflow_done,
            force,
        )
    out.print(build_table([r.summary() for r in results]))
    for r in results:
        if r.failure:
            err.print(f"swr: {r.message}", markup=False, highlight=False, soft_wrap=True)
        elif (s := r.summary())["status"] == "skipped":  # a task this machine cannot run: neither built nor failed
            err.print(f"swr: {s['name']}: {s['reason']}", markup=False, highlight=False, soft_wrap=True)
    out.print(f"release written to {out_dir} ({sum(len(r.tasks) for r in results)} tasks)")
    return not any(r.failure for r in results)


@app.command()
@handled
def build(
    workflows: list[Path] = typer.Argument(..., help="Workflow directories, or trees holding them."),
    out_dir: Path = typer.Option(
        ..., "--out", "-o", help="Release directory to write: new, empty, or an earlier release (replaced)."
    ),
    variants: int = typer.Option(6, min=1),
    public: int = typer.Option(5, min=1),
    hidden: int = typer.Option(3, min=1),
    seed: int = typer.Option(0),
    jobs: int = JOBS,
    sandbox: str = SANDBOX,
    no_cache: bool = typer.Option(False, "--no-cache"),
    executor: str = typer.Option("local", "--executor", help="local, or dask: workflows on Dask workers."),
    scheduler: str = typer.Option(
        None,
        "--scheduler",
        help="Dask scheduler address; its workers each run "
        "--jobs executions at a time (default: a local cluster of --jobs workers).",
    ),
    force: bool = FORCE,
) -> None:
    """Build a gated, reproducible release from workflows (exit 2 if any workflow was left out)."""
    from swr.assemble import BuildOptions
    from swr.kinds.workflow.cache import ExecutionCache

    opts = BuildOptions(
        variants=variants,
        public=public,
        hidden=hidden,
        seed=seed,
        jobs=jobs,
        sandbox=sandbox,
        cache=ExecutionCache(enabled=not no_cache),
        executor=executor,
        scheduler=scheduler,
    )
    if not _run_build(workflows, out_dir, opts, force):
        raise typer.Exit(2)


@app.command()
@handled
def check(workflow: Path, jobs: int = JOBS, sandbox: str = SANDBOX, seed: int = 0) -> None:
    """Validate a workflow, run a few scenarios, and run every release gate on it."""
    from swr.kinds.workflow.check import check as do_check
    from swr.kinds.workflow.check import trial_text

    report = do_check(workflow, sandbox=sandbox, jobs=jobs, seed=seed)
    for t in report.trials:
        sc, o = trial_text(t)
        out.print(f"scenario {sc}\n  -> {o}  ({t.wall_s * 1000:.0f} ms)", markup=False, highlight=False)
    out.print(f"[green]all gates pass[/]: {report.spec.name} ({report.spec.family}, {report.spec.domain})")


@app.command()
@handled
def tasks(
    release: Path,
    as_json: bool = JSON,
    stats: bool = typer.Option(
        False, "--stats", help="Composition statistics instead: parameter types, output types, checkable fields."
    ),
) -> None:
    """List the tasks of a release."""
    from swr.cli.tables import task_rows, tasks_table

    if stats:
        from swr.report.composition import composition_stats, render

        found = composition_stats(release)
        if as_json:
            print(json.dumps(found, indent=2))
        else:
            for table in render(found):
                out.print(table)
        return
    rows = task_rows(release)
    if as_json:
        print(json.dumps(rows, indent=2))
    else:
        out.print(tasks_table(rows))


def _grade(task: Path, candidate: Path, as_json: bool, jobs: int, sandbox: str, split: str) -> None:
    from swr import kinds
    from swr.cli.tables import verdict_table
    from swr.kinds.verdict import dump_verdict
    from swr.sandbox import sandbox_for

    t = kinds.load(task)  # under podman/docker: in the task's image
    v = t.grade(candidate, sandbox_for(sandbox, t.environment), split=split, jobs=jobs)  # type: ignore[arg-type]
    if as_json:
        print(dump_verdict(v, indent=2))
    else:
        out.print(verdict_table(v))
    raise typer.Exit(0 if v.exit_ok() else 1)


@app.command()
@handled
def grade(task: Path, candidate: Path, as_json: bool = JSON, jobs: int = JOBS, sandbox: str = SANDBOX) -> None:
    """Grade a candidate on a task's hidden scenarios (exit 0 pass, 1 fail, 2 error)."""
    _grade(task, candidate, as_json, jobs, sandbox, "all")


@app.command()
@handled
def feedback(task: Path, candidate: Path, as_json: bool = JSON, jobs: int = JOBS, sandbox: str = SANDBOX) -> None:
    """Grade a candidate on the public examples only: what an agent may call."""
    _grade(task, candidate, as_json, jobs, sandbox, "public")


@app.command()
@handled
def demo(
    catalog: list[Path] = typer.Option(
        None, "--catalog", help="Workflow tree or directory to build instead of the demo slice (repeatable)."
    ),
    full: bool = typer.Option(False, "--full", help="The whole catalog/, not its slice (catalog/demo.toml)."),
    out_dir: Path = typer.Option(Path("release"), "--out", "-o"),
    variants: int = typer.Option(6, min=1),
    seed: int = 0,
    jobs: int = JOBS,
    sandbox: str = SANDBOX,
    force: bool = FORCE,
) -> None:
    """The main job: build the demo slice (--full: the catalog), grade the oracle and baselines, print the report."""
    from swr.assemble import BuildOptions
    from swr.cli.tables import demo_table
    from swr.harness.baselines import baseline_rows
    from swr.kinds.workflow.catalog import demo_slice
    from swr.sandbox import get_sandbox

    if full and catalog:
        raise SwrError("--full builds all of catalog/ and --catalog names what to build: give one", field="--full")
    paths = catalog or ([Path("catalog")] if full else demo_slice(Path("catalog")))
    if not _run_build(paths, out_dir, BuildOptions(variants=variants, seed=seed, jobs=jobs, sandbox=sandbox), force):
        raise typer.Exit(2)

    with _progress() as bar:
        tid = bar.add_task("baselines", total=None)

        def graded(row: dict[str, Any], i: int, n: int) -> None:
            bar.update(tid, completed=i, total=n)
            verdicts = ", ".join(f"{k} {'pass' if row[k] else 'fail'}" for k in ("oracle", "nop"))
            _log_line(f"[{i}/{n}] baselines {row['task']}: {verdicts}")

        rows = baseline_rows(out_dir, get_sandbox(sandbox), jobs, graded)
    out.print(demo_table(rows))
    ok = all(r["oracle"] and not r["nop"] and not (r["modal"] or r["nearest"] or r["best_public"]) for r in rows)
    out.print(f"{sum(r['oracle'] for r in rows)}/{len(rows)} oracle passes, {sum(r['nop'] for r in rows)} nop passes")
    raise typer.Exit(0 if ok else 1)


@app.command()
@handled
def regrade(
    job: str,
    release: Path = typer.Option(..., "--release", help="The release with the fixed verifiers."),
    jobs_dir: Path = typer.Option(Path("jobs"), "--jobs-dir", help="Where the store and run records live."),
    as_json: bool = JSON,
    jobs: int = JOBS,
    sandbox: str = SANDBOX,
) -> None:
    """Re-score a job's final solutions with a fixed release (runs whose task's public part changed: re-run)."""
    from swr.audit.render import regrade_table
    from swr.harness.regrade import regrade_job

    r = regrade_job(jobs_dir, job, release, sandbox=sandbox, jobs=jobs)
    if as_json:
        print(json.dumps(r, indent=2, allow_nan=False))
    else:
        out.print(regrade_table(r))


catalog_app = typer.Typer(no_args_is_help=True, help="The shipped catalog of workflows.")
app.add_typer(catalog_app, name="catalog")


CATALOG_ROOT = typer.Option(Path("catalog"), "--root", help="Workflow tree.")


@catalog_app.command("list")
@handled
def catalog_list(
    root: Path = CATALOG_ROOT,
    as_json: bool = JSON,
    release: Path = typer.Option(None, "--release", help="Show each family's coverage as this release recorded it."),
    measure: bool = typer.Option(False, "--measure", help="Measure each family's coverage now (runs its references)."),
    sandbox: str = SANDBOX,
) -> None:
    """Families with their domain, workflows, whether they can run here, and (--release, --measure) their
    coverage of their package and the largest overlap of two of their workflows."""
    from swr.cli.tables import catalog_table
    from swr.kinds.workflow.catalog import families
    from swr.kinds.workflow.coverage import catalog_coverage
    from swr.sandbox import get_sandbox

    if release is not None and measure:
        raise SwrError("--release reads recorded coverage and --measure measures it: give one", field="--measure")
    fams = families(root)
    rows = [f.row(root.resolve().parent) for f in fams]
    if release is not None or measure:
        cov = catalog_coverage(fams, release, None if release else get_sandbox(sandbox))
        rows = [{**r, "coverage": cov[r["family"]]} for r in rows]
    if as_json:
        print(json.dumps(rows, indent=2))
    else:
        out.print(catalog_table(rows))


@catalog_app.command("doctor")
@handled
def catalog_doctor(root: Path = CATALOG_ROOT) -> None:
    """What is missing for each family, and the command that installs it (exit 1 if anything is)."""
    from swr.kinds.workflow.catalog import families

    broken = [(f.name, *f.missing) for f in families(root)]
    broken = [b for b in broken if b[1] or b[2]]
    for name, pip, apt in broken:
        needs = ", ".join([*(f"pip {p}" for p in pip), *(f"apt {a}" for a in apt)])
        out.print(f"{name}: missing {needs} — run: swr catalog install {name}", markup=False, highlight=False)
    if broken:
        raise typer.Exit(1)
    out.print("every family's requirements are installed")


@catalog_app.command("install")
@handled
def catalog_install(
    families: list[str] = typer.Argument(None, help="Families to install."),
    all_: bool = typer.Option(False, "--all", help="Every family in the catalog."),
    demo: bool = typer.Option(False, "--demo", help="The families of the demo slice (demo.toml)."),
    root: Path = CATALOG_ROOT,
) -> None:
    """Install the pip and apt requirements of catalog families into swr's environment."""
    from swr.kinds.workflow.catalog import demo_families, install, select

    if demo == bool(all_ or families):
        raise SwrError("name one or more families, or say --all, or say --demo alone", field="FAMILY")
    install(demo_families(root) if demo else select(root, None if all_ else families))


# Registered after this module's commands, so `swr --help` lists them in the same order as always.
from swr.cli import report as _report_command  # noqa: E402,F401 - registers `report`
from swr.cli import run as _run_commands  # noqa: E402,F401 - registers `run`, `results` and `image` on the shared app
from swr.cli.audit import audit_app  # noqa: E402
from swr.cli.export import export_app  # noqa: E402 - also registers `subset`
from swr.cli.new import new_app  # noqa: E402
from swr.cli.revive import revive_app  # noqa: E402

app.add_typer(audit_app, name="audit")
app.add_typer(revive_app, name="revive")
app.add_typer(export_app, name="export")
app.add_typer(new_app, name="new")


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
    sys.exit()
