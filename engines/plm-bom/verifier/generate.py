"""Hidden PLM/BOM cases from a seed: stdin {"seed": n} -> stdout {"cases": [...]}. Each case is a product
structure of its own (leaf components in several units of measure, two or three subassemblies, a top
assembly; some parts start at a later revision letter) built, released and changed by a stream of
transactions: BOM lines added out of find-number order, engineering change orders submitted, rejected and
approved on dates, revisions superseded, and queries (explosions and where-used, single and multi-level) on
dates before, at and after each change, with transactions the rules reject throughout. Every case plays the
scenarios the spec's subtler rules decide: an indirect BOM cycle, an ECO whose children are released by the
same ECO, an ECO that fails on a later affected item (all or nothing), a revision letter that skips I, O, Q, S,
X or Z, an explosion on a supersession date. The transactions are steered by the reference's state (plm.Pdm,
layered beneath this directory by the check); a draw whose scenarios did not all come about is drawn again.
Each case carries its expected output (expect.py)."""
from __future__ import annotations

import datetime
import json
import random
import sys
from typing import Any

from expect import expected
from plm import REVS, Pdm

SCENARIOS = ("cycle", "same_eco", "partial", "letters", "boundary", "find_order")
LATE = ["H", "N", "P", "R", "W", "Y"]  # start revisions whose successor skips a letter


def day(d: datetime.date, n: int) -> str:
    return (d + datetime.timedelta(days=n)).isoformat()


class Stream:
    """The transactions drawn so far, each applied to the reference as it is added."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.pdm, self.tx = rng, Pdm(), []
        self.seen: set[str] = set()
        self.n_eco = 0

    def add(self, t: Any) -> tuple[str | None, Any]:
        self.pdm.seq = len(self.tx)
        self.tx.append(t)
        reason, _, result = self.pdm.apply(t)
        return reason, result

    def latest(self, p: str) -> str:
        return list(self.pdm.parts[p]["revisions"])[-1]

    def lines(self, parent: str, children: list[tuple[str, int]]) -> None:
        """BOM lines on parent's latest revision, find numbers drawn and added in a shuffled order."""
        finds = self.rng.sample(range(10, 200, 10), len(children))
        order = list(zip(finds, children))
        self.rng.shuffle(order)
        for find, (child, qty) in order:
            before = [ln["find"] for ln in self.pdm.parts[parent]["revisions"][self.latest(parent)]["bom"]]
            uom = self.pdm.parts[child]["uom"]
            ok = self.add({"op": "add_line", "part": parent, "rev": self.latest(parent), "find": find,
                           "child": child, "qty": qty, "uom": uom})[0] is None
            if ok and before and find < max(before):
                self.seen.add("find_order")

    def eco(self, items: list[str], date: str | None) -> tuple[str, str | None]:
        """An ECO on the latest revisions of items, submitted and (date given) approved: (eco, reason)."""
        self.n_eco += 1
        e = f"ECO-{self.rng.randint(1000, 9999)}{self.n_eco}"
        self.add({"op": "create_eco", "eco": e})
        for p in items:
            self.add({"op": "add_affected", "eco": e, "part": p, "rev": self.latest(p)})
        self.add({"op": "submit_eco", "eco": e})
        if date is None:
            return e, None
        return e, self.add({"op": "approve_eco", "eco": e, "date": date})[0]

    def query(self, part: str, date: str) -> None:
        rng = self.rng
        if rng.random() < 0.5:
            self.add({"op": "explode", "part": part, "date": date})
        else:
            self.add({"op": "where_used", "part": part, "date": date, "levels": rng.choice(["single", "multi"])})

    def noise(self, parts: list[str], dates: list[str]) -> None:
        """A transaction with something wrong about it (or a harmless query)."""
        rng, p = self.rng, self.rng.choice(parts)
        rev = self.latest(p)
        revise = p if self.pdm.parts[p]["revisions"][rev]["state"] != "released" else p.lower()
        ecos = sorted(self.pdm.ecos) or ["ECO-0"]
        self.add(rng.choice([
            {"op": "create_part", "part": p, "uom": "ea"},
            {"op": "create_part", "part": f"{p}-X", "uom": rng.choice(["pcs", "EA", None])},
            {"op": "create_part", "part": f"{p}-Y", "uom": "ea", "rev": rng.choice(["I", "O", "a", "", 1])},
            {"op": "create_part", "part": rng.choice(["", 7, None]), "uom": "ea"},
            {"op": "revise", "part": revise},
            {"op": "add_line", "part": p, "rev": rev, "find": rng.choice([0, -10, 2.0, "10", True]),
             "child": rng.choice(parts), "qty": 1, "uom": "ea"},
            {"op": "add_line", "part": p, "rev": rev, "find": 990, "child": p, "qty": 1,
             "uom": self.pdm.parts[p]["uom"]},
            {"op": "add_line", "part": p, "rev": rev, "find": 980, "child": rng.choice(parts),
             "qty": rng.choice([0, -1, 1.5, "2", None]), "uom": "ea"},
            {"op": "remove_line", "part": p, "rev": rev, "find": rng.choice([5, 15, 999])},
            {"op": "remove_line", "part": p, "rev": "ZZ", "find": 10},
            {"op": "add_affected", "eco": rng.choice(ecos), "part": p, "rev": rev},
            {"op": "submit_eco", "eco": rng.choice(ecos)},
            {"op": "reject_eco", "eco": rng.choice(ecos)},
            {"op": "approve_eco", "eco": rng.choice(ecos), "date": rng.choice(dates)},
            {"op": "approve_eco", "eco": rng.choice(ecos), "date": rng.choice(["2024-02-30", "2024/01/05", 20240105])},
            {"op": "create_eco", "eco": rng.choice(ecos + [""])},
            {"op": "explode", "part": p, "date": rng.choice(dates)},
            {"op": "where_used", "part": p, "date": rng.choice(dates),
             "levels": rng.choice(["single", "multi", "all"])},
            {"op": "explode", "part": p, "date": "2024-13-01"},
            {"op": rng.choice(["obsolete", "Explode", 3, None]), "part": p},
            rng.choice([[], "explode", 42]),
        ]))


