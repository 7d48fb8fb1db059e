"""Hidden MES cases from a seed: stdin {"seed": n} -> stdout {"cases": [...]}. Each case is a plant of its own
(items, work centres and capacities, two or three products with routings whose op numbers are not in
ascending order, multi-level BOMs, opening stock) and a stream of shop-floor events: work orders driven
through their routings, receipts, shipments, holds, and events the rules reject (wrong types and names,
impossible quantities). Every case also plays the scenarios the spec's subtler rules decide (spec sections
2, 3): a hold on a completed work order, a work order scrapped to the last unit, an op given as a string,
and two work orders that together, not alone, exceed a work centre's capacity. The events are steered by
the reference's state (mes.Plant, layered beneath this directory by the check), and a draw whose
scenarios did not all come about is drawn again. Each case carries its expected output (expect.py)."""
from __future__ import annotations

import json
import random
import sys
from typing import Any

from expect import expected
from mes import Plant

RAW = ["STEEL", "BOLT", "PAINT", "WIRE", "RESIN", "GLASS", "SCREW", "FOAM", "LABEL", "CABLE"]
MADE = ["BRACKET", "FRAME", "HOUSING", "LID", "PANEL", "ROTOR", "CASING", "MODULE"]
CENTRES = ["CUT", "WELD", "ASSY", "PAINTSHOP", "MOLD", "DEBURR", "QC", "PRESS"]
SCENARIOS = ("hold_completed", "all_scrapped", "op_string", "capacity_shared")


def plant(rng: random.Random) -> dict[str, Any]:
    """Master data: products in build order, each later one may consume an earlier one (multi-level)."""
    raw = rng.sample(RAW, rng.randint(3, 5))
    made = rng.sample(MADE, rng.randint(2, 3))
    centres = {wc: rng.randint(3, 9) for wc in rng.sample(CENTRES, rng.randint(3, 4))}
    products = {}
    for k, p in enumerate(made):
        ops = rng.sample(range(5, 100, 5), rng.randint(2, 3))  # distinct, in no particular order
        routing = [{"op": op, "work_center": rng.choice(list(centres))} for op in ops]
        bom, used = [], set()
        for _ in range(rng.randint(2, 4)):
            item = rng.choice(raw + made[:k]) if k and rng.random() < 0.4 else rng.choice(raw)
            op = rng.choice(ops)
            if (item, op) not in used:
                used.add((item, op))
                bom.append({"item": item, "qty": rng.randint(1, 4), "op": op})
        products[p] = {"routing": routing, "bom": bom}
    items = raw + made
    rng.shuffle(items)
    inventory = {i: rng.randint(0, 40) for i in raw if rng.random() < 0.8}
    return {"items": items, "work_centers": centres, "products": products, "inventory": inventory, "events": []}


