"""Hidden verifier: the log relative error (LRE, NIST StRD / McCullough 1998) of every estimate the candidate
reports against the certified value the case holds; per procedure, the case's worst LRE. Any output is
tolerated: a missing, non-numeric or non-finite estimate has LRE 0 (no correct digit).

A hidden session's items (engine.toml [score]) are its analyses, each one certified quantity group: one record
per check and analysis, beside the case-wide records (the worst per procedure) that grade a worked example,
whose one item is the case itself."""
from __future__ import annotations

import json
import math
import sys
from typing import Any

# certified significant digits: NIST prints 15 for linear, ANOVA and univariate values, 11 for nonlinear ones
DIGITS = {"linear": 15, "anova": 15, "univariate": 15, "nonlinear": 11}
MISSING = object()  # a value the output does not hold: never the null a certified null asks for
CHECKS = {"lre_linear": "linear", "lre_nonlinear": "nonlinear", "lre_anova": "anova", "lre_univariate": "univariate"}


def lre(est: Any, cert: float | None, cap: int) -> float:
    """Digits of agreement: -log10(|est-cert|/|cert|), or -log10(|est|) when cert is 0; within [0, cap]. A
    certified null (a value spec.md leaves undefined, e.g. an exact fit's F) is matched by null only."""
    if cert is None:
        return float(cap) if est is None else 0.0
    if isinstance(est, bool) or not isinstance(est, (int, float)):
        return 0.0
    try:
        est = float(est)
    except OverflowError:
        return 0.0
    if not math.isfinite(est):
        return 0.0
    if est == cert:
        return float(cap)
    err = abs(est - cert) / abs(cert) if cert != 0 else abs(est)
    if err == 0 or not math.isfinite(err):
        return float(cap) if err == 0 else 0.0
    return max(0.0, min(float(cap), -math.log10(err)))


def leaves(cert: Any, path: str = "") -> list[tuple[str, float | None]]:
    """Every certified number with its dotted path (skipping id and procedure)."""
    if isinstance(cert, dict):
        return [x for k, v in cert.items() if k not in ("id", "procedure")
                for x in leaves(v, f"{path}.{k}" if path else k)]
    if isinstance(cert, list):
        return [x for i, v in enumerate(cert) for x in leaves(v, f"{path}.{i}")]
    return [(path, None if cert is None else float(cert))]


def dig(obj: Any, path: str, missing: Any = None) -> Any:
    """The value at a dotted path; `missing` where there is none (so that an absent value never stands for
    a null one)."""
    for part in path.split("."):
        if isinstance(obj, dict) and part in obj:
            obj = obj[part]
        elif isinstance(obj, list) and part.isdigit() and int(part) < len(obj):
            obj = obj[int(part)]
        else:
            return missing
    return obj


def results_by_id(output: Any) -> dict[str, Any]:
    res = output.get("results") if isinstance(output, dict) else None
    if not isinstance(res, list):
        return {}
    return {str(r.get("id")): r for r in res if isinstance(r, dict)}


def analyses(expected: dict[str, Any], got: dict[str, Any]) -> dict[str, tuple[str, float, str]]:
    """Per analysis id: its procedure, the lowest LRE over its certified values, and where it happened."""
    out: dict[str, tuple[str, float, str]] = {}
    for cert in expected.get("results", []):
        proc, aid = cert["procedure"], str(cert["id"])
        mine = got.get(aid)
        for path, value in leaves(cert):
            est = dig(mine, path, missing=MISSING)
            score = lre(est, value, DIGITS[proc])
            if aid not in out or score < out[aid][1]:
                shown = est if isinstance(est, (int, float)) else "nothing" if est is MISSING else type(est).__name__
                out[aid] = (proc, score, f"{aid} {path}: LRE {score:.2f} (reported {shown}, certified {value!r})")
    return out


def worst(expected: dict[str, Any], got: dict[str, Any]) -> dict[str, tuple[float, str]]:
    """Per procedure, the lowest LRE over its analyses and certified values, with where it happened."""
    out: dict[str, tuple[float, str]] = {}
    for proc, score, where in analyses(expected, got).values():
        if proc not in out or score < out[proc][0]:
            out[proc] = (score, where)
    return out


def itemised(checks: dict[str, Any], items: list[str], per: dict[str, tuple[str, float, str]]) -> list[dict[str, Any]]:
    """One record per (check, analysis the case scores as an item): the analysis's worst LRE for the check of
    its procedure; the other checks hold for it vacuously (each item needs a record of every check, and the
    case-wide one would judge it by another analysis)."""
    records = []
    for aid in items:
        if aid not in per:
            continue  # not an analysis (a worked example is one item): the case-wide records cover it
        proc, measured, where = per[aid]
        for name, kind in CHECKS.items():
            if name not in checks:
                continue
            if kind != proc:
                records.append({"check": name, "item": aid, "measured": float(DIGITS[kind]), "pass": True,
                                "detail": f"{aid} is a {proc} analysis"})
                continue
            ok = measured >= float(checks[name]["threshold"])
            records.append({"check": name, "item": aid, "measured": measured, "pass": ok, "detail": f"worst {where}"})
    return records


def main() -> None:
    payload = json.load(sys.stdin)
    checks = payload.get("checks", {})
    per = analyses(payload.get("expected") or {}, results_by_id(payload.get("output")))
    scores = worst(payload.get("expected") or {}, results_by_id(payload.get("output")))
    records = []
    for name, proc in CHECKS.items():
        if name not in checks:
            continue
        threshold = float(checks[name]["threshold"])
        if proc not in scores:
            records.append({"check": name, "measured": float(DIGITS[proc]), "pass": True,
                            "detail": f"no {proc} analysis in this case"})
            continue
        measured, where = scores[proc]
        records.append({"check": name, "measured": measured, "pass": measured >= threshold,
                        "detail": f"worst {where}"})
    records += itemised(checks, [str(i) for i in payload.get("items") or []], per)
    print(json.dumps({"checks": records}))


if __name__ == "__main__":
    main()
