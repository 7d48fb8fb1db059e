"""Readable tables of the audits (the --json forms are the audit results themselves)."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def not_applicable_line(r: dict[str, Any]) -> str | None:
    """One dim line: the tasks an audit does not cover, grouped by kind and reason."""
    groups: dict[tuple[str, str], list[str]] = {}
    for n in r.get("not_applicable", []):
        groups.setdefault((n.get("kind", "engine"), n["why"]), []).append(n["task"])
    if not groups:
        return None
    parts = [
        f"{len(ids)} {kind} task{'s' if len(ids) > 1 else ''} ({', '.join(ids)}): {why}"
        for (kind, why), ids in groups.items()
    ]
    return "not applicable to " + "; ".join(parts)


def mutation_table(r: dict[str, Any]) -> Table:
    t = Table(
        "class",
        "valid",
        "trials",
        "accepted",
        "rejected",
        "correct",
        "Wilson 95%",
        title=f"mutation audit: {r['trials']} trials, {r['false_accepts']} false accepts, "
        f"{r['false_rejects']} false rejects",
    )
    for c in r["classes"]:
        lo, hi = c["wilson95"]
        t.add_row(
            c["name"],
            "yes" if c["valid"] else "no",
            str(c["trials"]),
            str(c["accepted"]),
            str(c["rejected"]),
            _pct(c["correct_rate"]),
            f"{_pct(lo)}–{_pct(hi)}",
        )
    return t


SENSITIVITY_METRICS = (
    ("pairs_changed_share", "scenario pairs whose graded output differs in at least one field (all pairs, all tasks)"),
    ("fields_varying_share", "graded fields that differ in some scenario of their task (mean over tasks)"),
    ("fields_changed_share_per_pair", "fields that differ within one scenario pair (mean over all pairs)"),
    ("parameters_moving_output_share", "declared parameters that move the output when changed alone, every variant"),
)


def sensitivity_table(r: dict[str, Any]) -> Table:
    """Per-task rows; the caption holds the four metrics, one line each with what it counts."""
    caption = "\n".join(
        f"{name} = {'- (needs --rerun)' if r[name] is None else _pct(r[name])}: {what}"
        for name, what in SENSITIVITY_METRICS
    )
    t = Table(
        "task",
        "pairs changed",
        "fields varying",
        "fields changed / pair",
        "inert parameters",
        title="sensitivity",
        caption=caption,
        caption_justify="left",
    )
    for row in r["tasks"]:
        t.add_row(
            row["task"],
            f"{row['pairs_changed']}/{row['pairs']}",
            f"{row['fields_varying']}/{row['fields']}",
            _pct(row["fields_changed_share_per_pair"]),
            ", ".join(row.get("parameters_inert", [])) or "-",
        )
    return t


def replay_table(r: dict[str, Any]) -> Table:
    t = Table("control", "mean hidden-field agreement", "pass rate", title="replay controls")
    for name, c in r["controls"].items():
        t.add_row(name, _pct(c["mean_field_agreement"]), _pct(c["pass_rate"]))
    return t


def achievability_table(r: dict[str, Any]) -> Table:
    t = Table(
        "task",
        "kind",
        "oracle",
        "nop",
        "attained / threshold",
        title=f"achievability: {len(r['unachievable'])} unachievable, {len(r['passed_by_nop'])} passed by nop",
    )
    for row in r["tasks"]:
        probes = "; ".join(
            f"{p['check']} {p['attained']:.3g} / {p['threshold']:.3g}{'' if p['margin_ok'] else ' NO MARGIN'}"
            for p in row["thresholds"]
            if "check" in p and p["attained"] is not None
        )
        t.add_row(
            row["task"],
            row["kind"],
            "pass" if row["oracle_pass"] else "FAIL",
            "PASS" if row["nop_pass"] else "fail",
            probes or (f"score {row['score']}" if "score" in row else ""),
        )
    return t


def findings_table(rows: list[dict[str, Any]], title: str, cols: tuple[str, ...]) -> Table:
    t = Table(*cols, title=title)
    for row in rows:
        t.add_row(*(str(row.get(c, "")) for c in cols))
    return t


def lint_table(r: dict[str, Any]) -> Group:
    """Unaccepted findings, one row each; then the accepted ones, one row per workflow's accept, with its reason."""
    found = findings_table(
        r["findings"],
        f"lint: {r['errors']} errors, {r['warnings']} warnings, {len(r['accepted'])} accepted",
        ("task", "severity", "check", "field", "message"),
    )
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for a in r["accepted"]:
        groups.setdefault((a["workflow"], a["check"], a["accept"]), []).append(a)
    t = Table(
        "workflow", "check", "field", "findings", "why", title=Text("accepted ([[lint.accept]] in workflow.toml)")
    )
    for (wf, check, field), rows in groups.items():
        t.add_row(wf, check, field or "(task)", str(len(rows)), Text(rows[0]["why"]))
    return Group(found, t) if groups else Group(found)


