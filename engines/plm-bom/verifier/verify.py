"""Hidden verifier of the PLM/BOM core. transactions_exact, queries_exact and final_exact compare the
candidate's journal (status, reason, changes), its query answers and its final state with the reference's.
records_consistent and answers_consistent never look at the expected output: they fold the changes the
candidate itself journalled into a product database and demand that every change was legal when made (a
lifecycle transition from the state the revision was in, BOM lines only on in-work revisions, no cycle, units
of measure of the child, effectivity ranges that do not overlap), that a rejected transaction changed nothing
and an ECO moved all of its affected revisions or none, that the final state is that fold, and that each query
answer (explosion rows, extended quantities, leaf totals, where-used rows) is what the candidate's own BOM lines
and effectivity gave at that point of the script."""
import datetime
import json
import re
import sys
from typing import Any

UOMS = ("ea", "kg", "m", "l")
LEGAL = {("in_work", "in_review"), ("in_review", "in_work"), ("in_review", "released"), ("released", "obsolete")}
ECO_LEGAL = {(None, "open"), ("open", "in_review"), ("in_review", "rejected"), ("in_review", "approved")}
QUERIES = ("explode", "where_used")
CHECKS = ("transactions_exact", "queries_exact", "final_exact", "records_consistent", "answers_consistent")


class Bad(Exception):
    """A journalled change that could not have been made."""


