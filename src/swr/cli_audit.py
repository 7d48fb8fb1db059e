"""`swr audit …`: measure a release's verifiers. Each prints a table, or JSON with --json;
exit 1 when the audit finds a defect, 2 on a usage error."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from swr.cli_common import JOBS, JSON, SANDBOX, handled, out

audit_app = typer.Typer(no_args_is_help=True, help="Audit the verifiers of a release.")
RERUN = typer.Option(True, "--rerun/--no-rerun", help="Also re-execute the reference (needs the private reference).")


def _emit(result: dict[str, Any], as_json: bool, table: Any, failed: bool) -> None:
    if as_json:
        print(json.dumps(result, indent=2, allow_nan=False, default=str))
    else:
        out.print(table)
    raise typer.Exit(1 if failed else 0)


@audit_app.command("mutation")
@handled
def mutation(release: Path, as_json: bool = JSON, per_class: int = typer.Option(3, min=1), jobs: int = JOBS,
             rerun: bool = RERUN, sandbox: str = SANDBOX) -> None:
    """Stress test: graded mutants; exit 1 on any false accept or false reject."""
    from swr.audit.mutation import mutation_audit
    from swr.audit.render import mutation_table

    r = mutation_audit(release, per_class=per_class, jobs=jobs, reexecute=rerun, sandbox=sandbox)
    _emit(r, as_json, mutation_table(r), bool(r["false_accepts"] or r["false_rejects"]))


@audit_app.command("sensitivity")
@handled
def sensitivity(release: Path, as_json: bool = JSON, rerun: bool = RERUN, sandbox: str = SANDBOX) -> None:
    """How often graded outputs change between scenarios, and which parameters move them."""
    from swr.audit.render import sensitivity_table
    from swr.audit.sensitivity import sensitivity_audit

    r = sensitivity_audit(release, reexecute=rerun, sandbox=sandbox)
    _emit(r, as_json, sensitivity_table(r), bool(r["tasks_without_change"]))


@audit_app.command("replay")
@handled
def replay(release: Path, as_json: bool = JSON) -> None:
    """Hidden-field agreement and pass rate of the replay controls; exit 1 if any passes a task."""
    from swr.audit.render import replay_table
    from swr.audit.replay import replay_audit

    r = replay_audit(release)
    _emit(r, as_json, replay_table(r), bool(r["controls_passing"]))


@audit_app.command("achievability")
@handled
def achievability(release: Path, as_json: bool = JSON, jobs: int = JOBS, sandbox: str = SANDBOX) -> None:
    """Oracle = 1 and nop = 0 on every task."""
    from swr.audit.achievability import achievability_audit
    from swr.audit.render import achievability_table

    r = achievability_audit(release, jobs=jobs, sandbox=sandbox)
    _emit(r, as_json, achievability_table(r), bool(r["unachievable"] or r["passed_by_nop"]))


@audit_app.command("consensus")
@handled
def consensus(release: Path, candidates: list[Path] = typer.Argument(..., help="Candidate directories."),
              as_json: bool = JSON, quorum: int = typer.Option(2, min=2), sandbox: str = SANDBOX) -> None:
    """Fields where independent candidates agree with each other and not with the reference."""
    from swr.audit.consensus import consensus_audit
    from swr.audit.render import findings_table

    r = consensus_audit(release, candidates, quorum=quorum, sandbox=sandbox)
    table = findings_table(r["flags"], f"consensus against the reference: {len(r['flags'])} flags over "
                           f"{r['tasks_compared']} tasks", ("task", "hidden", "field", "reference", "consensus"))
    _emit(r, as_json, table, bool(r["flags"]))


@audit_app.command("lint")
@handled
def lint(release: Path, as_json: bool = JSON, rerun: bool = typer.Option(False, "--rerun/--no-rerun"),
         sandbox: str = SANDBOX) -> None:
    """Static checks of the verifier configuration; exit 1 on any error."""
    from swr.audit.lint import lint_audit
    from swr.audit.render import findings_table

    r = lint_audit(release, rerun=rerun, sandbox=sandbox)
    table = findings_table(r["findings"], f"lint: {r['errors']} errors, {r['warnings']} warnings",
                           ("task", "severity", "check", "field", "message"))
    _emit(r, as_json, table, bool(r["errors"]))
