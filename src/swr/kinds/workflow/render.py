"""A workflow verdict as `swr grade` and `swr feedback` render it."""

from __future__ import annotations

import json

from rich.console import RenderableType
from rich.table import Table

from swr.core.text import plain
from swr.kinds.workflow.verdict import Scenario, WorkflowVerdict


def _first_mismatch(s: Scenario) -> str:
    if s.mismatches:
        m = s.mismatches[0]
        return f"{m['path'] or '(root)'}: expected {json.dumps(m['expected'])[:40]}, got {json.dumps(m['got'])[:40]}"
    if s.limit:
        return f"limit: {s.limit}"
    tail = (s.stderr_tail or "").strip().splitlines()
    return tail[-1][:80] if tail else ""


def workflow_verdict_table(v: WorkflowVerdict) -> RenderableType:
    """A workflow verdict as a table; what the candidate controls (paths, values, stderr) is shown as plain text."""
    r_hid, r_pub = ("-" if x is None else f"{x:.3f}" for x in (v.r_hid, v.r_pub))
    title = (
        f"{plain(v.task)}: {'[green]PASS[/]' if v.passed else '[red]FAIL[/]'} ({plain(str(v.label))})  "
        f"r_hid={r_hid}  r_pub={r_pub}  field agreement={v.field_agreement:.3f}"
    )
    table = Table("split", "#", "result", "label", "fields", "first difference", title=title)
    for s in v.scenarios:
        table.add_row(
            s.split,
            str(s.index),
            "pass" if s.passed else "fail",
            plain(s.label or ""),
            f"{s.matched}/{s.total}",
            plain(_first_mismatch(s)),
        )
    return table