def defects_table(defects: list[dict[str, Any]], title: str) -> Table:
    """The defect register, one row a defect."""
    t = Table("id", "task", "kind", "severity", "signal", "status", "recorded", "summary", "fix", "test", title=title)
    for d in defects:  # free text from the register: shown as written, never as markup
        t.add_row(
            *(
                Text(str(d[c]))
                for c in ("id", "task", "kind", "severity", "signal", "status", "recorded", "summary", "fix", "test")
            )
        )
    return t


def _outcome(passed: bool | None, label: str | None) -> str:
    return "-" if passed is None else ("pass" if passed else f"fail ({label})")


def regrade_table(r: dict[str, Any]) -> Table:
    """Per run of the job: its recorded outcome, and the fixed release's (or why it needs a re-run)."""
    t = Table(
        "task",
        "attempt",
        "before",
        "after",
        "status",
        title=(
            f"regrade of {r['job']}: {r['changed']} changed ({r['fail_to_pass']} fail→pass, {r['pass_to_fail']} "
            f"pass→fail), {r['needs_rerun']} need a re-run, {r['missing_task']} tasks gone; passes "
            f"{r['passed_before']} → {r['passed_after']} of {r['regraded']} regraded"
        ),
    )
    for row in r["runs"]:
        after = _outcome(row["new_pass"], row["new_label"]) if row["status"] == "regraded" else row["reason"]
        status = "CHANGED" if row["changed"] else row["status"]
        t.add_row(Text(row["task"]), str(row["attempt"]), _outcome(row["old_pass"], row["old_label"]), after, status)
    return t


def _share(r: dict[str, Any]) -> str:
    """k/n (rate) [Wilson 95%] of one rate record; '-' when there is nothing to count."""
    if not r["n"]:
        return "-"
    lo, hi = r["wilson95"]
    return f"{r['k']}/{r['n']} ({_pct(r['rate'])}) [{_pct(lo)}–{_pct(hi)}]"


def agreement_table(r: dict[str, Any]) -> Table:
    kappa = "undefined" if r["cohen_kappa"] is None else f"{r['cohen_kappa']:.3f}"
    t = Table(
        "stratum",
        "cases",
        "verifier accepts",
        "verifier rejects",
        "errors",
        "error rate [Wilson 95%]",
        title=f"blinded audit, {r['cases']} cases: annotators agree {_share(r['annotator_agreement'])}, "
        f"kappa {kappa}; label validity {_share(r['label_validity'])}; verifier agrees "
        f"{_share(r['verifier_agreement'])}; FA {_share(r['false_accept_rate'])}, "
        f"FR {_share(r['false_reject_rate'])}; {r['unresolved']} unresolved",
    )
    for s in r["strata"]:
        t.add_row(
            s["stratum"],
            str(s["cases"]),
            str(s["accepted"]),
            str(s["rejected"]),
            f"{s['k']} {s['error'].replace('_', ' ')}",
            _share(s),
        )
    return t


