"""Expected statuses and balances after every document, by a second, independent reading of spec.md:
per-document deltas in Decimal arithmetic with ROUND_HALF_UP (halves away from zero), no posting lines.
stdin {"input": case} -> stdout {"expected": {"documents": [{"id", "status", "balances"}]}}."""
from __future__ import annotations

import datetime
import json
import re
import sys
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal, getcontext
from typing import Any

getcontext().prec = 60


class Bad(Exception):
    pass


def rnd(q: Decimal) -> int:
    return int(q.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def need(cond: bool, why: str) -> None:
    if not cond:
        raise Bad(why)


def posint(v: Any) -> int:
    need(type(v) is int and v > 0, "amount")
    return v


def rate_of(v: Any) -> Decimal:
    need(isinstance(v, str) and re.fullmatch(r"[0-9]+(\.[0-9]{1,6})?", v) is not None, "rate")
    r = Decimal(v)
    need(r > 0, "rate")
    return r


class Books:
    def __init__(self, case: dict[str, Any]):
        self.c = case
        self.home = case["company_currency"]
        self.dec = case["currencies"]
        self.kind = {a["code"]: a["type"] for a in case["accounts"]}
        self.role = case["roles"]
        self.tax = case.get("tax_codes", {})
        self.bal: Counter[str] = Counter()
        self.open: dict[str, list[Any]] = {}  # invoice id -> [currency, open_doc, carrying]
        self.locked: set[str] = set()

    def home_amount(self, m: int, cur: str, r: Decimal) -> int:
        return rnd(Decimal(m) * r * Decimal(10) ** (self.dec[self.home] - self.dec[cur]))

    def rate_for(self, d: dict[str, Any], cur: str) -> Decimal:
        return Decimal(1) if cur == self.home else rate_of(d.get("rate"))

    def check_date(self, d: dict[str, Any]) -> None:
        s = d.get("date")
        need(isinstance(s, str) and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", s) is not None, "date")
        try:
            datetime.date(int(s[:4]), int(s[5:7]), int(s[8:]))
        except ValueError:
            raise Bad("date") from None
        need(s[:7] not in self.locked, "closed")

    def sales(self, d: dict[str, Any], cur: str, r: Decimal, sign: int) -> tuple[Counter[str], int, int]:
        """Revenue and tax effect (credit for sign +1): the delta, its company total and the gross."""
        lines = d.get("lines")
        need(isinstance(lines, list) and len(lines) > 0, "lines")
        delta: Counter[str] = Counter()
        by_code: Counter[str] = Counter()
        net_sum = total = 0
        for ln in lines:
            need(isinstance(ln, dict) and self.kind.get(ln.get("account")) == "revenue", "account")
            n = posint(ln.get("net"))
            code = ln.get("tax_code")
            need(code is None or code in self.tax, "tax code")
            if code is not None:
                by_code[code] += n
            h = self.home_amount(n, cur, r)
            delta[ln["account"]] -= sign * h
            net_sum += n
            total += h
        tax_sum = 0
        for code, n in by_code.items():
            t = rnd(Decimal(n) * Decimal(self.tax[code]["rate"]))
            h = self.home_amount(t, cur, r)
            delta[self.tax[code]["account"]] -= sign * h
            tax_sum += t
            total += h
        return delta, total, net_sum + tax_sum

    def relieve(self, inv: list[Any], a: int) -> int:
        need(a <= inv[1], "exceeds open amount")
        return inv[2] if a == inv[1] else rnd(Decimal(inv[2]) * Decimal(a) / Decimal(inv[1]))

    def doc(self, d: dict[str, Any]) -> tuple[Counter[str], Any]:
        """The document's balance delta and a commit action; raises Bad when it is rejected."""
        t = d.get("type")
        need(isinstance(d.get("id"), str), "id")
        need(t in ("invoice", "credit_note", "payment", "revaluation", "journal", "close"), "type")
        if t == "close":
            p = d.get("period")
            need(isinstance(p, str) and re.fullmatch(r"[0-9]{4}-(0[1-9]|1[012])", p) is not None, "period")
            return Counter(), lambda: self.locked.add(p)
        self.check_date(d)
        ar = self.role["receivable"]
        if t == "invoice":
            cur = d.get("currency")
            need(cur in self.dec, "currency")
            r = self.rate_for(d, cur)
            delta, credits, gross = self.sales(d, cur, r, +1)
            recv = self.home_amount(gross, cur, r)
            delta[ar] += recv
            delta[self.role["rounding"]] -= recv - credits
            return delta, lambda: self.open.__setitem__(d["id"], [cur, gross, recv])
        if t in ("credit_note", "payment"):
            inv = self.open.get(d.get("invoice")) if isinstance(d.get("invoice"), str) else None
            need(inv is not None, "invoice")
            r = self.rate_for(d, inv[0])
            if t == "credit_note":
                delta, debits, a = self.sales(d, inv[0], r, -1)
                relief = self.relieve(inv, a)
                diff = relief - debits  # > 0: loss (debit), < 0: gain (credit)
            else:
                a = posint(d.get("amount"))
                bank = self.home_amount(a, inv[0], r)
                relief = self.relieve(inv, a)
                delta = Counter({self.role["bank"]: bank})
                diff = relief - bank
            delta[ar] -= relief
            delta[self.role["fx_loss"] if diff > 0 else self.role["fx_gain"]] += diff
            return delta, lambda: inv.__setitem__(slice(1, 3), [inv[1] - a, inv[2] - relief])
        if t == "revaluation":
            rates = d.get("rates")
            need(isinstance(rates, dict), "rates")
            rs = {}
            for cur, v in rates.items():
                need(cur in self.dec and cur != self.home, "currency")
                rs[cur] = rate_of(v)
            delta = Counter()
            new = []
            for inv in self.open.values():
                if inv[1] > 0 and inv[0] in rs:
                    target = self.home_amount(inv[1], inv[0], rs[inv[0]])
                    move = target - inv[2]
                    delta[ar] += move
                    delta[self.role["unrealized_gain"] if move > 0 else self.role["unrealized_loss"]] -= move
                    new.append((inv, target))
            return delta, lambda: [inv.__setitem__(2, tg) for inv, tg in new]
        lines = d.get("lines")
        need(isinstance(lines, list) and len(lines) >= 2, "lines")
        delta = Counter()
        for ln in lines:
            need(isinstance(ln, dict) and ln.get("account") in self.kind and ln.get("account") != ar, "account")
            dr, cr = ln.get("debit", 0), ln.get("credit", 0)
            need(type(dr) is int and type(cr) is int and dr >= 0 and cr >= 0 and (dr > 0) != (cr > 0), "sides")
            delta[ln["account"]] += dr - cr
        need(sum(delta.values()) == 0, "unbalanced")
        return delta, lambda: None

    def run(self) -> list[dict[str, Any]]:
        out = []
        for d in self.c["documents"]:
            status = "rejected"
            if isinstance(d, dict):
                try:
                    delta, commit = self.doc(d)
                    self.bal.update(delta)
                    commit()
                    status = "posted"
                except Bad:
                    pass
            out.append({"id": d.get("id") if isinstance(d, dict) else None, "status": status,
                        "balances": {k: v for k, v in sorted(self.bal.items()) if v != 0}})
        return out


if __name__ == "__main__":
    case = json.load(sys.stdin)["input"]
    print(json.dumps({"expected": {"documents": Books(case).run()}}))