def same(a: Any, b: Any) -> bool:
    """Deep equality with JSON types kept apart (true is not 1, 2.0 is not 2)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 1


def is_date(v: Any) -> bool:
    if not isinstance(v, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", v):
        return False
    try:
        datetime.date.fromisoformat(v)
    except ValueError:
        return False
    return True


def ensure(ok: bool, why: str) -> None:
    if not ok:
        raise Bad(why)


class Fold:
    """The product database the candidate's own change records build, each change checked as it lands."""

    def __init__(self) -> None:
        self.parts: dict = {}
        self.ecos: dict = {}

    def rev(self, c: dict) -> dict:
        p = self.parts.get(c.get("part"))
        ensure(isinstance(c.get("part"), str) and p is not None and c.get("rev") in p["revisions"],
               "a change names a revision that does not exist")
        return p["revisions"][c["rev"]]

    def effective(self, p: str, date: str) -> Any:
        return next((r for r, v in self.parts[p]["revisions"].items() if v["state"] in ("released", "obsolete")
                     and v["effective_from"] <= date and (v["effective_to"] is None or date < v["effective_to"])),
                    None)

    def reaches(self, start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            p = todo.pop()
            if p == goal:
                return True
            if p not in seen:
                seen.add(p)
                todo += [ln["child"] for v in self.parts[p]["revisions"].values() for ln in v["bom"]]
        return False

    def change(self, seq: int, c: Any) -> None:
        ensure(isinstance(c, dict), "a change is not an object")
        getattr(self, "_" + str(c.get("change")), self._unknown)(seq, c)

    def _unknown(self, seq: int, c: dict) -> None:
        raise Bad(f"unknown change {c.get('change')!r}")

    def _part(self, seq: int, c: dict) -> None:
        ensure(isinstance(c.get("part"), str) and c["part"] and c["part"] not in self.parts, "part made twice")
        ensure(c.get("uom") in UOMS, "part with an invalid unit of measure")
        self.parts[c["part"]] = {"uom": c["uom"], "revisions": {}}

    def _revision(self, seq: int, c: dict) -> None:
        p = self.parts.get(c.get("part")) if isinstance(c.get("part"), str) else None
        ensure(p is not None and isinstance(c.get("rev"), str) and c["rev"] not in p["revisions"],
               "revision of an unknown part, or made twice")
        revs = list(p["revisions"].values())
        ensure(not revs or revs[-1]["state"] == "released", "a revision made while the latest is not released")
        p["revisions"][c["rev"]] = {"state": "in_work", "effective_from": None, "effective_to": None, "bom": [],
                                    "history": [{"seq": seq, "state": "in_work"}]}

    def _bom_add(self, seq: int, c: dict) -> None:
        v = self.rev(c)
        ensure(v["state"] == "in_work", "a BOM line added to a revision that is not in work")
        ensure(is_int(c.get("find")) and all(ln["find"] != c["find"] for ln in v["bom"]), "bad or repeated find")
        child = c.get("child")
        ensure(isinstance(child, str) and child in self.parts, "a line to an unknown part")
        ensure(is_int(c.get("qty")) and c.get("uom") == self.parts[child]["uom"], "bad quantity or unit")
        ensure(not self.reaches(child, c["part"]), "a line that closes a cycle")
        v["bom"].append({"find": c["find"], "child": child, "qty": c["qty"], "uom": c["uom"]})
        v["bom"].sort(key=lambda ln: ln["find"])

    def _bom_remove(self, seq: int, c: dict) -> None:
        v = self.rev(c)
        ensure(v["state"] == "in_work", "a BOM line removed from a revision that is not in work")
        k = [i for i, ln in enumerate(v["bom"]) if same(ln["find"], c.get("find"))]
        ensure(bool(k), "a removed line that is not there")
        del v["bom"][k[0]]

    def _state(self, seq: int, c: dict) -> None:
        v = self.rev(c)
        ensure(same(c.get("from"), v["state"]) and (v["state"], c.get("to")) in LEGAL,
               f"illegal lifecycle transition {v['state']} -> {c.get('to')}")
        d = c.get("date")
        if c["to"] == "released":
            ensure(is_date(d), "a release without a date")
            v["effective_from"] = d
        elif c["to"] == "obsolete":
            ensure(is_date(d) and d > v["effective_from"], "superseded on or before its effective date")
            v["effective_to"] = d
        else:
            ensure(d is None, "a date on a transition that sets no effectivity")
        v["state"] = c["to"]
        v["history"].append({"seq": seq, "state": c["to"]})

    def _eco(self, seq: int, c: dict) -> None:
        e = c.get("eco")
        ensure(isinstance(e, str) and e != "", "an ECO without a name")
        old = self.ecos[e]["state"] if e in self.ecos else None
        ensure(same(c.get("from"), old) and (old, c.get("to")) in ECO_LEGAL,
               f"illegal ECO transition {old} -> {c.get('to')}")
        ensure(is_date(c.get("date")) if c["to"] == "approved" else c.get("date") is None, "bad ECO date")
        if old is None:
            self.ecos[e] = {"state": "open", "affected": [], "date": None}
        self.ecos[e]["state"], self.ecos[e]["date"] = c["to"], c.get("date")

    def _affected(self, seq: int, c: dict) -> None:
        eco = self.ecos.get(c.get("eco")) if isinstance(c.get("eco"), str) else None
        ensure(eco is not None and eco["state"] == "open", "an item added to an ECO that is not open")
        ensure(self.rev(c)["state"] == "in_work", "an affected revision not in work")
        item = {"part": c["part"], "rev": c["rev"]}
        ensure(all(item not in x["affected"] for x in self.ecos.values() if x["state"] in ("open", "in_review")),
               "a revision on two open ECOs")
        eco["affected"].append(item)

    def settled(self, t: dict) -> None:
        """After an accepted transaction: ECOs moved whole, one released revision per part, ranges disjoint."""
        op, e = t.get("op"), t.get("eco")
        want = {"submit_eco": ("in_review", "in_review"), "reject_eco": ("rejected", "in_work"),
                "approve_eco": ("approved", "released")}.get(op)
        if want:
            eco = self.ecos.get(e) if isinstance(e, str) else None
            ensure(eco is not None and eco["state"] == want[0], f"{op} did not move the ECO")
            for a in eco["affected"]:
                v = self.parts[a["part"]]["revisions"][a["rev"]]
                ensure(v["state"] == want[1], f"{op} left {a['part']} {a['rev']} behind (not all or nothing)")
                ensure(op != "approve_eco" or v["effective_from"] == eco["date"] == t.get("date"),
                       "a released revision not effective from the ECO's date")
        for name, p in self.parts.items():
            ranges = sorted((v["effective_from"], v["effective_to"]) for v in p["revisions"].values()
                            if v["state"] in ("released", "obsolete"))
            ensure(sum(v["state"] == "released" for v in p["revisions"].values()) <= 1, f"{name}: two released")
            ensure(all(a[1] is not None and a[1] <= b[0] for a, b in zip(ranges, ranges[1:])),
                   f"{name}: overlapping effectivity")

    # -- the queries, answered from the fold
    def explode(self, part: str, date: str) -> Any:
        top = self.effective(part, date)
        if top is None:
            return None
        rows, totals = [], {}

        def walk(p: str, r: str, level: int, mult: int) -> None:
            for ln in self.parts[p]["revisions"][r]["bom"]:
                cr = self.effective(ln["child"], date)
                ext = mult * ln["qty"]
                rows.append({"level": level, "find": ln["find"], "part": ln["child"], "rev": cr, "qty": ln["qty"],
                             "uom": ln["uom"], "ext_qty": ext})
                if cr is not None and self.parts[ln["child"]]["revisions"][cr]["bom"]:
                    walk(ln["child"], cr, level + 1, ext)
                else:
                    totals[ln["child"]] = totals.get(ln["child"], 0) + ext

        walk(part, top, 1, 1)
        return {"part": part, "rev": top, "rows": rows, "totals": totals}

    def where_used(self, part: str, date: str, multi: bool) -> Any:
        rows = []

        def up(child: str, level: int) -> None:
            found = []
            for p in self.parts:
                r = self.effective(p, date)
                if r is not None:
                    found += [(p, ln["find"], r, ln["qty"]) for ln in self.parts[p]["revisions"][r]["bom"]
                              if ln["child"] == child]
            for p, find, r, qty in sorted(found):
                rows.append({"level": level, "part": p, "rev": r, "find": find, "qty": qty})
                if multi:
                    up(p, level + 1)

        up(part, 1)
        return {"part": part, "rows": rows}

    def answer(self, t: dict) -> Any:
        if t.get("part") not in self.parts or not is_date(t.get("date")):
            return None
        if t["op"] == "explode":
            return self.explode(t["part"], t["date"])
        return self.where_used(t["part"], t["date"], t.get("levels") == "multi")


def exact(got: list, want: list, keys: tuple, which: list) -> tuple[int, str]:
    """Journal entries (at the indices `which`) whose `keys` differ from the reference's."""
    bad = [i for i in which if i >= len(got) or not isinstance(got[i], dict)
           or not all(same(got[i].get(k), want[i][k]) for k in keys)]
    return len(bad), (f"journal[{bad[0]}] differs from the reference" if bad else "equal entry for entry")


def consistent(inp: dict, journal: list, final: Any) -> tuple[int, int, str, str]:
    """(records violations, answer mismatches, details) from the candidate's own journal alone."""
    txs, fold, wrong = inp["transactions"], Fold(), []
    for i, t in enumerate(txs):
        e = journal[i] if i < len(journal) and isinstance(journal[i], dict) else {}
        changes, status = e.get("changes"), e.get("status")
        try:
            ensure(status in ("accepted", "rejected") and isinstance(changes, list), "no status or changes")
            ensure(status == "accepted" or (changes == [] and e.get("result") is None),
                   "a rejected transaction changed something")
            query = isinstance(t, dict) and t.get("op") in QUERIES
            ensure(not query or changes == [], "a query changed something")
            for c in changes:
                fold.change(i, c)
            if status == "accepted" and isinstance(t, dict):
                fold.settled(t)
        except Bad as b:  # the answers from here on have no consistent records to follow from: unverified
            rest = sum(isinstance(t, dict) and t.get("op") in QUERIES for t in txs[i:])
            return len(txs) - i, len(wrong) + rest, f"transaction {i}: {b}", f"records broken at transaction {i}"
        if query and status == "accepted" and not same(e.get("result"), fold.answer(t)):
            wrong.append(i)
    if not same(final, {"parts": fold.parts, "ecos": fold.ecos}):
        return 1, len(wrong), "the final state is not what the journalled changes make", ""
    shown = f"answer {wrong[0]} is not what the candidate's own BOM and effectivity give" if wrong else \
        "every answer follows from the candidate's own records"
    return 0, len(wrong), "every change legal when made, ECOs all or nothing, final state = the journal's fold", shown


def grade(d: dict) -> list:
    out = d.get("output") if isinstance(d.get("output"), dict) else {}
    exp, inp = d["expected"], d["input"]
    journal = out.get("journal") if isinstance(out.get("journal"), list) else []
    n = len(exp["journal"])
    extra = max(0, len(journal) - n)
    queries = [i for i, t in enumerate(inp["transactions"]) if isinstance(t, dict) and t.get("op") in QUERIES]
    tbad, td = exact(journal, exp["journal"], ("seq", "op", "status", "reason", "changes"), list(range(n)))
    qbad, qd = exact(journal, exp["journal"], ("result",), queries)
    fbad = 0 if same(out.get("final"), exp["final"]) else 1
    if len(journal) != n:
        rbad, abad, rd, ad = n or 1, len(queries), "the journal needs one entry per transaction", "no journal"
    else:
        rbad, abad, rd, ad = consistent(inp, journal, out.get("final"))
    return [{"check": "transactions_exact", "measured": tbad + extra, "pass": tbad + extra == 0, "detail": td},
            {"check": "queries_exact", "measured": qbad, "pass": qbad == 0, "detail": qd},
            {"check": "final_exact", "measured": fbad, "pass": fbad == 0,
             "detail": "final state equal" if not fbad else "final state differs from the reference"},
            {"check": "records_consistent", "measured": rbad, "pass": rbad == 0, "detail": rd},
            {"check": "answers_consistent", "measured": abad, "pass": abad == 0, "detail": ad or rd}]


def main() -> None:
    d = json.load(sys.stdin)
    try:
        recs = grade(d)
    except Exception as e:  # a malformed output is a failure, never a crash
        recs = [{"check": c, "measured": None, "pass": False, "detail": f"malformed output: {type(e).__name__}"}
                for c in CHECKS]
    print(json.dumps({"checks": recs}))


main()