def freeze_table(r: dict[str, Any]) -> Table:
    """The freeze record: the two sets, and how the generator did on the pilot."""
    pv = r["pilot_validation"]
    t = Table(
        "set",
        "tasks",
        "detail",
        title=f"freeze: generator {r['generator_hash'][:12]} frozen in {r['path']} (seed {r['seed']})",
    )
    off = f"; off-design classes: {', '.join(pv['off_design_classes'])}" if pv["off_design_classes"] else ""
    t.add_row(
        "pilot",
        f"{len(r['pilot'])} of {r['pilot_requested']}",
        f"{pv['trials']} mutants, {pv['false_accepts']} false accepts, {pv['false_rejects']} false rejects{off}",
    )
    t.add_row(
        "held-out",
        f"{len(r['held_out'])} of {r['held_out_requested']}",
        f"2 from each of {r['families']} families, high-risk: {', '.join(r['high_risk']) or 'none'}",
    )
    for w in pv["wrong_decisions"]:
        t.add_row("pilot error", w["task"], f"{w['class']} ({'accepted' if w['accepted'] else 'rejected'})")
    return t


def heldout_table(r: dict[str, Any]) -> Any:
    """Table 12: per stratum trials, false accepts and rejects, correct-decision rate and its Wilson 95% interval;
    then the wrong decisions (task, class, field)."""
    from rich.console import Group

    t = Table(
        "stratum",
        "trials",
        "false accept",
        "false reject",
        "correct",
        "Wilson 95%",
        title=f"held-out audit of {r['tasks']} tasks (generator {r['generator_hash'][:12]}"
        f"{', verifier changed since freezing' if r['verifier_changed_since_freeze'] else ''})",
    )
    for s in [*r["strata"], r["all"]]:
        lo, hi = s["wilson95"]
        t.add_row(
            s["stratum"],
            str(s["trials"]),
            str(s["false_accepts"]),
            str(s["false_rejects"]),
            _pct(s["correct_rate"]),
            f"{_pct(lo)}–{_pct(hi)}",
        )
    parts: list[Any] = [t]
    if r["wrong_decisions"]:
        w = Table(
            "task",
            "hidden",
            "class",
            "field",
            "detail",
            "decision",
            title=f"wrong decisions ({r['wrong_decisions_total']})",
        )
        for d in r["wrong_decisions"]:
            w.add_row(
                d["task"],
                str(d["hidden"]),
                d["class"],
                d["field"],
                d["detail"],
                "accepted (invalid)" if d["accepted"] else "rejected (valid)",
            )
        parts.append(w)
    return Group(*parts)


def adequacy_table(r: dict[str, Any]) -> Group:
    """Per engine: rule mutants killed, operator mutants killed, kill rate; then every survivor with why."""
    rate = "n/a" if r["kill_rate"] is None else _pct(r["kill_rate"])
    t = Table(
        "engine",
        "cases",
        "rules killed",
        "equivalent",
        "operators killed",
        "kill rate",
        title=f"adequacy: {len(r['surviving_rules'])} surviving rule mutants, kill rate {rate}",
    )
    for e in r["engines"]:
        t.add_row(
            e["engine"],
            str(e["cases"]),
            f"{e['rules_killed']}/{e['rules_declared']}",
            str(e["rules_equivalent"]),
            f"{e['operators_killed']}/{e['operators_total']}",
            "n/a" if e["kill_rate"] is None else _pct(e["kill_rate"]),
        )
    survivors = [{"engine": e["engine"], **s} for e in r["engines"] for s in e["survivors"]]
    parts: list[Any] = [t]
    if survivors:
        parts.append(findings_table(survivors, "survivors", ("engine", "kind", "id", "reason")))
    return Group(*parts)
