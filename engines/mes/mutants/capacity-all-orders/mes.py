"""A manufacturing execution core: work orders released against a product's routing, units moving through
operations (queued -> in progress -> next operation's queue, or finished goods / scrap), BOM components
consumed at operation start, every event validated and journalled, the state snapshotted after each."""
from __future__ import annotations

import copy
from typing import Any

REASONS_BY_TYPE = ("receive", "ship", "release", "start", "complete", "hold", "resume")


def is_qty(v: Any, minimum: int = 1) -> bool:
    """A JSON integer (not a boolean, not 2.0) of at least `minimum`."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= minimum


class Plant:
    def __init__(self, d: dict[str, Any]) -> None:
        self.items: list[str] = list(d["items"])
        self.capacity: dict[str, int] = dict(d["work_centers"])
        self.products: dict[str, Any] = d["products"]
        self.on_hand: dict[str, int] = {i: int(d.get("inventory", {}).get(i, 0)) for i in self.items}
        self.wos: dict[str, dict[str, Any]] = {}

    # -- helpers
    def ops(self, wo: dict[str, Any]) -> list[dict[str, Any]]:
        return self.products[wo["product"]]["routing"]

    def op_of(self, wo: dict[str, Any], op: Any) -> dict[str, Any] | None:
        return next((o for o in self.ops(wo) if is_qty(op, -2**63) and o["op"] == op), None)

    def load(self) -> dict[str, int]:
        out = {wc: 0 for wc in self.capacity}
        for wo in self.wos.values():
            for o in self.ops(wo):
                out[o["work_center"]] += wo["in_progress"][str(o["op"])]
        return out

    def snapshot(self) -> dict[str, Any]:
        return {"inventory": dict(self.on_hand), "work_orders": copy.deepcopy(self.wos), "load": self.load()}

    # -- events: each returns (reason or None, movements)
    def apply(self, ev: Any) -> tuple[str | None, list[dict[str, Any]]]:
        kind = ev.get("type") if isinstance(ev, dict) else None
        if kind not in REASONS_BY_TYPE:
            return "unknown_event_type", []
        return getattr(self, "_" + kind)(ev)

    def _receive(self, ev: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
        item, qty = ev.get("item"), ev.get("qty")
        if item not in self.on_hand:
            return "unknown_item", []
        if not is_qty(qty):
            return "invalid_quantity", []
        self.on_hand[item] += qty
        return None, [{"item": item, "qty": qty, "kind": "receipt"}]

    def _ship(self, ev: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
        item, qty = ev.get("item"), ev.get("qty")
        if item not in self.on_hand:
            return "unknown_item", []
        if not is_qty(qty):
            return "invalid_quantity", []
        if self.on_hand[item] < qty:
            return "insufficient_inventory", []
        self.on_hand[item] -= qty
        return None, [{"item": item, "qty": -qty, "kind": "shipment"}]

    def _release(self, ev: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
        wo, product, qty = ev.get("wo"), ev.get("product"), ev.get("qty")
        if not isinstance(wo, str) or not wo:
            return "invalid_work_order", []
        if wo in self.wos:
            return "duplicate_work_order", []
        if product not in self.products:
            return "unknown_product", []
        if not is_qty(qty):
            return "invalid_quantity", []
        ops = [str(o["op"]) for o in self.products[product]["routing"]]
        self.wos[wo] = {"product": product, "qty": qty, "status": "released", "hold": False,
                        "queued": {o: (qty if k == 0 else 0) for k, o in enumerate(ops)},
                        "in_progress": {o: 0 for o in ops}, "completed": 0, "scrapped": 0}
        return None, []

    def _wo_op(self, ev: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None, dict[str, Any] | None]:
        wo = self.wos.get(ev.get("wo")) if isinstance(ev.get("wo"), str) else None
        if wo is None:
            return "unknown_work_order", None, None
        if wo["hold"]:
            return "work_order_on_hold", None, None
        op = self.op_of(wo, ev.get("op"))
        if op is None:
            return "unknown_operation", None, None
        return None, wo, op

    def _start(self, ev: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
        why, wo, op = self._wo_op(ev)
        if why:
            return why, []
        assert wo is not None and op is not None
        qty, key = ev.get("qty"), str(op["op"])
        if not is_qty(qty):
            return "invalid_quantity", []
        if wo["queued"][key] < qty:
            return "insufficient_queue", []
        mine = sum(wo["in_progress"][str(o["op"])] for o in self.ops(wo) if o["work_center"] == op["work_center"])
        if mine + qty > self.capacity[op["work_center"]]:
            return "capacity_exceeded", []
        lines = [b for b in self.products[wo["product"]]["bom"] if b["op"] == op["op"]]
        if any(self.on_hand[b["item"]] < qty * b["qty"] for b in lines):
            return "insufficient_material", []
        wo["queued"][key] -= qty
        wo["in_progress"][key] += qty
        if wo["status"] == "released":
            wo["status"] = "in_process"
        moves = []
        for b in lines:
            self.on_hand[b["item"]] -= qty * b["qty"]
            moves.append({"item": b["item"], "qty": -qty * b["qty"], "kind": "consumption"})
        return None, moves

    def _complete(self, ev: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
        why, wo, op = self._wo_op(ev)
        if why:
            return why, []
        assert wo is not None and op is not None
        good, scrap, key = ev.get("good"), ev.get("scrap"), str(op["op"])
        if not is_qty(good, 0) or not is_qty(scrap, 0) or good + scrap < 1:
            return "invalid_quantity", []
        if wo["in_progress"][key] < good + scrap:
            return "insufficient_wip", []
        wo["in_progress"][key] -= good + scrap
        wo["scrapped"] += scrap
        ops = self.ops(wo)
        k = ops.index(op)
        moves = []
        if k == len(ops) - 1:
            wo["completed"] += good
            if good:
                self.on_hand[wo["product"]] += good
                moves.append({"item": wo["product"], "qty": good, "kind": "production"})
        else:
            wo["queued"][str(ops[k + 1]["op"])] += good
        if sum(wo["queued"].values()) + sum(wo["in_progress"].values()) == 0:
            wo["status"] = "completed"
        return None, moves

    def _hold(self, ev: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
        wo = self.wos.get(ev.get("wo")) if isinstance(ev.get("wo"), str) else None
        if wo is None:
            return "unknown_work_order", []
        if wo["status"] == "completed":
            return "work_order_completed", []
        if wo["hold"]:
            return "already_on_hold", []
        wo["hold"] = True
        return None, []

    def _resume(self, ev: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
        wo = self.wos.get(ev.get("wo")) if isinstance(ev.get("wo"), str) else None
        if wo is None:
            return "unknown_work_order", []
        if not wo["hold"]:
            return "not_on_hold", []
        wo["hold"] = False
        return None, []


def run(d: dict[str, Any]) -> dict[str, Any]:
    plant = Plant(d)
    journal, states = [], []
    for seq, ev in enumerate(d["events"]):
        why, moves = plant.apply(ev)
        kind = ev.get("type") if isinstance(ev, dict) and isinstance(ev.get("type"), str) else None
        journal.append({"seq": seq, "type": kind, "status": "rejected" if why else "accepted", "reason": why,
                        "movements": moves})
        states.append(plant.snapshot())
    return {"journal": journal, "states": states}
