"""Hidden verifier: the ledger's invariants after EVERY document, recomputed from the candidate's own
posting lines (never from a figure it reports about itself), and the exact balances per account the rules
give (verifier/expect.py). Any output is tolerated: a malformed one fails every check it touches."""
from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

CHECKS = ("documents_balance", "trial_balance_zero", "balances_match_postings", "closed_periods_unchanged",
          "expected_balances")


def is_int(v: Any) -> bool:
    return type(v) is int


def line_ok(ln: Any, chart: set[str]) -> bool:
    """One side positive, the other 0, integers, an account of the chart."""
    return (isinstance(ln, dict) and isinstance(ln.get("account"), str) and ln["account"] in chart
            and is_int(ln.get("debit")) and is_int(ln.get("credit")) and ln["debit"] >= 0 and ln["credit"] >= 0 and (ln["debit"] > 0) != (ln["credit"] > 0))


def reported(bal: Any) -> Counter[str] | None:
    if not isinstance(bal, dict) or not all(isinstance(k, str) and is_int(v) for k, v in bal.items()):
        return None
    return Counter({k: v for k, v in bal.items() if v != 0})


class Audit:
    """Walks the documents in order, keeping the first violation of each invariant and how many documents
    violate it."""

    def __init__(self, case: dict[str, Any], expected: list[dict[str, Any]]):
        self.docs = case["documents"]
        self.chart = {a["code"] for a in case["accounts"]}
        self.expected = expected
        self.count: Counter[str] = Counter()
        self.first: dict[str, str] = {}
        self.running: Counter[str] = Counter()
        self.locked: set[str] = set()

    def fail(self, check: str, why: str) -> None:
        self.count[check] += 1
        self.first.setdefault(check, why)

    def document(self, i: int, got: dict[str, Any]) -> None:
        doc, exp = self.docs[i], self.expected[i]
        did = exp["id"]
        status, lines = got.get("status"), got.get("lines", [])
        lines = lines if isinstance(lines, list) else None
        good = [ln for ln in lines or [] if line_ok(ln, self.chart)]
        if lines is None or len(good) != len(lines) or status not in ("posted", "rejected"):
            self.fail("documents_balance", f"{did}: malformed status or lines")
        elif sum(ln["debit"] for ln in good) != sum(ln["credit"] for ln in good):
            dr, cr = sum(ln["debit"] for ln in good), sum(ln["credit"] for ln in good)
            self.fail("documents_balance", f"{did}: debits {dr} != credits {cr}")
        elif status == "rejected" and good:
            self.fail("documents_balance", f"{did}: rejected but posts lines")
        period = doc.get("date", "")[:7] if isinstance(doc, dict) and isinstance(doc.get("date"), str) else None
        if good and period in self.locked:
            self.fail("closed_periods_unchanged", f"{did}: posts {len(good)} lines into closed period {period}")
        for ln in good:
            self.running[ln["account"]] += ln["debit"] - ln["credit"]
        if sum(self.running.values()) != 0:  # the trial balance of its own lines, not of its reported balances
            self.fail("trial_balance_zero", f"after {did}: the account balances of the lines so far sum to "
                                            f"{sum(self.running.values())}")
        if isinstance(doc, dict) and doc.get("type") == "close" and exp["status"] == "posted":
            self.locked.add(doc["period"])
        self.balances(did, got.get("balances"))
        want = Counter({k: v for k, v in exp["balances"].items() if v != 0})
        mine = Counter({k: v for k, v in self.running.items() if v != 0})
        if status != exp["status"]:
            self.fail("expected_balances", f"{did}: status {status!r}, the rules say {exp['status']!r}")
        elif mine != want:
            acc = sorted(a for a in set(mine) | set(want) if mine[a] != want[a])[0]
            self.fail("expected_balances", f"after {did}: account {acc} is {mine[acc]} from the lines, the rules "
                                           f"give {want[acc]}")

    def balances(self, did: str, bal: Any) -> None:
        rep = reported(bal)
        if rep is None:
            self.fail("balances_match_postings", f"{did}: balances missing or not integers")
            return
        mine = Counter({k: v for k, v in self.running.items() if v != 0})
        if rep != mine:
            acc = sorted(a for a in set(rep) | set(mine) if rep[a] != mine[a])[0]
            self.fail("balances_match_postings", f"after {did}: account {acc} reported {rep[acc]}, its lines sum to "
                                                 f"{mine[acc]}")


def grade(case: dict[str, Any], expected: dict[str, Any], output: Any) -> list[dict[str, Any]]:
    exp = expected["documents"]
    got = output.get("documents") if isinstance(output, dict) else None
    ids = [d.get("id") if isinstance(d, dict) else None for d in got] if isinstance(got, list) else None
    if ids != [e["id"] for e in exp]:
        why = "output `documents` is not one entry per input document, in input order, with its id"
        return [{"check": c, "measured": None, "pass": False, "detail": why} for c in CHECKS]
    audit = Audit(case, exp)
    for i, g in enumerate(got):
        audit.document(i, g)
    return [{"check": c, "measured": audit.count[c], "pass": audit.count[c] == 0,
             "detail": audit.first.get(c, f"holds after all {len(exp)} documents")} for c in CHECKS]


def main() -> None:
    payload = json.load(sys.stdin)
    records = grade(payload["input"], payload["expected"], payload.get("output"))
    wanted = payload.get("checks") or {c: {} for c in CHECKS}
    print(json.dumps({"checks": [r for r in records if r["check"] in wanted]}))


if __name__ == "__main__":
    main()
