"""The release's audit results as report tables: the same columns as `swr audit … ` prints
(swr.audit.render), from the JSON each audit's --json gives. A field missing from a saved result is a
one-line error naming the file and the field."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr.audit.render import SENSITIVITY_METRICS
from swr.core.errors import SwrError
from swr.core.layout import ReleasePaths


@dataclass(frozen=True)
class HtmlTable:
    """A table for a template: its title, column headers, rows of cell text, and caption lines."""

    title: str
    headers: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]
    caption: tuple[str, ...] = ()


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def sensitivity(r: dict[str, Any]) -> HtmlTable:
    caption = tuple(
        f"{name} = {_pct(r[name]) if r[name] is not None else '- (needs --rerun)'}: {what}"
        for name, what in SENSITIVITY_METRICS
    )
    rows = [
        (
            t["task"],
            f"{t['pairs_changed']}/{t['pairs']}",
            f"{t['fields_varying']}/{t['fields']}",
            _pct(t["fields_changed_share_per_pair"]),
            ", ".join(t.get("parameters_inert", [])) or "-",
        )
        for t in r["tasks"]
    ]
    return HtmlTable(
        "sensitivity",
        ("task", "pairs changed", "fields varying", "fields changed / pair", "inert parameters"),
        rows,
        caption,
    )


def replay(r: dict[str, Any]) -> HtmlTable:
    rows = [(name, _pct(c["mean_field_agreement"]), _pct(c["pass_rate"])) for name, c in sorted(r["controls"].items())]
    passing = r.get("controls_passing") or []
    return HtmlTable(
        "replay controls",
        ("control", "mean hidden-field agreement", "pass rate"),
        rows,
        (f"{len(passing)} control passes (each one is a verifier defect)",),
    )


def mutation(r: dict[str, Any]) -> HtmlTable:
    rows = [
        (
            c["name"],
            "yes" if c["valid"] else "no",
            str(c["trials"]),
            str(c["accepted"]),
            str(c["rejected"]),
            _pct(c["correct_rate"]),
            f"{_pct(c['wilson95'][0])}–{_pct(c['wilson95'][1])}",
        )
        for c in r["classes"]
    ]
    return HtmlTable(
        f"mutation: {r['trials']} trials, {r['false_accepts']} false accepts, {r['false_rejects']} false rejects",
        ("class", "valid", "trials", "accepted", "rejected", "correct", "Wilson 95%"),
        rows,
    )


RENDER = {"sensitivity": sensitivity, "replay": replay, "mutation": mutation}


def audit_table(release: Path, name: str, result: dict[str, Any] | None) -> HtmlTable | None:
    """The table of one saved audit (None: not run)."""
    if result is None:
        return None
    try:
        return RENDER[name](result)
    except (KeyError, TypeError, IndexError) as e:
        where = ReleasePaths(release).audit_result(name)
        raise SwrError(
            f"not a `swr audit {name} --json` result ({type(e).__name__}: {e})",
            file=where,
            field=str(e.args[0]) if isinstance(e, KeyError) else None,
        ) from None
