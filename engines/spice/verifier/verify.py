"""Hidden verifier of the SPICE engine: the relative RMS error of every probed waveform of the candidate's
output against ngspice's (the case's expected values, computed by expect.py). Any output is tolerated:
a malformed one is measured as failing, never an exception."""
from __future__ import annotations

import json
import math
import sys
from typing import Any

import numpy as np

CHECK = "waveform_error"
FLOOR = 1e-9  # volts or amperes: the RMS below which a reference waveform counts as zero


def as_array(v: Any, ac: bool, n: int) -> np.ndarray:
    """The candidate's waveform as a finite array of length n (complex for AC), or ValueError."""
    if ac:
        if not isinstance(v, dict):
            raise ValueError("an AC signal is {re: [...], im: [...]}")
        re_, im = as_array(v.get("re"), False, n), as_array(v.get("im"), False, n)
        return re_ + 1j * im
    if not isinstance(v, list) or len(v) != n:
        raise ValueError(f"expected a list of {n} numbers")
    if not all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in v):
        raise ValueError("non-numeric entries")
    a = np.array(v, dtype=float)
    if not np.all(np.isfinite(a)):
        raise ValueError("non-finite entries")
    return a


def expected_array(v: Any) -> np.ndarray:
    return np.array(v["re"]) + 1j * np.array(v["im"]) if isinstance(v, dict) else np.array(v, dtype=float)


def rel_rms(got: np.ndarray, want: np.ndarray) -> float:
    with np.errstate(all="ignore"):
        num = math.sqrt(float(np.mean(np.abs(got - want) ** 2)))
        den = max(math.sqrt(float(np.mean(np.abs(want) ** 2))), FLOOR)
    return num / den if math.isfinite(num) else math.inf


def measure(inp: dict, exp: dict, out: Any) -> tuple[float | None, str]:
    """(worst relative RMS error over the probes, why); None when the output cannot be measured."""
    if not isinstance(out, dict) or not isinstance(out.get("signals"), dict):
        return None, "output has no `signals` object"
    xs = np.array(exp["x"], dtype=float)
    try:
        x = as_array(out.get("x"), False, len(xs))
    except ValueError as e:
        return None, f"x: {e}"
    if not np.allclose(x, xs, rtol=1e-6, atol=1e-12 * max(1.0, float(np.max(np.abs(xs))))):
        return None, "x is not the grid the analysis card defines"
    ac, worst, where = exp["analysis"] == "ac", 0.0, ""
    for p in inp["probes"]:
        try:
            got = as_array(out["signals"].get(p), ac, len(xs))
        except ValueError as e:
            return None, f"signals[{p!r}]: {e}"
        err = rel_rms(got, expected_array(exp["signals"][p]))
        if not math.isfinite(err):
            return None, f"signals[{p!r}]: error overflows"
        if err >= worst:
            worst, where = err, p
    return worst, f"worst probe {where}: relative RMS error {worst:.3g}"


def main() -> None:
    d = json.load(sys.stdin)
    threshold = float(d["checks"][CHECK]["threshold"])
    try:
        measured, detail = measure(d["input"], d["expected"], d.get("output"))
    except Exception as e:  # noqa: BLE001 - untrusted output never crashes the verifier
        measured, detail = None, f"unmeasurable output: {type(e).__name__}"
    ok = measured is not None and measured <= threshold
    print(json.dumps({"checks": [{"check": CHECK, "measured": measured, "pass": ok, "detail": detail}]}))


if __name__ == "__main__":
    main()
