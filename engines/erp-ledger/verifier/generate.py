"""Hidden ledger cases from a seed: stdin {"seed": n} -> stdout {"cases": [...]}. Three months of invoices,
credit notes, partial and final payments, journals, revaluations and closes in four currencies, with
amounts steered onto exact half minor units (where rounding rules differ) and documents the rules reject."""
from __future__ import annotations

import json
import random
import sys
from decimal import Decimal
from typing import Any

from company import company
from expect import Books

CUR_RATES = {"USD": (0.88, 0.96), "JPY": (0.0058, 0.0066), "KWD": (2.8, 3.1)}
EXP = {"EUR": 2, "USD": 2, "JPY": 0, "KWD": 3}


def rate(rng: random.Random, cur: str) -> str:
    lo, hi = CUR_RATES[cur]
    places = rng.choice([3, 4, 6])
    return f"{rng.uniform(lo, hi):.{places}f}"


def halfway(rng: random.Random, lo: int, hi: int, factor: Decimal) -> int:
    """An amount m in [lo, hi) with m * factor exactly an even integer + 1/2 (half-even and half-away
    rounding disagree there), or a random one when none is found quickly."""
    for _ in range(4000):
        m = rng.randrange(lo, hi)
        q = m * factor
        if q % 1 == Decimal("0.5") and int(q) % 2 == 0:
            return m
    return rng.randrange(lo, hi)


