"""Hidden verifier: the log relative error (LRE, NIST StRD / McCullough 1998) of every estimate the candidate
reports against the certified value the case holds; per procedure, the case's worst LRE. Any output is
tolerated: a missing, non-numeric or non-finite estimate has LRE 0 (no correct digit)."""
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


def worst(expected: dict[str, Any], got: dict[str, Any]) -> dict[str, tuple[float, str]]:
    """Per procedure, the lowest LRE over its analyses and certified values, with where it happened."""
    out: dict[str, tuple[float, str]] = {}
    for cert in expected.get("results", []):
        proc = cert["procedure"]
        mine = got.get(str(cert["id"]))
        for path, value in leaves(cert):
            est = dig(mine, path, missing=MISSING)
            score = lre(est, value, DIGITS[proc])
            if proc not in out or score < out[proc][0]:
                shown = est if isinstance(est, (int, float)) else "nothing" if est is MISSING else type(est).__name__
                out[proc] = (score, f"{cert['id']} {path}: LRE {score:.2f} (reported {shown}, certified {value!r})")
    return out


def main() -> None:
    payload = json.load(sys.stdin)
    checks = payload.get("checks", {})
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
    print(json.dumps({"checks": records}))


if __name__ == "__main__":
    main()
