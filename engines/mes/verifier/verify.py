"""Hidden verifier of the MES core. journal_exact and state_exact compare the candidate's journal and
per-event states with the reference's, entry for entry. conservation never looks at the expected output: it
replays the events the candidate itself accepted (from the input and the candidate's own movements) and
demands its states follow — inventory = previous + its movements, movements = BOM x started units, produced =
good units finished, work-order units conserved, nothing negative, no work centre over capacity."""
import copy
import json
import sys
from typing import Any


def same(a: Any, b: Any) -> bool:
    """Deep equality with JSON types kept apart (true is not 1, 2.0 is not 2)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def compare(got: Any, want: list, what: str) -> tuple[int, str]:
    """Entries of `got` that differ from `want` (missing and extra entries count)."""
    if not isinstance(got, list):
        return len(want) or 1, f"no {what} list"
    bad = [i for i in range(len(want)) if i >= len(got) or not same(got[i], want[i])]
    extra = max(0, len(got) - len(want))
    first = f"{what}[{bad[0]}] differs from the reference" if bad else ""
    first = first or (f"{extra} extra {what} entries" if extra else f"{what} equal entry for entry")
    return len(bad) + extra, first


def is_qty(v: Any, minimum: int = 1) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= minimum


class Replay:
    """The plant as the candidate's accepted events make it; no validation, only the effects."""

    def __init__(self, d: dict) -> None:
        self.d = d
        self.inv = {i: int(d.get("inventory", {}).get(i, 0)) for i in d["items"]}
        self.wos: dict = {}

    def load(self) -> dict:
        out = {wc: 0 for wc in self.d["work_centers"]}
        for wo in self.wos.values():
            for o in self.d["products"][wo["product"]]["routing"]:
                out[o["work_center"]] += wo["in_progress"][str(o["op"])]
        return out

    def state(self) -> dict:
        return {"inventory": dict(self.inv), "work_orders": copy.deepcopy(self.wos), "load": self.load()}

    def effect(self, ev: dict) -> list:
        """Apply an accepted event; return the movements it implies. Raises ValueError where it cannot apply."""
        t = ev.get("type")
        if t in ("receive", "ship"):
            if ev.get("item") not in self.inv or not is_qty(ev.get("qty")):
                raise ValueError(f"accepted {t} of an unknown item or a bad quantity")
            q = ev["qty"] if t == "receive" else -ev["qty"]
            self.inv[ev["item"]] += q
            return [{"item": ev["item"], "qty": q, "kind": "receipt" if t == "receive" else "shipment"}]
        if t == "release":
            wo, p, q = ev.get("wo"), ev.get("product"), ev.get("qty")
            if not isinstance(wo, str) or not wo or wo in self.wos or p not in self.d["products"] or not is_qty(q):
                raise ValueError("accepted a release that cannot be made")
            ops = [str(o["op"]) for o in self.d["products"][p]["routing"]]
            self.wos[wo] = {"product": p, "qty": q, "status": "released", "hold": False,
                            "queued": {o: (q if k == 0 else 0) for k, o in enumerate(ops)},
                            "in_progress": {o: 0 for o in ops}, "completed": 0, "scrapped": 0}
            return []
        wo = self.wos.get(ev.get("wo")) if isinstance(ev.get("wo"), str) else None
        if wo is None:
            raise ValueError(f"accepted {t} of an unknown work order")
        if t in ("hold", "resume"):
            wo["hold"] = t == "hold"
            return []
        ops = self.d["products"][wo["product"]]["routing"]
        k = next((i for i, o in enumerate(ops) if is_qty(ev.get("op"), -2**63) and o["op"] == ev["op"]), None)
        if k is None or t not in ("start", "complete"):
            raise ValueError(f"accepted {t} of an unknown operation or type")
        key = str(ops[k]["op"])
        if t == "start":
            q = ev.get("qty")
            if not is_qty(q):
                raise ValueError("accepted start with a bad quantity")
            wo["queued"][key] -= q
            wo["in_progress"][key] += q
            wo["status"] = "in_process" if wo["status"] == "released" else wo["status"]
            moves = [{"item": b["item"], "qty": -q * b["qty"], "kind": "consumption"}
                     for b in self.d["products"][wo["product"]]["bom"] if b["op"] == ops[k]["op"]]
            for m in moves:
                self.inv[m["item"]] += m["qty"]
            return moves
        g, s = ev.get("good"), ev.get("scrap")
        if not is_qty(g, 0) or not is_qty(s, 0) or g + s < 1:
            raise ValueError("accepted complete with bad quantities")
        wo["in_progress"][key] -= g + s
        wo["scrapped"] += s
        moves = []
        if k == len(ops) - 1:
            wo["completed"] += g
            if g:
                self.inv[wo["product"]] += g
                moves.append({"item": wo["product"], "qty": g, "kind": "production"})
        else:
            wo["queued"][str(ops[k + 1]["op"])] += g
        if sum(wo["queued"].values()) + sum(wo["in_progress"].values()) == 0:
            wo["status"] = "completed"
        return moves

    def broken(self) -> str:
        """An invariant the replayed plant breaks, or ''."""
        neg = [i for i, q in self.inv.items() if q < 0]
        if neg:
            return f"negative inventory of {neg[0]}"
        for name, wo in self.wos.items():
            parts = list(wo["queued"].values()) + list(wo["in_progress"].values()) + [wo["completed"], wo["scrapped"]]
            if min(parts) < 0 or sum(parts) != wo["qty"]:
                return f"work order {name} does not conserve its units"
        over = [wc for wc, n in self.load().items() if n > self.d["work_centers"][wc]]
        return f"work centre {over[0]} over capacity" if over else ""