class Gen:
    def __init__(self, rng: random.Random):
        self.rng, self.case = rng, company()
        self.case["documents"] = []
        self.books = Books({**self.case, "documents": []})
        self.n = 0

    def add(self, doc: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        doc = {"id": f"D{self.n:03d}", **doc}
        self.case["documents"].append(doc)
        try:  # keep the open items in step, as the ledger will
            delta, commit = self.books.doc(doc)
            self.books.bal.update(delta)
            commit()
        except Exception:  # noqa: BLE001 - a rejected document changes nothing
            pass
        return doc

    def open_items(self) -> list[tuple[str, list[Any]]]:
        return [(k, v) for k, v in self.books.open.items() if v[1] > 0]

    def invoice(self, date: str, kind: str = "invoice", ref: tuple[str, list[Any]] | None = None) -> None:
        rng = self.rng
        cur = ref[1][0] if ref else rng.choice(["EUR", "EUR", "USD", "JPY", "KWD"])
        r = rate(rng, cur) if cur != "EUR" else None
        scale = 10 ** EXP[cur]
        lines = []
        for _ in range(rng.randint(1, 2 if ref else 3)):
            code = rng.choice(["S19", "S19", "R7", "Z0", None])
            top = max(2, (ref[1][1] // 3) if ref else 5000 * scale)
            if rng.random() < 0.5 and code in ("S19", "R7") and top > 400:
                net = halfway(rng, 1, top, Decimal("0.19" if code == "S19" else "0.07"))
            elif r and rng.random() < 0.5:
                net = halfway(rng, 1, top, Decimal(r) * Decimal(10) ** (2 - EXP[cur]))
            else:
                net = rng.randrange(1, top)
            lines.append({"account": rng.choice(["4000", "4100"]), "net": net, "tax_code": code})
        doc: dict[str, Any] = {"type": kind, "date": date}
        doc.update({"invoice": ref[0]} if ref else {"customer": f"C{rng.randint(1, 5)}", "currency": cur})
        if r:
            doc["rate"] = r
        self.add({**doc, "lines": lines})

    def payment(self, date: str, over: bool = False) -> None:
        items = self.open_items()
        if not items:
            return
        inv, (cur, open_doc, _) = self.rng.choice(items)
        full = self.rng.random() < 0.5
        amount = open_doc + 1 if over else open_doc if full else self.rng.randint(1, max(1, open_doc - 1))
        doc = {"type": "payment", "date": date, "invoice": inv, "amount": amount}
        if cur != "EUR":
            doc["rate"] = rate(self.rng, cur)
        self.add(doc)

    def journal(self, date: str, broken: bool = False) -> None:
        amt = self.rng.randint(100, 500000)
        acc = self.rng.choice(["6000", "6100", "3000"])
        self.add({"type": "journal", "date": date, "lines": [
            {"account": acc, "debit": amt, "credit": 0},
            {"account": "1200" if broken and self.rng.random() < 0.5 else "1000",
             "debit": 0, "credit": amt + (1 if broken else 0)}]})

    def float_trap(self, date: str) -> None:
        """A USD invoice whose one line converts to exactly half a cent at a rate that binary floating point
        holds just below its decimal value: exact arithmetic rounds the half away from zero, a float ledger
        computes 65399.49999999999 and rounds it down (spec section 3: never binary floating point)."""
        for _ in range(200):
            r = rate(self.rng, "USD")
            places = len(r.split(".")[1])
            units = int(Decimal(r) * 10 ** places)
            if Decimal(float(r)) >= Decimal(r) or units % 2 == 0 or units % 5 == 0:
                continue
            m0 = 10 ** places // 2 * pow(units, -1, 10 ** places) % 10 ** places  # m * r = k + 1/2
            for m in range(m0, 10 ** 7, 10 ** places):
                if Decimal(m * float(r)) < m * Decimal(r):
                    self.add({"type": "invoice", "date": date, "customer": "C7", "currency": "USD", "rate": r,
                              "lines": [{"account": "4000", "net": m, "tax_code": None}]})
                    return

    def closed_period(self, m: int) -> None:
        """Documents of every kind dated in the period just closed: all rejected (spec sections 5.6, 6)."""
        day = f"2024-{m - 1:02d}-27"
        self.add({"type": "journal", "date": day, "lines": [{"account": "6000", "debit": 1500, "credit": 0},
                                                            {"account": "1000", "debit": 0, "credit": 1500}]})
        self.add({"type": "revaluation", "date": day, "rates": {c: rate(self.rng, c) for c in ("USD", "JPY", "KWD")}})

    def errors(self, m: int) -> None:
        """Documents the rules reject: unknown account, currency, tax code; a 7-decimal rate; an over-credit."""
        day = f"2024-{m:02d}-{self.rng.randint(1, 28):02d}"
        self.add({"type": "invoice", "date": day, "customer": "C9", "currency": "EUR",
                  "lines": [{"account": "4999", "net": 1000, "tax_code": "S19"}]})
        self.add({"type": "invoice", "date": day, "customer": "C9", "currency": "GBP", "rate": "1.17",
                  "lines": [{"account": "4000", "net": 1000, "tax_code": None}]})
        self.add({"type": "invoice", "date": day, "customer": "C9", "currency": "USD", "rate": "0.9123456",
                  "lines": [{"account": "4000", "net": 1000, "tax_code": "S19"}]})
        self.add({"type": "invoice", "date": day, "customer": "C9", "currency": "EUR",
                  "lines": [{"account": "6000", "net": 1000, "tax_code": "X5"}]})
        self.add({"type": "journal", "date": day, "lines": [  # balanced, but names the receivable (5.5)
            {"account": "1200", "debit": 2500, "credit": 0}, {"account": "3000", "debit": 0, "credit": 2500}]})
        items = self.open_items()
        if items:
            inv, (cur, open_doc, _) = self.rng.choice(items)
            doc = {"type": "credit_note", "date": day, "invoice": inv,
                   "lines": [{"account": "4000", "net": open_doc + 1, "tax_code": None}]}
            self.add({**doc, "rate": rate(self.rng, cur)} if cur != "EUR" else doc)

    def month(self, m: int) -> None:
        rng = self.rng
        for _ in range(rng.randint(5, 7)):
            day = f"2024-{m:02d}-{rng.randint(1, 28):02d}"
            pick = rng.random()
            if pick < 0.45:
                self.invoice(day)
            elif pick < 0.75:
                self.payment(day)
            elif pick < 0.88 and self.open_items():
                self.invoice(day, "credit_note", rng.choice(self.open_items()))
            else:
                self.journal(day)
        if m == 2:
            self.errors(m)
        self.payment(f"2024-{m:02d}-20", over=True)
        self.journal(f"2024-{m:02d}-21", broken=True)
        self.add({"type": "revaluation", "date": f"2024-{m:02d}-28",
                  "rates": {c: rate(rng, c) for c in ("USD", "JPY", "KWD") if rng.random() < 0.8}})
        if m > 1:
            self.add({"type": "close", "period": f"2024-{m - 1:02d}"})
            self.invoice(f"2024-{m - 1:02d}-15")  # into the closed period: rejected
            self.payment(f"2024-{m - 1:02d}-30")
            self.closed_period(m)
        else:
            self.float_trap(f"2024-{m:02d}-12")


def cases(seed: int, n: int = 4) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        g = Gen(random.Random(seed * 1000 + i))
        for m in (1, 2, 3):
            g.month(m)
        g.add({"type": "payment", "date": "2024-02-31", "invoice": "D001", "amount": 1})  # not a date
        out.append({"id": f"g{i + 1}", "input": g.case})
    return out


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))