class Stream:
    """The events drawn so far, each applied to the reference plant as it is added."""

    def __init__(self, rng: random.Random, case: dict[str, Any]) -> None:
        self.rng, self.case, self.plant = rng, case, Plant(case)
        self.seen: set[str] = set()
        self.n = 0

    def add(self, ev: Any) -> str | None:
        self.case["events"].append(ev)
        why, _ = self.plant.apply(ev)
        return why

    def new_wo(self, product: str | None = None, qty: int | None = None) -> str | None:
        self.n += 1
        wo = f"WO-{self.rng.randint(100, 999)}-{self.n}"
        p = product or self.rng.choice(sorted(self.plant.products))
        ok = self.add({"type": "release", "wo": wo, "product": p, "qty": qty or self.rng.randint(1, 6)}) is None
        return wo if ok else None

    def stock_for(self, wo: str, op: dict[str, Any], qty: int) -> None:
        """Receipts that make a start of qty units at op possible (materials only)."""
        for b in self.plant.products[self.plant.wos[wo]["product"]]["bom"]:
            short = qty * b["qty"] - self.plant.on_hand[b["item"]]
            if b["op"] == op["op"] and short > 0:
                self.add({"type": "receive", "item": b["item"], "qty": short + self.rng.randint(0, 5)})

    def step(self, wo: str, scrap_all: bool = False) -> bool:
        """One start or completion that moves the work order on; False when none is possible."""
        w, p = self.plant.wos[wo], self.plant
        for o in p.ops(w):
            key = str(o["op"])
            if w["in_progress"][key]:
                n = w["in_progress"][key]
                scrap = n if scrap_all else self.rng.randint(0, min(1, n))
                ev = {"type": "complete", "wo": wo, "op": o["op"], "good": n - scrap, "scrap": scrap}
                return self.add(ev) is None
        for o in p.ops(w):
            key = str(o["op"])
            room = p.capacity[o["work_center"]] - p.load()[o["work_center"]]
            if w["queued"][key] and room > 0:
                qty = self.rng.randint(1, min(room, w["queued"][key]))
                if self.rng.random() < 0.85:  # else it may lack material (insufficient_material)
                    self.stock_for(wo, o, qty)
                return self.add({"type": "start", "wo": wo, "op": o["op"], "qty": qty}) is None
        return False

    def finish(self, wo: str, scrap_all: bool = False) -> None:
        for _ in range(40):
            if self.plant.wos[wo]["status"] == "completed" or not self.step(wo, scrap_all):
                return

    # -- the scenarios the subtler rules decide
    def hold_completed(self) -> None:
        wo = self.new_wo(qty=self.rng.randint(1, 3))
        if wo:
            self.finish(wo)
            done = self.plant.wos[wo]["status"] == "completed"
            if done and self.add({"type": "hold", "wo": wo}) == "work_order_completed":
                self.seen.add("hold_completed")

    def all_scrapped(self) -> None:
        wo = self.new_wo(qty=self.rng.randint(1, 4))
        if wo:
            self.finish(wo, scrap_all=True)
            w = self.plant.wos[wo]
            if w["status"] == "completed" and w["completed"] == 0:
                self.seen.add("all_scrapped")
                self.add({"type": self.rng.choice(["hold", "resume"]), "wo": wo})

    def op_string(self) -> None:
        wo = self.new_wo()
        if wo:
            op = self.plant.ops(self.plant.wos[wo])[0]
            ev = {"type": "start", "wo": wo, "op": str(op["op"]), "qty": 1}
            if self.rng.random() < 0.5:
                self.stock_for(wo, op, 1)
            else:
                ev = {"type": "complete", "wo": wo, "op": str(op["op"]), "good": 1, "scrap": 0}
            if self.add(ev) == "unknown_operation":
                self.seen.add("op_string")

    def capacity_shared(self) -> None:
        """Two work orders at one work centre: the second start fits its own order's load, not the centre's."""
        p = self.plant
        firsts = [(prod, spec["routing"][0]) for prod, spec in sorted(p.products.items())]
        prod, op = self.rng.choice(firsts)
        wc = op["work_center"]
        room = p.capacity[wc] - p.load()[wc]
        if room < 2:
            return
        a = self.rng.randint(1, room - 1)
        b = self.rng.randint(room - a + 1, min(p.capacity[wc], room + 3))
        wa, wb = self.new_wo(prod, a), self.new_wo(prod, b)
        if wa and wb:
            self.stock_for(wa, op, a + b)
            if self.add({"type": "start", "wo": wa, "op": op["op"], "qty": a}) is None and \
                    self.add({"type": "start", "wo": wb, "op": op["op"], "qty": b}) == "capacity_exceeded":
                self.seen.add("capacity_shared")

    # -- background traffic
    def noise(self) -> None:
        """One event of any kind, often one the rules reject."""
        rng, p = self.rng, self.plant
        wos = sorted(p.wos)
        pick = rng.random()
        if pick < 0.3 and wos:
            self.step(rng.choice(wos))
        elif pick < 0.4:
            self.new_wo()
        elif pick < 0.5:
            self.add({"type": "receive", "item": rng.choice(p.items), "qty": rng.randint(1, 30)})
        elif pick < 0.6:
            item = rng.choice(p.items)
            self.add({"type": "ship", "item": item, "qty": max(1, p.on_hand[item] + rng.randint(-3, 2))})
        elif pick < 0.7 and wos:
            self.add({"type": rng.choice(["hold", "resume"]), "wo": rng.choice(wos)})
        else:
            self.add(self.invalid(wos))

    def invalid(self, wos: list[str]) -> Any:
        """An event with something wrong about it (spec sections 2, 3: types, names, quantities)."""
        rng, p = self.rng, self.plant
        wo = rng.choice(wos) if wos else "WO-1"
        op = rng.choice(p.ops(p.wos[wo]))["op"] if wos else 10
        bad_qty = rng.choice([0, -rng.randint(1, 5), True, 2.0, "3", None])
        return rng.choice([
            {"type": "receive", "item": rng.choice(p.items).lower(), "qty": 5},
            {"type": "receive", "item": rng.choice(p.items), "qty": bad_qty},
            {"type": "ship", "item": rng.choice(p.items)},
            {"type": "release", "wo": "", "product": rng.choice(sorted(p.products)), "qty": 2},
            {"type": "release", "wo": wo, "product": rng.choice(sorted(p.products)), "qty": 1},
            {"type": "release", "wo": f"WO-X{rng.randint(1, 99)}", "product": rng.choice(p.items[:2]) + "-X", "qty": 1},
            {"type": "release", "wo": f"WO-Y{rng.randint(1, 99)}", "product": rng.choice(sorted(p.products)),
             "qty": bad_qty},
            {"type": "start", "wo": wo, "op": op + rng.choice([1, 1000]), "qty": 1},
            {"type": "start", "wo": wo, "op": op, "qty": bad_qty},
            {"type": "start", "wo": wo, "op": op, "qty": rng.randint(20, 60)},
            {"type": "complete", "wo": wo, "op": op, "good": 0, "scrap": 0},
            {"type": "complete", "wo": wo, "op": op, "good": rng.randint(10, 30), "scrap": 0},
            {"type": "start", "op": op, "qty": 1},
            {"type": "resume", "wo": f"{wo}-NONE"},
            {"type": rng.choice(["Receive", "scrap", "move", 7])},
            rng.choice([[], "release", 42]),
        ])


def case(rng: random.Random) -> dict[str, Any]:
    """One plant and its events, drawn again until every scenario came about."""
    while True:
        s = Stream(rng, plant(rng))
        todo = list(SCENARIOS)
        rng.shuffle(todo)
        for _ in range(rng.randint(3, 8)):
            s.noise()
        for name in todo:
            getattr(s, name)()
            for _ in range(rng.randint(3, 10)):
                s.noise()
        if s.seen == set(SCENARIOS) and len(s.case["events"]) <= 120:
            return s.case


def cases(seed: int, n: int = 5) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    drawn = [case(rng) for _ in range(n)]
    return [{"id": f"g{i + 1}", "input": c, "expected": expected(c)} for i, c in enumerate(drawn)]


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))