def conservation(d: dict, journal: Any, states: Any) -> tuple[int, str]:
    events = d["events"]
    if not isinstance(journal, list) or not isinstance(states, list) or len(journal) != len(events) \
            or len(states) != len(events):
        return len(events) or 1, "journal and states need one entry per event"
    plant = Replay(d)
    for i, ev in enumerate(events):
        j, s = journal[i], states[i]
        status = j.get("status") if isinstance(j, dict) else None
        moves = j.get("movements") if isinstance(j, dict) else None
        if status == "rejected":
            if not same(moves, []):
                return len(events) - i, f"event {i}: a rejected event moved material"
        elif status == "accepted":
            try:
                implied = plant.effect(ev)
            except (ValueError, KeyError, TypeError) as e:
                return len(events) - i, f"event {i}: {e}"
            if not same(moves, implied):
                return len(events) - i, f"event {i}: movements are not what the event and the BOM imply"
            why = plant.broken()
            if why:
                return len(events) - i, f"event {i}: {why}"
        else:
            return len(events) - i, f"event {i}: status is neither accepted nor rejected"
        if not same(s, plant.state()):
            return len(events) - i, f"event {i}: state is not the previous state plus this event's effect"
    return 0, "every state follows from the journal; nothing negative, units and material conserved"


def grade(d: dict) -> list:
    out = d.get("output") if isinstance(d.get("output"), dict) else {}
    exp, inp = d["expected"], d["input"]
    jbad, jd = compare(out.get("journal"), exp["journal"], "journal")
    sbad, sd = compare(out.get("states"), exp["states"], "states")
    cbad, cd = conservation(inp, out.get("journal"), out.get("states"))
    return [{"check": "journal_exact", "measured": jbad, "pass": jbad == 0, "detail": jd},
            {"check": "state_exact", "measured": sbad, "pass": sbad == 0, "detail": sd},
            {"check": "conservation", "measured": cbad, "pass": cbad == 0, "detail": cd}]


def main() -> None:
    d = json.load(sys.stdin)
    try:
        recs = grade(d)
    except Exception as e:  # a malformed output is a failure, never a crash
        recs = [{"check": c, "measured": None, "pass": False, "detail": f"malformed output: {type(e).__name__}"}
                for c in ("journal_exact", "state_exact", "conservation")]
    print(json.dumps({"checks": recs}))


main()
