"""`swr audit agreement`: what two annotators' labels of the blinded bundles say (SWR Tables 13–14) —
their agreement before adjudication, whether the designed mutation labels hold, and the verifier's false
accepts and false rejects against the adjudicated labels, per stratum."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError, load_json

from .bundles import CASES, LABEL_COLUMNS
from .mutation import wilson

LABELS = ("valid", "invalid", "unsure")
KINDS = ("structured", "geometry")
CaseId = tuple[str, str]


def read_key(path: Path) -> dict[CaseId, dict[str, Any]]:
    """(bundle_id, case) -> the key's record of that case (designed validity, stratum, verifier decision)."""
    doc = load_json(path)
    out: dict[CaseId, dict[str, Any]] = {}
    for n, b in enumerate(doc.get("bundles", []) if isinstance(doc, dict) else []):
        try:
            for c in CASES:
                rec = b["cases"][c]
                out[(str(b["bundle_id"]), c)] = {
                    "kind": str(b["stratum"]),
                    "designed_valid": bool(rec["designed_valid"]),
                    "verifier_accepts": bool(rec["verifier_accepts"]),
                }
        except (KeyError, TypeError) as e:
            raise SwrError(f"not a bundle key: {e} missing", file=path, field=f"bundles[{n}]") from None
    if not out:
        raise SwrError("not a bundle key (no bundles)", file=path, field="bundles")
    return out


def read_labels(path: Path, cases: set[CaseId], *, allow_empty: bool = False) -> dict[CaseId, str]:
    """A label sheet: every case of the key labelled once with one of LABELS (or empty, if allowed)."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
            header = reader.fieldnames or []
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise SwrError(f"unreadable label sheet: {e}", file=path) from None
    missing = [c for c in LABEL_COLUMNS[:3] if c not in header]
    if missing:
        raise SwrError("is a required column but missing from the header", file=path, field=missing[0])
    labels: dict[CaseId, str] = {}
    for n, row in enumerate(rows, start=2):  # row 1 is the header
        cid = ((row["bundle_id"] or "").strip(), (row["case"] or "").strip().upper())
        label = (row["label"] or "").strip().lower()
        if cid not in cases:
            raise SwrError(
                f"{cid[0]!r} case {cid[1]!r} is not a case of the key", file=path, field=f"row {n}: bundle_id"
            )
        if cid in labels:
            raise SwrError(f"{cid[0]} case {cid[1]} is labelled twice", file=path, field=f"row {n}: case")
        if label not in LABELS and not (allow_empty and label == ""):
            raise SwrError(f"{label!r} is not one of {', '.join(LABELS)}", file=path, field=f"row {n}: label")
        labels[cid] = label
    unlabelled = sorted(cases - labels.keys())
    if unlabelled:
        raise SwrError(
            f"{len(unlabelled)} case(s) of the key have no row, first {unlabelled[0][0]} case {unlabelled[0][1]}",
            file=path,
            field="bundle_id",
        )
    return labels


def cohen_kappa(a: list[str], b: list[str]) -> float | None:
    """Two-rater Cohen's kappa, (p_o − p_e)/(1 − p_e); None when chance agreement is already 1 (one category)."""
    n = len(a)
    if n == 0:
        return None
    p_o = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    p_e = sum(ca[k] * cb[k] for k in ca) / (n * n)
    return None if p_e == 1 else (p_o - p_e) / (1 - p_e)


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": k / n if n else None, "wilson95": [lo, hi]}


def _adjudicate(a: dict[CaseId, str], b: dict[CaseId, str], adj: dict[CaseId, str] | None) -> dict[CaseId, str]:
    """The adjudicated label of each case; without a file, the annotators' label where they agree."""
    if adj is not None:
        return adj
    return {c: a[c] if a[c] == b[c] else "unsure" for c in a}


def _stratum(key: dict[CaseId, dict[str, Any]], adj: dict[CaseId, str], kind: str, valid: bool) -> dict[str, Any]:
    """Cases of one kind whose adjudicated label is valid (errors: false rejects) or invalid (false accepts)."""
    ids = [c for c, r in key.items() if r["kind"] == kind and adj[c] == ("valid" if valid else "invalid")]
    accepted = sum(key[c]["verifier_accepts"] for c in ids)
    errors = len(ids) - accepted if valid else accepted
    return {
        "stratum": f"{kind} {'valid' if valid else 'invalid'}",
        "cases": len(ids),
        "accepted": accepted,
        "rejected": len(ids) - accepted,
        "error": "false_reject" if valid else "false_accept",
        **_rate(errors, len(ids)),
    }


def agreement_report(key_file: Path, labels_a: Path, labels_b: Path, adjudicated: Path | None = None) -> dict[str, Any]:
    """Annotator agreement and kappa, label validity, and the verifier's FA/FR against the adjudicated labels."""
    key = read_key(key_file)
    cases = set(key)
    a, b = read_labels(labels_a, cases), read_labels(labels_b, cases)
    adj = _adjudicate(a, b, read_labels(adjudicated, cases) if adjudicated else None)
    ids = sorted(cases)
    agree = sum(a[c] == b[c] for c in ids)
    decided = [c for c in ids if adj[c] in ("valid", "invalid")]
    as_designed = sum((adj[c] == "valid") == key[c]["designed_valid"] for c in decided)
    verifier_right = sum((adj[c] == "valid") == key[c]["verifier_accepts"] for c in decided)
    strata = [_stratum(key, adj, k, v) for k in KINDS for v in (True, False)]
    fa = sum(s["k"] for s in strata if s["error"] == "false_accept")
    fr = sum(s["k"] for s in strata if s["error"] == "false_reject")
    n_invalid = sum(adj[c] == "invalid" for c in decided)
    return {
        "key": str(key_file),
        "cases": len(ids),
        "bundles": len({c[0] for c in ids}),
        "adjudication": str(adjudicated) if adjudicated else "where the two annotators agree",
        "annotator_agreement": _rate(agree, len(ids)),
        "cohen_kappa": cohen_kappa([a[c] for c in ids], [b[c] for c in ids]),
        "unresolved": len(ids) - len(decided),
        "label_validity": _rate(as_designed, len(decided)),
        "verifier_agreement": _rate(verifier_right, len(decided)),
        "false_accept_rate": _rate(fa, n_invalid),
        "false_reject_rate": _rate(fr, len(decided) - n_invalid),
        "false_accepts": fa,
        "false_rejects": fr,
        "strata": strata,
    }
