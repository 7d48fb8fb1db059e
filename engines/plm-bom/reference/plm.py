"""A PLM/BOM core: parts with lettered revisions moving through a lifecycle (in_work -> in_review -> released
-> obsolete) only by engineering change orders, multi-level BOMs on revisions (cycles refused, released
revisions immutable), date effectivity, and queries (indented explosion with extended quantities and leaf
totals, single- and multi-level where-used). Every transaction is validated and journalled with the changes
it made; an ECO approval is all or nothing."""
from __future__ import annotations

import datetime
import re
from typing import Any

UOMS = ("ea", "kg", "m", "l")
SKIP = set("IOQSXZ")  # ASME Y14.35: revision letters never used
SINGLE = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in SKIP]
REVS = SINGLE + [a + b for a in SINGLE for b in SINGLE]
OPS = ("create_part", "revise", "add_line", "remove_line", "create_eco", "add_affected", "submit_eco",
       "reject_eco", "approve_eco", "explode", "where_used")
QUERIES = ("explode", "where_used")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits: \d would take any script's


class Rejected(Exception):
    """A failed check: its reason code."""


def is_int(v: Any, minimum: int = 1) -> bool:
    """A JSON integer (not a boolean, not 2.0) of at least `minimum`."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= minimum


def is_name(v: Any) -> bool:
    return isinstance(v, str) and v != ""


def is_date(v: Any) -> bool:
    if not isinstance(v, str) or not DATE.fullmatch(v):
        return False
    try:
        datetime.date.fromisoformat(v)
    except ValueError:
        return False
    return True


def need(ok: bool, reason: str) -> None:
    if not ok:
        raise Rejected(reason)


def effective(rev: dict[str, Any], date: str) -> bool:
    """Released or obsolete, and date in [effective_from, effective_to)."""
    return rev["state"] in ("released", "obsolete") and rev["effective_from"] <= date and \
        (rev["effective_to"] is None or date < rev["effective_to"])


class Pdm:
    def __init__(self) -> None:
        self.parts: dict[str, dict[str, Any]] = {}
        self.ecos: dict[str, dict[str, Any]] = {}
        self.seq = 0
        self.changes: list[dict[str, Any]] = []

    # -- helpers
    def part(self, p: Any) -> dict[str, Any]:
        need(isinstance(p, str) and p in self.parts, "unknown_part")
        return self.parts[p]

    def rev(self, t: dict[str, Any]) -> dict[str, Any]:
        revs = self.part(t.get("part"))["revisions"]
        need(isinstance(t.get("rev"), str) and t.get("rev") in revs, "unknown_revision")
        return revs[t["rev"]]

    def eco(self, e: Any) -> dict[str, Any]:
        need(isinstance(e, str) and e in self.ecos, "unknown_eco")
        return self.ecos[e]

    def effective_rev(self, p: str, date: str) -> str | None:
        return next((r for r, v in self.parts[p]["revisions"].items() if effective(v, date)), None)

    def released(self, p: str) -> str | None:
        return next((r for r, v in self.parts[p]["revisions"].items() if v["state"] == "released"), None)

    def reaches(self, start: str, goal: str) -> bool:
        """Whether goal is start or below it through the BOM lines of any revision."""
        seen, todo = set(), [start]
        while todo:
            p = todo.pop()
            if p == goal:
                return True
            if p not in seen:
                seen.add(p)
                todo += [ln["child"] for v in self.parts[p]["revisions"].values() for ln in v["bom"]]
        return False

    # -- changes: the journal records the effect of each, in the order made
    def new_revision(self, p: str, r: str) -> None:
        self.parts[p]["revisions"][r] = {"state": "in_work", "effective_from": None, "effective_to": None,
                                         "bom": [], "history": [{"seq": self.seq, "state": "in_work"}]}
        self.changes.append({"change": "revision", "part": p, "rev": r})

    def bom_add(self, p: str, r: str, line: dict[str, Any]) -> None:
        bom = self.parts[p]["revisions"][r]["bom"]
        bom.append(dict(line))
        bom.sort(key=lambda ln: ln["find"])
        self.changes.append({"change": "bom_add", "part": p, "rev": r, **line})

    def move(self, p: str, r: str, to: str, date: str | None = None) -> None:
        v = self.parts[p]["revisions"][r]
        self.changes.append({"change": "state", "part": p, "rev": r, "from": v["state"], "to": to, "date": date})
        v["state"] = to
        v["history"].append({"seq": self.seq, "state": to})
        if to == "released":
            v["effective_from"] = date
        if to == "obsolete":
            v["effective_to"] = date

    def eco_to(self, e: str, to: str, date: str | None = None) -> None:
        eco = self.ecos.get(e)
        self.changes.append({"change": "eco", "eco": e, "from": eco["state"] if eco else None, "to": to,
                             "date": date})
        if eco is None:
            self.ecos[e] = {"state": to, "affected": [], "date": None}
        else:
            eco["state"], eco["date"] = to, date

    # -- transactions
    def apply(self, t: Any) -> tuple[str | None, list[dict[str, Any]], Any]:
        """(reason or None, changes, query result) of one transaction; a rejected one changes nothing."""
        op = t.get("op") if isinstance(t, dict) else None
        self.changes = []
        if op not in OPS:
            return "unknown_op", [], None
        try:
            result = getattr(self, "_" + op)(t)
        except Rejected as r:
            assert not self.changes, "a check after a change"
            return str(r), [], None
        return None, self.changes, result

    def _create_part(self, t: dict[str, Any]) -> None:
        p, r = t.get("part"), t.get("rev", "A")
        need(is_name(p), "invalid_part")
        need(p not in self.parts, "duplicate_part")
        need(t.get("uom") in UOMS, "invalid_uom")
        need(r in REVS, "invalid_revision")
        self.parts[p] = {"uom": t["uom"], "revisions": {}}
        self.changes.append({"change": "part", "part": p, "uom": t["uom"]})
        self.new_revision(p, r)

    def _revise(self, t: dict[str, Any]) -> None:
        revs = self.part(t.get("part"))["revisions"]
        latest = list(revs)[-1]
        need(revs[latest]["state"] == "released", "not_released")
        need(latest != REVS[-1], "revision_limit")
        new = REVS[REVS.index(latest) + 1]
        self.new_revision(t["part"], new)
        for line in revs[latest]["bom"]:
            self.bom_add(t["part"], new, line)

    def _add_line(self, t: dict[str, Any]) -> None:
        v = self.rev(t)
        need(v["state"] == "in_work", "not_editable")
        need(is_int(t.get("find")), "invalid_find")
        need(all(ln["find"] != t["find"] for ln in v["bom"]), "duplicate_find")
        c = t.get("child")
        need(isinstance(c, str) and c in self.parts, "unknown_child")
        need(is_int(t.get("qty")), "invalid_quantity")
        need(t.get("uom") == self.parts[c]["uom"], "uom_mismatch")
        need(not self.reaches(c, t["part"]), "cycle")
        self.bom_add(t["part"], t["rev"], {"find": t["find"], "child": c, "qty": t["qty"], "uom": t["uom"]})

    def _remove_line(self, t: dict[str, Any]) -> None:
        v = self.rev(t)
        need(v["state"] == "in_work", "not_editable")
        k = next((i for i, ln in enumerate(v["bom"]) if is_int(t.get("find")) and ln["find"] == t["find"]), None)
        need(k is not None, "unknown_find")
        del v["bom"][k]
        self.changes.append({"change": "bom_remove", "part": t["part"], "rev": t["rev"], "find": t["find"]})

    def _create_eco(self, t: dict[str, Any]) -> None:
        e = t.get("eco")
        need(is_name(e), "invalid_eco")
        need(e not in self.ecos, "duplicate_eco")
        self.eco_to(e, "open")

    def _add_affected(self, t: dict[str, Any]) -> None:
        eco = self.eco(t.get("eco"))
        need(eco["state"] == "open", "eco_not_open")
        v = self.rev(t)
        need(v["state"] == "in_work", "not_in_work")
        item = {"part": t["part"], "rev": t["rev"]}
        need(all(item not in x["affected"] for x in self.ecos.values() if x["state"] in ("open", "in_review")),
             "on_other_eco")
        eco["affected"].append(item)
        self.changes.append({"change": "affected", "eco": t["eco"], **item})

    def _submit_eco(self, t: dict[str, Any]) -> None:
        eco = self.eco(t.get("eco"))
        need(eco["state"] == "open", "eco_not_open")
        need(bool(eco["affected"]), "eco_empty")
        for a in eco["affected"]:
            self.move(a["part"], a["rev"], "in_review")
        self.eco_to(t["eco"], "in_review")

    def _reject_eco(self, t: dict[str, Any]) -> None:
        eco = self.eco(t.get("eco"))
        need(eco["state"] == "in_review", "eco_not_in_review")
        for a in eco["affected"]:
            self.move(a["part"], a["rev"], "in_work")
        self.eco_to(t["eco"], "rejected")

    def _approve_eco(self, t: dict[str, Any]) -> None:
        eco = self.eco(t.get("eco"))
        need(eco["state"] == "in_review", "eco_not_in_review")
        d = t.get("date")
        need(is_date(d), "invalid_date")
        releasing = {a["part"] for a in eco["affected"]}
        for a in eco["affected"]:  # every check before any change: all or nothing
            old = self.released(a["part"])
            need(old is None or self.parts[a["part"]]["revisions"][old]["effective_from"] < d,
                 "effectivity_conflict")
            for ln in self.parts[a["part"]]["revisions"][a["rev"]]["bom"]:
                need(ln["child"] in releasing or self.effective_rev(ln["child"], d) is not None,
                     "child_not_released")
        for a in eco["affected"]:
            old = self.released(a["part"])
            if old is not None:
                self.move(a["part"], old, "obsolete", d)
            self.move(a["part"], a["rev"], "released", d)
        self.eco_to(t["eco"], "approved", d)

    # -- queries
    def _explode(self, t: dict[str, Any]) -> dict[str, Any]:
        self.part(t.get("part"))
        need(is_date(t.get("date")), "invalid_date")
        top = self.effective_rev(t["part"], t["date"])
        need(top is not None, "no_effective_revision")
        rows: list[dict[str, Any]] = []
        totals: dict[str, int] = {}

        def walk(p: str, r: str, level: int, mult: int) -> None:
            for ln in self.parts[p]["revisions"][r]["bom"]:
                cr = self.effective_rev(ln["child"], t["date"])
                ext = mult * ln["qty"]
                rows.append({"level": level, "find": ln["find"], "part": ln["child"], "rev": cr,
                             "qty": ln["qty"], "uom": ln["uom"], "ext_qty": ext})
                if cr is not None and self.parts[ln["child"]]["revisions"][cr]["bom"]:
                    walk(ln["child"], cr, level + 1, ext)
                else:
                    totals[ln["child"]] = totals.get(ln["child"], 0) + ext

        walk(t["part"], top, 1, 1)
        return {"part": t["part"], "rev": top, "rows": rows, "totals": totals}

    def _where_used(self, t: dict[str, Any]) -> dict[str, Any]:
        self.part(t.get("part"))
        need(is_date(t.get("date")), "invalid_date")
        need(t.get("levels") in ("single", "multi"), "invalid_levels")
        rows: list[dict[str, Any]] = []

        def up(child: str, level: int) -> None:
            found = []
            for p in self.parts:
                r = self.effective_rev(p, t["date"])
                if r is not None:
                    found += [(p, ln["find"], r, ln["qty"]) for ln in self.parts[p]["revisions"][r]["bom"]
                              if ln["child"] == child]
            for p, find, r, qty in sorted(found):
                rows.append({"level": level, "part": p, "rev": r, "find": find, "qty": qty})
                if t["levels"] == "multi":
                    up(p, level + 1)

        up(t["part"], 1)
        return {"part": t["part"], "rows": rows}


def run(d: dict[str, Any]) -> dict[str, Any]:
    pdm, journal = Pdm(), []
    for seq, t in enumerate(d["transactions"]):
        pdm.seq = seq
        reason, changes, result = pdm.apply(t)
        op = t.get("op") if isinstance(t, dict) else None
        journal.append({"seq": seq, "op": op if isinstance(op, str) else None,
                        "status": "rejected" if reason else "accepted", "reason": reason,
                        "changes": changes, "result": result})
    return {"journal": journal, "final": {"parts": pdm.parts, "ecos": pdm.ecos}}