def structure(rng: random.Random) -> tuple[list[str], list[str], str]:
    """Names: leaves, subassemblies (index order = build order), top."""
    nums = rng.sample(range(1000, 9999), 12)
    leaves = [f"CMP-{nums[i]}" for i in range(rng.randint(4, 6))]
    subs = [f"SUB-{nums[6 + i]}" for i in range(rng.randint(2, 3))]
    return leaves, subs, f"ASM-{nums[10]}"


def case(rng: random.Random) -> dict[str, Any]:
    """One product structure's life, drawn again until every scenario came about."""
    while True:
        s = Stream(rng)
        leaves, subs, top = structure(rng)
        parts = leaves + subs + [top]
        d0 = datetime.date(2023, 1, 1) + datetime.timedelta(days=rng.randint(0, 900))
        d1, d2, d3 = day(d0, 0), day(d0, rng.randint(5, 40)), day(d0, rng.randint(45, 90))
        dates = [day(d0, -rng.randint(1, 9)), d1, d2, d3, day(d0, 120)]
        late = leaves[0]
        for p in rng.sample(parts, len(parts)):
            t: dict[str, Any] = {"op": "create_part", "part": p,
                                 "uom": rng.choice(["ea", "kg", "m", "l"]) if p in leaves else "ea"}
            if p == late or rng.random() < 0.2:
                t["rev"] = rng.choice(LATE)
            s.add(t)
        # subassembly i uses sub i-1 (a chain: top -> last sub -> ... -> first sub) and two or three leaves
        for i, sub in enumerate(subs):
            kids = rng.sample(leaves[1:], rng.randint(2, 3)) + ([subs[i - 1]] if i else [])
            s.lines(sub, [(k, rng.randint(1, 5)) for k in kids])
        s.lines(top, [(subs[-1], rng.randint(1, 3)), (late, rng.randint(1, 4))] +
                [(sub, rng.randint(1, 2)) for sub in subs[1:-1] if rng.random() < 0.5])
        if s.add({"op": "add_line", "part": subs[0], "rev": s.latest(subs[0]), "find": 500, "child": top,
                  "qty": 1, "uom": "ea"})[0] == "cycle":
            s.seen.add("cycle")  # top -> ... -> subs[0] has no direct line
        for _ in range(rng.randint(2, 5)):
            s.noise(parts, dates)
        s.query(top, d1)
        # ECO 1: the leaves but `late`, with the first subassembly whose children they are
        first = rng.sample(leaves[1:], len(leaves) - 1) + [subs[0]]
        rng.shuffle(first)
        if s.eco(first, d1)[1] is None:
            s.seen.add("same_eco")
        # ECO 2: `late` then the top, whose subassembly is not released: fails on the second item
        e2, why = s.eco([late, top], d2)
        if why == "child_not_released":
            s.seen.add("partial")
        s.query(late, d2)
        s.add({"op": "reject_eco", "eco": e2})
        rest = subs[1:] + [top, late]
        rng.shuffle(rest)
        s.eco(rest, d2)
        for _ in range(rng.randint(2, 5)):
            s.noise(parts, dates)
        s.add({"op": "explode", "part": top, "date": d2})
        # change: `late` and the first subassembly revised (one line dropped, one added, one requantified)
        for p in (late, subs[0]):
            s.add({"op": "revise", "part": p})
        new = s.latest(late)
        if len(new) == 2 or (new != REVS[0] and REVS[REVS.index(new) - 1] != chr(ord(new) - 1)):
            s.seen.add("letters")  # the letter before it in the alphabet is one never used (or it is AA)
        bom = s.pdm.parts[subs[0]]["revisions"][s.latest(subs[0])]["bom"]
        drop, requantify = rng.sample(bom, 2)
        s.add({"op": "remove_line", "part": subs[0], "rev": s.latest(subs[0]), "find": drop["find"]})
        s.add({"op": "remove_line", "part": subs[0], "rev": s.latest(subs[0]), "find": requantify["find"]})
        s.add({"op": "add_line", "part": subs[0], "rev": s.latest(subs[0]), "find": requantify["find"],
               "child": requantify["child"], "qty": requantify["qty"] + rng.randint(1, 3), "uom": requantify["uom"]})
        s.lines(subs[0], [(late, rng.randint(2, 6))])
        for _ in range(rng.randint(1, 4)):
            s.noise(parts, dates)
        e4, _ = s.eco([subs[0], late], None)
        s.add({"op": "approve_eco", "eco": e4, "date": rng.choice([d1, d2])})  # effectivity_conflict
        s.add({"op": "approve_eco", "eco": e4, "date": d3})
        for date in (day(d0, rng.randint(45, 90) - 100), d3, dates[-1]):
            s.query(rng.choice(parts), date)
        if s.add({"op": "explode", "part": top, "date": d3})[0] is None:
            s.seen.add("boundary")
        s.add({"op": "explode", "part": top, "date": day(datetime.date.fromisoformat(d3), -1)})
        s.add({"op": "where_used", "part": rng.choice(leaves[1:]), "date": d3, "levels": "multi"})
        s.add({"op": "revise", "part": subs[-1]})  # left in work: not effective, not in where-used
        s.lines(subs[-1], [(late, 1)])
        s.add({"op": "where_used", "part": late, "date": dates[-1], "levels": rng.choice(["single", "multi"])})
        if s.seen == set(SCENARIOS) and len(s.tx) <= 150:
            return {"transactions": s.tx}


def cases(seed: int, n: int = 7) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    drawn = [case(rng) for _ in range(n)]
    return [{"id": f"g{i + 1}", "input": c, "expected": expected(c)} for i, c in enumerate(drawn)]


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))
