"""Readable renderings (rich tables) of build results, task lists and verdicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table

from swr import kinds
from swr.core.errors import SwrError
from swr.core.release_dir import list_tasks
from swr.core.text import one_line, plain, plain_lines  # noqa: F401 - plain_lines, one_line: re-exported
from swr.kinds import registry
from swr.kinds.verdict import Verdict


def task_rows(release: Path) -> list[dict[str, Any]]:
    rows = []
    for root in list_tasks(release):
        t = kinds.load(root)
        gates = t.build_gates()
        passed = sum(1 for g in gates.values() if g.passed)
        public, hidden = t.case_counts()
        rows.append(
            {
                "id": t.id,
                "kind": t.meta.kind,
                "family": t.meta.family,
                "domain": t.meta.domain,
                "public": public,
                "hidden": hidden,
                "gates": f"{passed}/{len(gates)}" if gates else "-",
            }
        )
    return rows


def tasks_table(rows: list[dict[str, Any]]) -> Table:
    table = Table(title=f"{len(rows)} tasks")
    table.add_column("id", no_wrap=True, min_width=max((len(r["id"]) for r in rows), default=2))  # ids are copied
    for name in ("kind", "family", "domain", "public", "hidden", "gates"):
        table.add_column(name)
    for r in rows:
        table.add_row(r["id"], r["kind"], r["family"], r["domain"], str(r["public"]), str(r["hidden"]), r["gates"])
    return table


def dropped_note(dropped: dict[Any, str]) -> str:
    """`; v2 dropped: why` for each variant a build left out, for the table and the progress lines alike."""
    return "".join(f"; v{v} dropped: {why}" for v, why in dropped.items())


def build_table(workflows: list[dict[str, Any]]) -> Table:
    table = Table("workflow", "family", "domain", "status", "tasks / reason", title="build")
    for w in workflows:
        status = {"ok": "[green]ok[/]", "skipped": "[yellow]skipped[/]"}.get(w["status"], "[red]failed[/]")
        dropped = dropped_note(w.get("dropped_variants", {}))
        table.add_row(
            w["name"],
            w["family"],
            w["domain"],
            status,
            plain(f"{len(w['tasks'])}{dropped}") if w["status"] == "ok" else plain(w["reason"]),
        )  # a reason may quote a program's stderr
    return table


def verdict_table(v: Verdict) -> RenderableType:
    """A verdict as its kind renders it (a verdict without a kind is a workflow's)."""
    kind = registry.get(v.kind)
    if kind is None:
        raise SwrError(f"a verdict of unknown kind {v.kind!r}", field="kind")
    table: RenderableType = kind.verdict_table(v)
    return table


def cohort_tables(res: dict[str, Any]) -> list[Table]:
    """One table per cohort split of `swr results` (tasks of other kinds: the "n/a" row)."""
    tables = []
    for by, split in res.get("cohorts", {}).items():
        table = Table("cohort", "tasks", "runs", "passed", "pass@1", title=f"{plain(res['job'])} by {by}")
        for name, g in split.items():
            table.add_row(plain(name), str(g["tasks"]), str(g["runs"]), str(g["passed"]), f"{g['pass_at_1']:.3f}")
        tables.append(table)
    return tables


def contamination_table(res: dict[str, Any]) -> list[Table]:
    """The paper's contamination table (`--cohort contamination`): per obfuscated pair in the job, the variant's
    line similarity to its original as the release recorded it, plain and with canonical identifiers, beside both
    tasks' pass@1 (the cohort split above it holds original vs obfuscated vs post-cutoff)."""
    found = res.get("contamination")
    if not found:
        return []
    table = Table(
        "obfuscated",
        "original",
        "line similarity",
        "canonical identifiers",
        "pass@1",
        "original pass@1",
        title=f"{plain(res['job'])}: obfuscated pairs (post-cutoff: created on or after {found['post_cutoff']})",
    )
    for p in found["pairs"]:
        table.add_row(
            plain(p["obfuscated"]),
            plain(p["original"]),
            f"{p['ratio']:.2f}",
            f"{p['ratio_canonical']:.2f}",
            _fmt(p["pass_at_1"]),
            _fmt(p["original_pass_at_1"]),
        )
    return [table]


def _fmt(x: float | None, spec: str = ".3f") -> str:
    return "-" if x is None else format(x, spec)


def results_tables(res: dict[str, Any]) -> list[Table]:
    """One job's `swr results`: the headline, pass@1 by domain and family, the failure taxonomy, interaction
    length of passes against failures, best scores, then any cohort split."""
    head = Table(
        "runs",
        "passed",
        "pass@1",
        f"pass@k, k={res['k']}",
        "infrastructure failures",
        "missing records",
        title=f"job {plain(res['job'])} ({plain(res['agent'])}, {plain(str(res['model']))})"
        + (f"; {res['skipped']} runs skipped, not counted (cannot run here)" if res.get("skipped") else ""),
    )
    head.add_row(
        str(res["runs"]),
        str(res["passed"]),
        _fmt(res["pass_at_1"]),
        _fmt(res["pass_at_k"]),
        str(res["infra_failures"]),
        str(res["missing_records"]),
    )
    tables = [head]
    for by in ("domain", "family"):
        t = Table(by, "tasks", "pass@1", title=f"by {by}")
        for name, g in res[f"by_{by}"].items():
            t.add_row(plain(name), str(g["tasks"]), _fmt(g["pass_at_1"]))
        tables.append(t)
    labels = Table("label", "runs", title="outcomes (first failing stage)")
    for name, n in res["labels"].items():
        labels.add_row(plain(name), str(n))
    length = Table("runs", "median turns", "median tokens", title="interaction length")
    for side in ("passed", "failed"):
        length.add_row(side, _fmt(res["median_turns"][side], "g"), _fmt(res["median_tokens"][side], "g"))
    tables += [labels, length]
    if res["scores"]:
        scores = Table("task", "score", title="best score per task")
        for task, s in res["scores"].items():
            scores.add_row(plain(task), s)
        tables.append(scores)
    return tables + cohort_tables(res) + contamination_table(res)


def _cell(c: dict[str, Any]) -> str:
    """A matrix cell as a reader sees it: pass/fail, the score where the task has one, why it failed."""
    if c["label"] == "not_planned":
        return "-"
    text = ("[green]pass[/]" if c["passed"] else "[red]fail[/]") + (f" {c['score']}" if c["score"] else "")
    return text if c["passed"] else f"{text} ({plain(c['label'] or 'fail')})"


def compare_tables(res: dict[str, Any]) -> list[Table]:
    """`swr results JOB…` over several models: per-model rows, the model x task matrix, how many models
    pass each task, and the family pass rate against interaction length."""
    width = max((len(m["model"]) for m in res["models"]), default=5)
    models = Table(title=f"per model: runs (pass@{res['k']} over the pooled attempts)")
    models.add_column("model", no_wrap=True, min_width=width)
    for name in ("runs", "valid", "infra", "passes", "first-attempt", f"pass@{res['k']}"):
        models.add_column(name)
    effort = Table(title="per model: interaction and cost")
    effort.add_column("model", no_wrap=True, min_width=width)
    for name in ("jobs", "median turns", "median tokens", "cost", "failed agreement"):
        effort.add_column(name)
    for m in res["models"]:
        models.add_row(
            plain(m["model"]),
            str(m["runs"]),
            str(m["valid_runs"]),
            str(m["infra_failures"]),
            str(m["passes"]),
            _fmt(m["first_attempt_pass_rate"]),
            _fmt(m["pass_at_k"]),
        )
        effort.add_row(
            plain(m["model"]),
            plain(", ".join(m["jobs"])),
            _fmt(m["median_turns"], "g"),
            _fmt(m["median_tokens"], "g"),
            f"{m['total_cost']:.4f}",
            _fmt(m["mean_failed_agreement"]),
        )
    labels = [m["model"] for m in res["models"]]
    matrix = Table(title="model x task (best run per cell)")
    matrix.add_column("task", no_wrap=True)
    for label in labels:
        matrix.add_column(plain(label))
    for task, row in res["matrix"].items():
        matrix.add_row(plain(task), *(_cell(row[m]) for m in labels))
    dist = Table("models passing", "tasks", title="successes per task")
    for n, count in res["success_distribution"].items():
        dist.add_row(n, str(count))
    corr = res["family_turns_correlation"]
    fam = Table("families", "pearson", "spearman", title="family pass rate vs median turns")
    fam.add_row(str(corr["n"]), _fmt(corr["pearson"]), _fmt(corr["spearman"]))
    nd = Table("task (every model passed it)", title="non-discriminating")
    for task in res["non_discriminating"]:
        nd.add_row(plain(task))
    return [models, effort, matrix, dist, fam, nd, *score_tables(res)]


def score_tables(res: dict[str, Any]) -> list[Table]:
    """The score tables (ReviveBench's Table 2 for the engines), each as its kind renders it."""
    out: list[Table] = []
    for kind, model in res.get("score_tables", {}).items():
        known = registry.get(kind)
        if known is None:
            raise SwrError(f"a score table of unknown kind {kind!r}", field="kind")
        table: Table = known.score_table(model)
        out.append(table)
    return out


def demo_table(rows: list[dict[str, Any]]) -> Table:
    table = Table("task", "oracle", "nop", "modal", "nearest", "best-public", title="baselines (pass = r_hid 1)")
    for r in rows:
        table.add_row(
            r["task"], *(("pass" if r[k] else "fail") for k in ("oracle", "nop", "modal", "nearest", "best_public"))
        )
    return table


def catalog_table(rows: list[dict[str, Any]]) -> Table:
    cov = any("coverage" in r for r in rows)  # swr catalog list --release/--measure
    table = Table("family", "domain", "workflows", "runnable", title=f"{len(rows)} families")
    if cov:
        table.add_column("coverage (executed/reached)")
        table.add_column("max overlap")
    for r in rows:
        cells = [r["family"], r["domain"], ", ".join(r["workflows"]), "yes" if r["runnable"] else "[red]no[/]"]
        table.add_row(*cells, *(_coverage_cells(r.get("coverage")) if cov else ()))
    return table


def _coverage_cells(c: dict[str, Any] | None) -> tuple[str, str]:
    """A family's coverage of its package and its largest pair overlap (red over the threshold); why not."""
    if c is None:
        return "[dim]not in the release[/]", ""
    if c["share"] is None:
        why = next(iter(c["not_recorded"].values()), "nothing recorded")
        return f"[dim]{escape(why)}[/]", "n/a"
    share = f"{c['executed']}/{c['reached']} ({c['share']:.1%})"
    if c["max_overlap"] is None:
        return share, "n/a"
    top = f"{c['max_overlap']:.2f}"
    return share, f"[red]{top} > {c['threshold']:g}[/]" if c["over"] else f"{top} ≤ {c['threshold']:g}"
