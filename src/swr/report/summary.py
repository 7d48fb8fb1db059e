"""What `swr report` prints when it is done: one rich table naming what the report holds."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text


def summary_table(r: dict[str, Any]) -> Table:
    """Job names, models and paths are data: shown as text, never as markup."""
    t = Table("", "", title="report written", show_header=False)
    audits = ", ".join(f"{n} {'shown' if ran else 'not run'}" for n, ran in r["audits"].items()) or "-"
    for name, value in (
        ("index", r["index"]),
        ("jobs", ", ".join(r["jobs"]) or "-"),
        ("models", ", ".join(r["models"]) or "-"),
        ("release", r["release"] or "-"),
        ("tasks", str(r["tasks"])),
        ("runs", str(r["runs"])),
        ("pages", str(r["pages"])),
        ("audits", audits),
    ):
        t.add_row(name, Text(value))
    return t
