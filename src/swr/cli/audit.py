"""`swr audit …`: measure a release's verifiers. Each prints a table, or JSON with --json;
exit 1 when the audit finds a defect, 2 on a usage error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from swr.cli.common import JOBS, JSON, SANDBOX, handled, out

audit_app = typer.Typer(no_args_is_help=True, help="Audit the verifiers of a release.")
RERUN = typer.Option(True, "--rerun/--no-rerun", help="Also re-execute the reference (needs the private reference).")


def _emit(
    result: dict[str, Any], as_json: bool, table: Any, failed: bool, keep: tuple[Path, str] | None = None
) -> None:
    """Print the result (and keep it as the release's audit/<name>.json when `keep` names one)."""
    if keep:
        from swr.audit import save_result

        save_result(*keep, result)
    if as_json:
        print(json.dumps(result, indent=2, allow_nan=False, default=str))
    else:
        out.print(table)
        from swr.audit.render import not_applicable_line

        if line := not_applicable_line(result):
            out.print(line, style="dim", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(1 if failed else 0)


@audit_app.command("mutation")
@handled
def mutation(
    release: Path,
    as_json: bool = JSON,
    per_class: int = typer.Option(3, min=1),
    jobs: int = JOBS,
    rerun: bool = RERUN,
    sandbox: str = SANDBOX,
) -> None:
    """Stress test: graded mutants; exit 1 on any false accept or false reject."""
    from swr.audit.mutation import mutation_audit
    from swr.audit.render import mutation_table

    r = mutation_audit(release, per_class=per_class, jobs=jobs, reexecute=rerun, sandbox=sandbox)
    _emit(r, as_json, mutation_table(r), bool(r["false_accepts"] or r["false_rejects"]), (release, "mutation"))


@audit_app.command("sensitivity")
@handled
def sensitivity(release: Path, as_json: bool = JSON, rerun: bool = RERUN, sandbox: str = SANDBOX) -> None:
    """How often graded outputs change between scenarios, and which parameters move them."""
    from swr.audit.render import sensitivity_table
    from swr.audit.sensitivity import sensitivity_audit

    r = sensitivity_audit(release, reexecute=rerun, sandbox=sandbox)
    _emit(r, as_json, sensitivity_table(r), bool(r["tasks_without_change"]), (release, "sensitivity"))


@audit_app.command("replay")
@handled
def replay(release: Path, as_json: bool = JSON) -> None:
    """Hidden-field agreement and pass rate of the replay controls; exit 1 if any passes a task."""
    from swr.audit.render import replay_table
    from swr.audit.replay import replay_audit

    r = replay_audit(release)
    _emit(r, as_json, replay_table(r), bool(r["controls_passing"]), (release, "replay"))


@audit_app.command("achievability")
@handled
def achievability(release: Path, as_json: bool = JSON, jobs: int = JOBS, sandbox: str = SANDBOX) -> None:
    """Oracle = 1 and nop = 0 on every task."""
    from swr.audit.achievability import achievability_audit
    from swr.audit.render import achievability_table

    r = achievability_audit(release, jobs=jobs, sandbox=sandbox)
    _emit(r, as_json, achievability_table(r), bool(r["unachievable"] or r["passed_by_nop"]), (release, "achievability"))


@audit_app.command("adequacy")
@handled
def adequacy(
    release: Path,
    as_json: bool = JSON,
    operators: int = typer.Option(12, min=0, help="Operator mutants generated per engine (seeded)."),
    seed: int = typer.Option(0, "--seed"),
    jobs: int = JOBS,
    sandbox: str = SANDBOX,
) -> None:
    """Mutants of each engine's reference (one per declared spec rule, plus operator mutants) on its hidden
    cases; exit 1 if a declared rule mutant survives."""
    from swr.audit.adequacy import adequacy_audit
    from swr.audit.render import adequacy_table

    r = adequacy_audit(release, jobs=jobs, sandbox=sandbox, operators=operators, seed=seed)
    _emit(r, as_json, adequacy_table(r), bool(r["problems"]), (release, "adequacy"))


@audit_app.command("consensus")
@handled
def consensus(
    release: Path,
    candidates: list[Path] = typer.Argument(..., help="Candidate directories."),
    as_json: bool = JSON,
    quorum: int = typer.Option(2, min=2),
    sandbox: str = SANDBOX,
) -> None:
    """Fields where independent candidates agree with each other and not with the reference."""
    from swr.audit.consensus import consensus_audit
    from swr.audit.render import findings_table

    r = consensus_audit(release, candidates, quorum=quorum, sandbox=sandbox)
    table = findings_table(
        r["flags"],
        f"consensus against the reference: {len(r['flags'])} flags over {r['tasks_compared']} tasks",
        ("task", "hidden", "field", "reference", "consensus"),
    )
    _emit(r, as_json, table, bool(r["flags"]), (release, "consensus"))


@audit_app.command("lint")
@handled
def lint(
    release: Path, as_json: bool = JSON, rerun: bool = typer.Option(False, "--rerun/--no-rerun"), sandbox: str = SANDBOX
) -> None:
    """Static checks of the verifier configuration; exit 1 on any error."""
    from swr.audit.lint import lint_audit
    from swr.audit.render import lint_table

    r = lint_audit(release, rerun=rerun, sandbox=sandbox)
    _emit(r, as_json, lint_table(r), bool(r["errors"]), (release, "lint"))


defect_app = typer.Typer(no_args_is_help=True, help="The release's register of verifier defects (defects.json).")
audit_app.add_typer(defect_app, name="defect")


@defect_app.command("add")
@handled
def defect_add(
    release: Path,
    task: str = typer.Option(..., "--task", help="Task id, workflow, family/workflow or engine."),
    kind: str = typer.Option(..., "--kind", help="false_accept or false_reject."),
    signal: str = typer.Option(
        ...,
        "--signal",
        help="achievability, consensus, self_test, human_audit, mutation, lint, review, counterexample or adequacy.",
    ),
    summary: str = typer.Option(..., "--summary"),
    fix: str = typer.Option("", "--fix"),
    test: str = typer.Option("", "--test", help="The pytest node id of its regression test."),
    severity: str = typer.Option("medium", "--severity", help="high, medium or low."),
    recorded: str = typer.Option(None, "--recorded", help="ISO date (default: today)."),
) -> None:
    """Record a defect (fixed when --fix is given); prints its id."""
    from swr.audit.defects import add

    d = add(
        release,
        task=task,
        kind=kind,
        signal=signal,
        summary=summary,
        fix=fix,
        test=test,
        severity=severity,
        recorded=recorded,
    )
    print(d.id)


@defect_app.command("fix")
@handled
def defect_fix(
    release: Path,
    defect_id: str = typer.Argument(..., metavar="ID"),
    fix: str = typer.Option(..., "--fix"),
    test: str = typer.Option(None, "--test"),
    commit: str = typer.Option(None, "--commit", help="The fixing commit (7-40 hex digits)."),
) -> None:
    """Mark a defect fixed, with its fix, regression test and commit."""
    from swr.audit.defects import fix as do_fix

    print(do_fix(release, defect_id, fix=fix, test=test, commit=commit).id)


@defect_app.command("list")
@handled
def defect_list(release: Path, as_json: bool = JSON) -> None:
    """The register: every defect, open ones first."""
    from swr.audit.defects import load
    from swr.audit.render import defects_table

    rows = [d.model_dump(mode="json") for d in sorted(load(release), key=lambda d: (d.status != "open", d.id))]
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    n_open = sum(r["status"] == "open" for r in rows)
    out.print(defects_table(rows, f"defects: {len(rows)} recorded, {n_open} open"))


@audit_app.command("bundles")
@handled
def bundles(
    release: Path,
    out_dir: Path = typer.Option(..., "--out", help="Bundle directory (new or empty)."),
    tasks: int | None = typer.Option(None, "--tasks", min=1, help="Bundles to write (default: every task)."),
    seed: int = typer.Option(0, "--seed"),
    key: Path | None = typer.Option(
        None, "--key", help="Where the answer key goes (default DIR.key.json; never inside DIR)."
    ),
    as_json: bool = JSON,
) -> None:
    """Blinded human-audit bundles: per task one expected-valid and one expected-invalid case, shuffled."""
    from swr.audit.bundles import write_bundles
    from swr.audit.render import findings_table

    r = write_bundles(release, out_dir, tasks=tasks, seed=seed, key=key)
    rows = r["tasks"] + [
        {"bundle_id": "-", "task": n["task"], "note": f"not applicable: {n['why']}"} for n in r["not_applicable"]
    ]
    table = findings_table(
        rows,
        f"{r['bundles']} bundles in {r['out']} (label sheet {r['labels']}; key {r['key']})",
        ("bundle_id", "task", "note"),
    )
    _emit(r, as_json, table, False)


@audit_app.command("agreement")
@handled
def agreement(
    labels_a: Path,
    labels_b: Path,
    key: Path = typer.Option(..., "--key", help="The bundles' key file."),
    adjudicated: Path | None = typer.Option(None, "--adjudicated", help="Adjudicated label sheet."),
    as_json: bool = JSON,
) -> None:
    """Annotator agreement, Cohen's kappa, label validity and the verifier's FA/FR; exit 1 on any verifier error."""
    from swr.audit.agreement import agreement_report
    from swr.audit.render import agreement_table

    r = agreement_report(key, labels_a, labels_b, adjudicated)
    _emit(r, as_json, agreement_table(r), bool(r["false_accepts"] or r["false_rejects"]))


@defect_app.command("check")
@handled
def defect_check(files: list[Path] = typer.Argument(..., help="defects.toml files ([[defect]] tables).")) -> None:
    """Validate defects.toml files as a build reads them (exit 2 with one line on the first bad field)."""
    from swr.audit.defects import read_toml

    for f in files:
        print(f"{f}: {len(read_toml(f))} defects")


@audit_app.command("freeze")
@handled
def freeze(
    release: Path,
    pilot: int = typer.Option(100, min=0, help="Tasks in the pilot set."),
    held_out: int = typer.Option(100, "--held-out", min=1, help="Tasks in the held-out set."),
    high_risk: list[str] = typer.Option([], "--high-risk", help="Task ids to hold out (repeat or comma-separate)."),
    seed: int = typer.Option(0, help="Seed of both draws and of the held-out trials."),
    trials_per_class: int = typer.Option(2, min=1, help="Held-out trials per class and hidden scenario."),
    as_json: bool = JSON,
    jobs: int = JOBS,
) -> None:
    """Validate the mutation generator on a pilot set, freeze it, and draw the held-out set; exit 1 on a pilot error."""
    from swr.audit.freeze import freeze_audit
    from swr.audit.render import freeze_table

    r = freeze_audit(
        release,
        pilot=pilot,
        held_out=held_out,
        high_risk=high_risk,
        seed=seed,
        trials_per_class=trials_per_class,
        jobs=jobs,
    )
    pv = r["pilot_validation"]
    _emit(r, as_json, freeze_table(r), bool(pv["false_accepts"] or pv["false_rejects"]))


@audit_app.command("held-out")
@handled
def held_out(release: Path, as_json: bool = JSON, jobs: int = JOBS) -> None:
    """New trials on the frozen held-out set, per stratum (SWR Table 12); exit 1 on any wrong decision,
    2 when nothing is frozen or the generator changed since."""
    from swr.audit.heldout import held_out_audit
    from swr.audit.render import heldout_table

    r = held_out_audit(release, jobs=jobs)
    _emit(r, as_json, heldout_table(r), bool(r["false_accepts"] or r["false_rejects"]), (release, "held-out"))
