"""The company every case books into: currencies, chart of accounts, posting roles and tax codes."""
from __future__ import annotations

from typing import Any

ACCOUNTS = [("1000", "Bank", "asset"), ("1200", "Trade receivables", "asset"),
            ("2300", "Output VAT 19%", "liability"), ("2310", "Output VAT 7%", "liability"),
            ("3000", "Share capital", "equity"), ("4000", "Sales - goods", "revenue"),
            ("4100", "Sales - services", "revenue"), ("6000", "Rent", "expense"), ("6100", "Bank charges", "expense"),
            ("7100", "Realized exchange gains", "revenue"), ("7200", "Realized exchange losses", "expense"),
            ("7110", "Unrealized exchange gains", "revenue"), ("7210", "Unrealized exchange losses", "expense"),
            ("7900", "Rounding differences", "expense")]


def company() -> dict[str, Any]:
    return {"company_currency": "EUR", "currencies": {"EUR": 2, "USD": 2, "JPY": 0, "KWD": 3},
            "accounts": [{"code": c, "name": n, "type": t} for c, n, t in ACCOUNTS],
            "roles": {"bank": "1000", "receivable": "1200", "fx_gain": "7100", "fx_loss": "7200",
                      "unrealized_gain": "7110", "unrealized_loss": "7210", "rounding": "7900"},
            "tax_codes": {"S19": {"rate": "0.19", "account": "2300"}, "R7": {"rate": "0.07", "account": "2310"},
                          "Z0": {"rate": "0", "account": "2300"}}}
