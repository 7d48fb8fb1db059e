"""Readable tables of the audits (the --json forms are the audit results themselves)."""
from __future__ import annotations

from typing import Any

from rich.table import Table


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def mutation_table(r: dict[str, Any]) -> Table:
    t = Table("class", "valid", "trials", "accepted", "rejected", "correct", "Wilson 95%",
              title=f"mutation audit: {r['trials']} trials, {r['false_accepts']} false accepts, "
                    f"{r['false_rejects']} false rejects")
    for c in r["classes"]:
        lo, hi = c["wilson95"]
        t.add_row(c["name"], "yes" if c["valid"] else "no", str(c["trials"]), str(c["accepted"]), str(c["rejected"]),
                  _pct(c["correct_rate"]), f"{_pct(lo)}–{_pct(hi)}")
    return t


def sensitivity_table(r: dict[str, Any]) -> Table:
    t = Table("task", "pairs changed", "fields varying", "fields changed / pair", "inert parameters",
              title=f"sensitivity: {_pct(r['pair_change_rate'])} of pairs change, "
                    f"{_pct(r['field_vary_rate'])} of fields vary")
    for row in r["tasks"]:
        t.add_row(row["task"], f"{row['pairs_changed']}/{row['pairs']}", f"{row['fields_varying']}/{row['fields']}",
                  f"{row['fields_changed_per_pair']:.1f}", ", ".join(row.get("parameters_inert", [])) or "-")
    return t


def replay_table(r: dict[str, Any]) -> Table:
    t = Table("control", "mean hidden-field agreement", "pass rate", title="replay controls")
    for name, c in r["controls"].items():
        t.add_row(name, _pct(c["mean_field_agreement"]), _pct(c["pass_rate"]))
    return t


def achievability_table(r: dict[str, Any]) -> Table:
    t = Table("task", "kind", "oracle", "nop", "attained / threshold",
              title=f"achievability: {len(r['unachievable'])} unachievable, {len(r['passed_by_nop'])} passed by nop")
    for row in r["tasks"]:
        probes = "; ".join(f"{p['check']} {p['attained']:.3g} / {p['threshold']:.3g}{'' if p['margin_ok'] else ' NO MARGIN'}"
                           for p in row["thresholds"] if "check" in p and p["attained"] is not None)
        t.add_row(row["task"], row["kind"], "pass" if row["oracle_pass"] else "FAIL",
                  "PASS" if row["nop_pass"] else "fail", probes)
    return t


def findings_table(rows: list[dict[str, Any]], title: str, cols: tuple[str, ...]) -> Table:
    t = Table(*cols, title=title)
    for row in rows:
        t.add_row(*(str(row.get(c, "")) for c in cols))
    return t
