"""Reference general ledger (spec.md): documents in input order, exact rational arithmetic, commercial
rounding, open receivable items, period locks; each document's posting lines and the balances after it."""
from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

RATE = re.compile(r"^\d+(\.\d{1,6})?$")


class Reject(Exception):
    """A document the rules refuse (spec.md section 6): no lines, no effect."""


def round_half_away(q: Fraction) -> int:
    """Commercial rounding: halves away from zero."""
    q = float(q)  # binary floating point instead of exact rationals
    n = int(abs(q) + 0.5)
    return n if q >= 0 else -n


@dataclass
class Item:
    """An open receivable: document-currency amount still owed and its company-currency carrying value."""

    currency: str
    open_doc: int
    carrying: int


@dataclass
class Ledger:
    case: dict[str, Any]
    balances: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    items: dict[str, Item] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.company = self.case["company_currency"]
        self.exps: dict[str, int] = self.case["currencies"]
        self.types = {a["code"]: a["type"] for a in self.case["accounts"]}
        self.roles: dict[str, str] = self.case["roles"]
        self.taxes: dict[str, dict[str, str]] = self.case.get("tax_codes", {})

    # ---- field readers: each raises Reject on a malformed field
    def amount(self, doc: dict[str, Any], key: str) -> int:
        v = doc.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise Reject(f"{key} must be a positive integer")
        return v

    def rate(self, text: Any) -> Fraction:
        if not isinstance(text, str) or not RATE.match(text) or Fraction(text) <= 0:
            raise Reject(f"invalid rate {text!r}")
        return float(text)

    def period(self, doc: dict[str, Any]) -> str:
        try:
            day = dt.date.fromisoformat(doc["date"]) if isinstance(doc.get("date"), str) else None
        except ValueError:
            day = None
        if day is None or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", doc["date"]):
            raise Reject("invalid date")
        per = doc["date"][:7]
        if per in self.closed:
            raise Reject(f"period {per} is closed")
        return per

    def doc_rate(self, doc: dict[str, Any], currency: str) -> Fraction:
        return Fraction(1) if currency == self.company else self.rate(doc.get("rate"))

    def conv(self, m: int, currency: str, rate: Fraction) -> int:
        return round_half_away(m * rate * 10.0 ** (self.exps[self.company] - self.exps[currency]))

    # ---- documents
    def revenue_lines(self, doc: dict[str, Any]) -> tuple[list[tuple[str, int]], dict[str, int]]:
        lines = doc.get("lines")
        if not isinstance(lines, list) or not lines:
            raise Reject("lines must be a non-empty list")
        nets, per_code = [], defaultdict(int)
        for ln in lines:
            if not isinstance(ln, dict) or self.types.get(ln.get("account")) != "revenue":
                acc = ln.get("account") if isinstance(ln, dict) else ln
                raise Reject(f"line account {acc!r} is not a revenue account")
            net = self.amount(ln, "net")
            code = ln.get("tax_code")
            if code is not None:
                if code not in self.taxes:
                    raise Reject(f"unknown tax code {code!r}")
                per_code[code] += net
            nets.append((ln["account"], net))
        taxes = {c: round_half_away(n * float(self.taxes[c]["rate"])) for c, n in per_code.items()}
        return nets, taxes

    def invoice(self, doc: dict[str, Any], post: Post) -> None:
        cur = doc.get("currency")
        if cur not in self.exps:
            raise Reject(f"unknown currency {cur!r}")
        rate = self.doc_rate(doc, cur)
        nets, taxes = self.revenue_lines(doc)
        credits = 0
        for acc, net in nets:
            credits += post.credit(acc, self.conv(net, cur, rate))
        for code, tax in taxes.items():
            credits += post.credit(self.taxes[code]["account"], self.conv(tax, cur, rate))
        gross = sum(n for _, n in nets) + sum(taxes.values())
        receivable = self.conv(gross, cur, rate)
        post.debit(self.roles["receivable"], receivable)
        post.credit(self.roles["rounding"], receivable - credits)
        post.on_commit(lambda: self.items.__setitem__(str(doc["id"]), Item(cur, gross, receivable)))

    def item(self, doc: dict[str, Any]) -> Item:
        it = self.items.get(doc.get("invoice")) if isinstance(doc.get("invoice"), str) else None
        if it is None:
            raise Reject(f"invoice {doc.get('invoice')!r} is not a posted invoice")
        return it

    def relief(self, it: Item, a: int) -> int:
        if a > it.open_doc:
            raise Reject(f"{a} exceeds the open amount {it.open_doc}")
        return it.carrying if a == it.open_doc else round_half_away(it.carrying * a / it.open_doc)

    def settle(self, it: Item, a: int, relief: int, post: Post) -> None:
        def apply() -> None:
            it.open_doc -= a
            it.carrying -= relief
        post.on_commit(apply)

    def credit_note(self, doc: dict[str, Any], post: Post) -> None:
        it = self.item(doc)
        rate = self.doc_rate(doc, it.currency)
        nets, taxes = self.revenue_lines(doc)
        debits = sum(post.debit(acc, self.conv(net, it.currency, rate)) for acc, net in nets)
        debits += sum(post.debit(self.taxes[c]["account"], self.conv(t, it.currency, rate)) for c, t in taxes.items())
        gross = sum(n for _, n in nets) + sum(taxes.values())
        relief = self.relief(it, gross)
        post.credit(self.roles["receivable"], relief)
        x = relief - debits
        post.debit(self.roles["fx_loss"], x) if x > 0 else post.credit(self.roles["fx_gain"], -x)
        self.settle(it, gross, relief, post)

    def payment(self, doc: dict[str, Any], post: Post) -> None:
        it = self.item(doc)
        a = self.amount(doc, "amount")
        bank = post.debit(self.roles["bank"], self.conv(a, it.currency, self.doc_rate(doc, it.currency)))
        relief = self.relief(it, a)
        post.credit(self.roles["receivable"], relief)
        x = bank - relief
        post.credit(self.roles["fx_gain"], x) if x > 0 else post.debit(self.roles["fx_loss"], -x)
        self.settle(it, a, relief, post)

    def revaluation(self, doc: dict[str, Any], post: Post) -> None:
        rates = doc.get("rates")
        if not isinstance(rates, dict):
            raise Reject("rates must be an object")
        parsed = {}
        for cur, text in rates.items():
            if cur not in self.exps or cur == self.company:
                raise Reject(f"no revaluation rate for {cur!r}")
            parsed[cur] = self.rate(text)
        targets = []
        for it in self.items.values():
            if it.open_doc > 0 and it.currency in parsed:
                target = self.conv(it.open_doc, it.currency, parsed[it.currency])
                delta = target - it.carrying
                post.debit(self.roles["receivable"], delta)
                if delta > 0:
                    post.credit(self.roles["unrealized_gain"], delta)
                else:
                    post.debit(self.roles["unrealized_loss"], -delta)
                targets.append((it, target))
        post.on_commit(lambda: [setattr(it, "carrying", t) for it, t in targets])

    def journal(self, doc: dict[str, Any], post: Post) -> None:
        lines = doc.get("lines")
        if not isinstance(lines, list) or len(lines) < 2:
            raise Reject("a journal needs at least 2 lines")
        total = 0
        for ln in lines:
            acc = ln.get("account") if isinstance(ln, dict) else None
            if acc not in self.types or acc == self.roles["receivable"]:
                raise Reject(f"account {acc!r} cannot be posted by a journal")
            d, c = ln.get("debit", 0), ln.get("credit", 0)
            if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in (d, c)) or (d > 0) == (c > 0):
                raise Reject("each journal line has exactly one positive side")
            total += d - c
            post.debit(acc, d) if d else post.credit(acc, c)
        if total != 0:
            raise Reject("journal does not balance")

    def close(self, doc: dict[str, Any], post: Post) -> None:
        per = doc.get("period")
        if not isinstance(per, str) or not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", per):
            raise Reject("invalid period")
        post.on_commit(lambda: self.closed.add(per))

    def process(self, doc: Any) -> dict[str, Any]:
        """One document: its entry in the output (status, lines, balances after it)."""
        post = Post()
        handler = {"invoice": self.invoice, "credit_note": self.credit_note, "payment": self.payment,
                   "revaluation": self.revaluation, "journal": self.journal, "close": self.close}
        try:
            if not isinstance(doc, dict) or doc.get("type") not in handler:
                raise Reject("unknown document type")
            if not isinstance(doc.get("id"), str):
                raise Reject("id must be a string")
            if doc["type"] != "close":
                self.period(doc)
            handler[doc["type"]](doc, post)
        except Reject as e:
            return {"id": doc.get("id") if isinstance(doc, dict) else None, "status": "rejected", "reason": str(e),
                    "lines": [], "balances": self.snapshot()}
        lines = post.commit(self.balances)
        return {"id": doc["id"], "status": "posted", "lines": lines, "balances": self.snapshot()}

    def snapshot(self) -> dict[str, int]:
        return {a: b for a, b in sorted(self.balances.items()) if b != 0}


class Post:
    """Lines collected for one document, applied only when the whole document is accepted."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.effects: list[Any] = []

    def debit(self, account: str, amount: int) -> int:
        if amount:
            side = ("debit", "credit") if amount > 0 else ("credit", "debit")
            self.lines.append({"account": account, side[0]: abs(amount), side[1]: 0})
        return amount

    def credit(self, account: str, amount: int) -> int:
        self.debit(account, -amount)
        return amount

    def on_commit(self, fn: Any) -> None:
        self.effects.append(fn)

    def commit(self, balances: dict[str, int]) -> list[dict[str, Any]]:
        for ln in self.lines:
            balances[ln["account"]] += ln["debit"] - ln["credit"]
        for fn in self.effects:
            fn()
        return self.lines
