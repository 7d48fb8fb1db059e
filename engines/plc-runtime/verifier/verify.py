"""Hidden verifier of the PLC runtime: the candidate's per-scan output trace must equal the expected trace
cell for cell (same scans, same output names, same JSON types); a program the spec refuses must be refused."""
import json
import sys
from typing import Any


def same(got: Any, want: Any) -> bool:
    """Equal and of the same JSON type: TRUE is not 1, 1 is not 1.0."""
    return type(got) is type(want) and got == want


def mismatches(output: Any, expected: dict) -> tuple[int, str]:
    """The number of wrong cells (a missing scan counts every cell of it) and the first one."""
    if expected.get("error"):
        ok = isinstance(output, dict) and isinstance(output.get("error"), str) and output["error"].strip() \
            and "trace" not in output
        return (0, "program refused as required") if ok else (1, "expected {\"error\": ...} and no trace")
    want = expected["trace"]
    got = output.get("trace") if isinstance(output, dict) else None
    if not isinstance(got, list):
        return sum(len(r) for r in want) or 1, "no trace list"
    bad, first = 0, ""
    for k, row in enumerate(want):
        have = got[k] if k < len(got) else None
        if not isinstance(have, dict):
            bad += len(row)
            first = first or f"scan {k}: no object"
            continue
        for name, value in row.items():
            if name not in have or not same(have[name], value):
                bad += 1
                first = first or f"scan {k} {name}: got {str(have.get(name, 'nothing'))[:40]}, expected {value}"
        extra = sorted(set(have) - set(row))
        if extra:
            bad += len(extra)
            first = first or f"scan {k}: undeclared outputs {extra[:3]}"
    if len(got) != len(want):
        bad += abs(len(got) - len(want))
        first = first or f"{len(got)} scans, expected {len(want)}"
    return bad, first or "trace equal cell for cell"


def main() -> None:
    d = json.load(sys.stdin)
    try:
        bad, detail = mismatches(d.get("output"), d["expected"])
    except Exception as e:  # any malformed output is a failure, never a crash
        bad, detail = 1, f"malformed output: {type(e).__name__}"
    print(json.dumps({"checks": [{"check": "trace_exact", "measured": bad, "pass": bad == 0,
                                  "detail": detail[:300]}]}))


main()
