"""`swr revive`: revival tasks from a project folder (docs/revival.md). Thin: parse, call swr.kinds.revival, print."""

from __future__ import annotations

from pathlib import Path

import typer

from swr.cli.common import SANDBOX, err, handled, out

revive_app = typer.Typer(no_args_is_help=True, help="Revival tasks: real projects that no longer run.")


@revive_app.command("make")
@handled
def make(
    source: str = typer.Argument(
        ...,
        help="A revival folder (revival.toml: source, kind, tests, probes), "
        "or pypi:NAME==VERSION: the folder under --revivals naming that source "
        "(none: one is scaffolded from the sdist, exit 2).",
    ),
    revivals: Path = typer.Option(
        Path("revivals"), "--revivals", help="Where pypi: sources are looked up and scaffolded."
    ),
    kind: str = typer.Option(None, "--kind", help="deleted-module | dependency-rot | build (must match the spec)."),
    out_dir: Path = typer.Option(..., "--out", "-o", help="The task directory to write (must not exist)."),
    sandbox: str = SANDBOX,
) -> None:
    """Build one revival task: the original passes natively, the broken project fails and the reference
    passes in the target environment (exit 2 with one line otherwise)."""
    from swr.kinds.revival.obfuscate_task import build_with_variant
    from swr.sandbox import get_sandbox

    folder = Path(source).absolute()
    if source.startswith("pypi:"):  # helper R3: a PyPI release's revival folder, found or scaffolded
        from swr.core.errors import SwrError
        from swr.core.layout import REVIVAL_TOML
        from swr.kinds.revival.pypi import resolve

        folder, scaffolded = resolve(source, revivals)
        if scaffolded:
            raise SwrError(
                f"scaffolded from {source} (sha256, release date and test files recorded): set kind, "
                f"domain, environments and probes, then run this again",
                file=folder / REVIVAL_TOML,
            )
    res = build_with_variant(folder, out_dir.parent, get_sandbox(sandbox), kind=kind, root=out_dir)
    if res.failure:
        err.print(f"swr: {res.message}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2)
    rec = res.record
    out.print(
        f"{res.spec.name}: {rec['native_tests']} tests recorded natively; starting workspace "
        f"{rec['nop']['score']}, reference {rec['reference']['score']} -> {out_dir}",
        markup=False,
    )
    if "variant" in rec:  # revival.toml's [obfuscate]: the obfuscated variant beside it
        var = rec["variant"]
        out.print(
            f"{var['id']}: obfuscated variant; starting workspace {var['nop']['score']}, reference "
            f"{var['reference']['score']} -> {out_dir.parent / var['id']}",
            markup=False,
        )


# --- contamination controls (helper R2): `swr revive obfuscate` and `swr similarity` ---
from swr.cli.common import JSON, app  # noqa: E402
from swr.core.errors import SwrError  # noqa: E402


@revive_app.command("obfuscate")
@handled
def obfuscate(
    project: Path = typer.Argument(
        ...,
        help="Project folder holding one top-level package, or a built deleted-module revival task (its task.toml).",
    ),
    out_dir: Path = typer.Option(
        None,
        "--out",
        "-o",
        help="Folder to write the obfuscated project to "
        "(a task: the variant's task directory; default beside it, new id).",
    ),
    map_file: Path = typer.Option(
        None, "--map", help="Where the original -> new name map goes (outside --out: it is the key; a task: optional)."
    ),
    tests: list[Path] = typer.Option(
        [], "--tests", help="Test folder or file outside PROJECT (repeatable); the project's own are found."
    ),
    tests_out: Path = typer.Option(
        None, "--tests-out", help="Where --tests go, each under its own name (default: OUT)."
    ),
    strip: list[str] = typer.Option(
        [], "--strip", help="Extra text to replace everywhere, e.g. the paper's title or an author (repeatable)."
    ),
    package: str = typer.Option(None, "--package", help="The top-level package, if several."),
    seed: int = typer.Option(0, "--seed", help="Same seed, same names; keep a release's seed private."),
    python: str = typer.Option(
        None, "--python", help="Interpreter whose installed packages define the external names (default: this one)."
    ),
    task_id: str = typer.Option(None, "--id", help="A task: the variant's task id."),
    sandbox: str = SANDBOX,
) -> None:
    """Rename every project identifier consistently; strip docstrings, comments and the original names. Given
    a revival task, write its obfuscated variant, held to the same gates (tests, probes, nop, reference)."""
    from swr.core.layout import TaskPaths
    from swr.kinds.revival.obfuscate import ObfuscateOptions, obfuscate_project

    if TaskPaths(project).toml.is_file():
        _obfuscate_task(project, out_dir, map_file, seed, strip, package, task_id, sandbox)
        return
    if out_dir is None or map_file is None:
        raise SwrError("a project needs --out and --map (only a task's variant has defaults)", file=project)

    from swr.core.outputs import PROJECT, claim

    claim(out_dir, PROJECT)  # a new or empty directory: a file there is one line, never a traceback
    opts = ObfuscateOptions(
        seed=seed, strip=tuple(strip), package=package, tests=tuple(tests), tests_out=tests_out, python=python
    )
    res = obfuscate_project(project, out_dir, map_file, opts)
    out.print(
        f"obfuscated {res.files} files ({res.renamed} names renamed) into {out_dir}; map in {map_file}"
        + (f"; not importable, so their names are unknown: {', '.join(res.unscanned)}" if res.unscanned else ""),
        markup=False,
        highlight=False,
        soft_wrap=True,
    )


def _obfuscate_task(
    task: Path,
    out_dir: Path | None,
    map_file: Path | None,
    seed: int,
    strip: list[str],
    package: str | None,
    task_id: str | None,
    sandbox: str,
) -> None:
    from swr.kinds.revival.obfuscate_task import load_plain_revival, obfuscate_task
    from swr.kinds.revival.spec import ObfuscateVariant
    from swr.sandbox import get_sandbox

    base = load_plain_revival(task).spec.obfuscate or ObfuscateVariant()
    given = {k: v for k, v in {"seed": seed, "strip": tuple(strip), "package": package, "name": task_id}.items() if v}
    try:
        variant = ObfuscateVariant.model_validate({**base.model_dump(), **given})
    except ValueError as e:
        raise SwrError(f"bad option: {str(e).splitlines()[-2].strip()}", field="--id") from None
    v = obfuscate_task(task, get_sandbox(sandbox), out=out_dir, variant=variant, map_file=map_file)
    rec = v.record
    out.print(
        f"{v.id}: obfuscated ({v.renamed} names renamed); {rec['native_tests']} tests pass natively; "
        f"starting workspace {rec['nop']['score']}, reference {rec['reference']['score']} -> {v.root}",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )


@app.command("similarity")
@handled
def similarity(
    original: Path,
    rebuilt: Path,
    as_json: bool = JSON,
    identifiers: bool = typer.Option(False, "--identifiers", help="Also canonicalise identifiers."),
) -> None:
    """Normalised line-level similarity (0..1) between an original module or folder and its rebuild."""
    import json

    from swr.kinds.revival.similarity import similarity as measure

    report = measure(original, rebuilt, canonical_identifiers=identifiers)
    if as_json:
        out.print(json.dumps(report.as_dict()), markup=False, highlight=False, soft_wrap=True)
    else:
        out.print(
            f"{report.ratio:.3f} ({report.matching_lines} matching of {report.original_lines} original and "
            f"{report.rebuilt_lines} rebuilt normalised lines)",
            markup=False,
            highlight=False,
        )
