"""`swr revive`: revival tasks from a project folder (docs/revival.md). Thin: parse, call swr.revival, print."""
from __future__ import annotations

from pathlib import Path

import typer

from swr.cli_common import SANDBOX, err, handled, out

revive_app = typer.Typer(no_args_is_help=True, help="Revival tasks: real projects that no longer run.")


@revive_app.command("make")
@handled
def make(source: Path = typer.Argument(..., help="A revival folder: revival.toml (source, kind, tests, probes)."),
         kind: str = typer.Option(None, "--kind", help="deleted-module | dependency-rot | build (must match the spec)."),
         out_dir: Path = typer.Option(..., "--out", "-o", help="The task directory to write (must not exist)."),
         sandbox: str = SANDBOX) -> None:
    """Build one revival task: the original passes natively, the broken project fails and the reference
    passes in the target environment (exit 2 with one line otherwise)."""
    from swr.revival.build import build_revival
    from swr.sandbox import get_sandbox

    res = build_revival(source, out_dir.parent, get_sandbox(sandbox), kind=kind, root=out_dir)
    if res.failure:
        err.print(f"swr: {res.message}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2)
    rec = res.record
    out.print(f"{res.spec.name}: {rec['native_tests']} tests recorded natively; starting workspace "
              f"{rec['nop']['score']}, reference {rec['reference']['score']} -> {out_dir}", markup=False)


# --- contamination controls (helper R2): `swr revive obfuscate` and `swr similarity` ---
from swr.cli_common import JSON, app  # noqa: E402


@revive_app.command("obfuscate")
@handled
def obfuscate(project: Path = typer.Argument(..., help="Project folder holding one top-level package."),
              out_dir: Path = typer.Option(..., "--out", "-o", help="Folder to write the obfuscated project to."),
              map_file: Path = typer.Option(..., "--map", help="Where the original -> new name map goes "
                                                                "(outside --out: it is the key)."),
              tests: list[Path] = typer.Option([], "--tests", help="Test folder or file outside PROJECT "
                                                                    "(repeatable); the project's own are found."),
              tests_out: Path = typer.Option(None, "--tests-out", help="Where --tests go, each under its own name (default: OUT)."),
              strip: list[str] = typer.Option([], "--strip", help="Extra text to replace everywhere, e.g. the "
                                                                  "paper's title or an author (repeatable)."),
              package: str = typer.Option(None, "--package", help="The top-level package, if several."),
              seed: int = typer.Option(0, "--seed", help="Same seed, same names; keep a release's seed private."),
              python: str = typer.Option(None, "--python", help="Interpreter whose installed packages define "
                                                                "the external names (default: this one).")) -> None:
    """Rename every project identifier consistently; strip docstrings, comments and the original names."""
    from swr.revival.obfuscate import ObfuscateOptions, obfuscate_project

    opts = ObfuscateOptions(seed=seed, strip=tuple(strip), package=package, tests=tuple(tests),
                            tests_out=tests_out, python=python)
    res = obfuscate_project(project, out_dir, map_file, opts)
    out.print(f"obfuscated {res.files} files ({res.renamed} names renamed) into {out_dir}; map in {map_file}"
              + (f"; not importable, so their names are unknown: {', '.join(res.unscanned)}" if res.unscanned
                 else ""), markup=False, highlight=False, soft_wrap=True)


@app.command("similarity")
@handled
def similarity(original: Path, rebuilt: Path, as_json: bool = JSON,
               identifiers: bool = typer.Option(False, "--identifiers", help="Also canonicalise identifiers.")) -> None:
    """Normalised line-level similarity (0..1) between an original module or folder and its rebuild."""
    import json

    from swr.revival.similarity import similarity as measure

    report = measure(original, rebuilt, canonical_identifiers=identifiers)
    if as_json:
        out.print(json.dumps(report.as_dict()), markup=False, highlight=False, soft_wrap=True)
    else:
        out.print(f"{report.ratio:.3f} ({report.matching_lines} matching of {report.original_lines} original and "
                  f"{report.rebuilt_lines} rebuilt normalised lines)", markup=False, highlight=False)
