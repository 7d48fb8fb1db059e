"""A revival verdict as `swr grade` and `swr feedback` render it."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table

from swr.core.text import one_line, plain, plain_lines
from swr.kinds.revival.verdict import RevivalVerdict


def revival_verdict_table(v: RevivalVerdict) -> RenderableType:
    """The failed records (or all when none failed), then pytest's account when ./feedback has one, its lines
    kept. ./feedback with no public test to run says that, and neither PASS nor FAIL nor a score of 0/0."""
    split = " (public tests)" if v.public_only else ""
    if v.passed is None and not v.public_only:  # grading.device_skipped: neither PASS nor FAIL
        return plain_lines(f"{one_line(v.task)}: SKIPPED ({v.label}): {v.detail}")
    if v.passed is None:  # grading.no_public_tests
        return plain_lines(f"{one_line(v.task)}{split}: no public tests: {v.detail}")
    score = f"  score {v.score}" if v.records else ""
    title = (
        f"{plain(v.task)}{split}: {'[green]PASS[/]' if v.passed else '[red]FAIL[/]'} "
        f"({plain(', '.join(v.labels) or 'pass')}){score}"
    )
    table = Table("case", "check", "result", "detail", title=title)
    failed = [r for r in v.records if not r.passed]
    for r in failed or v.records:
        table.add_row(plain(r.case), r.check, "pass" if r.passed else "fail", plain(one_line(r.detail)[:80]))
    detail = (v.detail or "")[-1500:]
    return Group(table, plain_lines(detail.strip("\r\n"))) if detail.strip() else table
