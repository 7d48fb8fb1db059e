"""An engine verdict (and ./feedback on its worked examples) as `swr grade` and `swr feedback` render it."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from swr.core.text import plain
from swr.kinds.engine.verdict import EngineVerdict


def engine_verdict_table(v: EngineVerdict) -> Table:
    """One row per (case, check) that failed, or one per case when all passed."""
    title = (
        f"{plain(v.task)}: {'[green]PASS[/]' if v.passed else '[red]FAIL[/]'} "
        f"({plain(', '.join(v.labels) or 'pass')})  score {v.score}"
    )
    table = Table("case", "check", "kind", "measured", "threshold", "result", "detail", title=title)
    failed = [r for r in v.records if not r.passed]
    for r in failed or v.records:
        table.add_row(
            plain(r.case),
            r.check,
            r.kind,
            plain(str(r.measured))[:24],
            "-" if r.threshold is None else f"{r.threshold:g}",
            "pass" if r.passed else "fail",
            plain(r.detail)[:80],
        )
    return table


def engine_feedback_table(v: EngineVerdict) -> Table:
    table = Table(
        "example",
        "ran",
        "differing leaves",
        "worst relative difference",
        "first differences",
        title=f"{plain(v.task)}: the worked examples (the hidden verifier is not run here)",
    )
    for e in v.examples:
        table.add_row(
            plain(e.case),
            plain(e.failure or "yes"),
            str(e.differing_leaves),
            f"{e.worst_relative_difference:.3g}",
            plain(", ".join(e.first_differences))[:80],
        )
    return table


def engine_score_table(t: dict[str, Any]) -> Table:
    """ReviveBench's Table 2 (swr.harness.score_table's model): a row per engine with its analog, a column per
    model with its best run's ✓/✗ k/N (✓: it passed at the engine's threshold), and the engines each passed."""
    table = Table(*t["head"], title="engines: best run per model (✓ passed at the engine's k/N threshold)")
    for m in t["models"]:
        table.add_column(plain(m), no_wrap=True)
    for row in t["rows"]:
        marks = [
            (f"[green]{c['text']}[/]" if c["passed"] else c["text"]) for c in (row["cells"][m] for m in t["models"])
        ]
        table.add_row(*(plain(row[h]) for h in t["head"]), *marks)
    table.add_section()
    table.add_row("Engines passed", *([""] * (len(t["head"]) - 1)), *(t["passed"][m]["text"] for m in t["models"]))
    return table
