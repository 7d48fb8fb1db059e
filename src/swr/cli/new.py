"""`swr new workflow` and `swr new tune`: the authoring kit (swr.kinds.workflow.authoring), rendered as lines.
Exit 0 when every gate passes and the lints are clean, 1 when something is left to fix, 2 on bad input."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from swr.cli.common import JOBS, SANDBOX, handled, out

new_app = typer.Typer(no_args_is_help=True, help="Wrap a new program: scaffold, measure, gate and lint a workflow.")

SAMPLES = typer.Option(6, "--samples", min=2, help="Scenarios sampled to measure the outputs (each run 4 ways).")


def _lint(staging: Path) -> list[str]:
    """`swr audit lint` on the tasks `swr check` built."""
    from swr.audit.lint import lint_audit
    from swr.kinds.workflow.authoring import lint_lines

    return lint_lines(lint_audit(staging)["findings"])


def _shown(p: Path) -> str:
    """A path as the user named it: relative to the current directory when it lies under it."""
    rel = os.path.relpath(p)
    return str(p) if rel.startswith("..") else rel


def _render(o: object) -> None:
    from swr.kinds.workflow.authoring import Outcome

    assert isinstance(o, Outcome)
    for line in o.notes:
        out.print(f"note: {line}", markup=False, highlight=False, soft_wrap=True)
    for line in o.schema:
        out.print(f"output {line}", markup=False, highlight=False, soft_wrap=True)
    for line in o.fixes:
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    if o.passed:
        out.print(
            f"every gate passes and the lints are clean: swr check {_shown(o.directory)} passes",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    else:
        out.print(
            f"edit {_shown(o.directory)}, then run: swr new tune {_shown(o.directory)}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(1)


@new_app.command("workflow")
@handled
def new_workflow(
    target: str = typer.Argument(..., metavar="FAMILY/NAME", help="Where in the catalog, e.g. statistics/fmean."),
    function: str = typer.Option(None, "--from", help="The Python function to wrap, as module:function."),
    cli: str = typer.Option(None, "--from-cli", help="A command line with {name} or {name:type} placeholders."),
    domain: str = typer.Option(None, "--domain", help="The domain of a family new to the catalog."),
    data: list[Path] = typer.Option(None, "--data", help="A file a {name:path} placeholder chooses (repeatable)."),
    root: Path = typer.Option(Path("catalog"), "--root", help="The catalog tree to write into."),
    samples: int = SAMPLES,
    seed: int = 0,
    jobs: int = JOBS,
    sandbox: str = SANDBOX,
) -> None:
    """Scaffold workflow.toml and run.py, measure the outputs' schema and tolerances, run every gate and lint."""
    from swr.kinds.workflow.authoring import Settings
    from swr.kinds.workflow.authoring import new_workflow as create

    settings = Settings(sandbox=sandbox, jobs=jobs, seed=seed, samples=samples)
    o = create(root, target, function=function, cli=cli, domain=domain, data=data, settings=settings, lint=_lint)
    out.print(f"wrote {_shown(o.directory)}", markup=False, highlight=False, soft_wrap=True)
    _render(o)


@new_app.command("tune")
@handled
def tune(
    workflow: Path = typer.Argument(..., help="A workflow directory made by `swr new workflow`."),
    samples: int = SAMPLES,
    seed: int = 0,
    jobs: int = JOBS,
    sandbox: str = SANDBOX,
) -> None:
    """Re-measure a kit-made workflow's outputs after an edit, rewrite its measured block, gate and lint it."""
    from swr.kinds.workflow.authoring import Settings
    from swr.kinds.workflow.authoring import tune as retune

    _render(retune(workflow, settings=Settings(sandbox=sandbox, jobs=jobs, seed=seed, samples=samples), lint=_lint))
