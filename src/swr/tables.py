"""Readable renderings (rich tables) of build results, task lists and verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.table import Table

from swr.release import list_tasks, load_task


def task_rows(release: Path) -> list[dict[str, Any]]:
    rows = []
    for root in list_tasks(release):
        t = load_task(root)
        gates = t.gates
        passed = sum(1 for g in gates.values() if g.get("pass"))
        rows.append({"id": t.id, "family": t.meta["family"], "domain": t.meta["domain"], "public": len(t.public),
                     "hidden": len(t.hidden), "gates": f"{passed}/{len(gates)}" if gates else "-"})
    return rows


def tasks_table(rows: list[dict[str, Any]]) -> Table:
    table = Table("id", "family", "domain", "public", "hidden", "gates", title=f"{len(rows)} tasks")
    for r in rows:
        table.add_row(r["id"], r["family"], r["domain"], str(r["public"]), str(r["hidden"]), r["gates"])
    return table


def build_table(workflows: list[dict[str, Any]]) -> Table:
    table = Table("workflow", "family", "domain", "status", "tasks / reason", title="build")
    for w in workflows:
        status = "[green]ok[/]" if w["status"] == "ok" else "[red]failed[/]"
        table.add_row(w["name"], w["family"], w["domain"], status, str(len(w["tasks"])) if w["status"] == "ok"
                      else w["reason"])
    return table


def _first_mismatch(s: dict[str, Any]) -> str:
    if s.get("mismatches"):
        m = s["mismatches"][0]
        return f"{m['path'] or '(root)'}: expected {json.dumps(m['expected'])[:40]}, got {json.dumps(m['got'])[:40]}"
    if s.get("limit"):
        return f"limit: {s['limit']}"
    tail = (s.get("stderr_tail") or "").strip().splitlines()
    return tail[-1][:80] if tail else ""


def verdict_table(v: dict[str, Any]) -> Table:
    r_hid, r_pub = ("-" if v.get(k) is None else f"{v[k]:.3f}" for k in ("r_hid", "r_pub"))
    title = (f"{v['task']}: {'[green]PASS[/]' if v['pass'] else '[red]FAIL[/]'} ({v['label']})  r_hid={r_hid}  "
             f"r_pub={r_pub}  field agreement={v['field_agreement']:.3f}")
    table = Table("split", "#", "result", "label", "fields", "first difference", title=title)
    for s in v.get("scenarios", []):
        table.add_row(s["split"], str(s["index"]), "pass" if s["pass"] else "fail", s["label"] or "",
                      f"{s['matched']}/{s['total']}", _first_mismatch(s))
    return table


def demo_table(rows: list[dict[str, Any]]) -> Table:
    table = Table("task", "oracle", "nop", "modal", "nearest", "best-public", title="baselines (pass = r_hid 1)")
    for r in rows:
        table.add_row(r["task"], *(("pass" if r[k] else "fail") for k in ("oracle", "nop", "modal", "nearest",
                                                                          "best_public")))
    return table


def catalog_table(rows: list[dict[str, Any]]) -> Table:
    table = Table("family", "domain", "workflows", "runnable", title=f"{len(rows)} families")
    for r in rows:
        table.add_row(r["family"], r["domain"], ", ".join(r["workflows"]), "yes" if r["runnable"] else "[red]no[/]")
    return table
