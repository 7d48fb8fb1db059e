"""Build-time expected fields for a case (not run by the grader): the reference solver on the grid refined
3x and 5x (odd factors, so the coarse faces and centres are fine-grid points), Richardson-extrapolated to
second order, (25 f5 - 9 f3) / 16, restricted to the case's own grid. Usage: make_expected.py CASE.json..."""
from __future__ import annotations

import copy
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ns2d import solve  # noqa: E402


def restricted(case: dict, r: int) -> tuple[np.ndarray, ...]:
    fine = copy.deepcopy(case)
    fine["domain"]["nx"] *= r
    fine["domain"]["ny"] *= r
    f = solve(fine)
    h = r // 2
    return np.array(f["u"])[h::r, ::r], np.array(f["v"])[::r, h::r], np.array(f["p"])[h::r, h::r]


def expected(case: dict) -> dict:
    f3, f5 = restricted(case, 3), restricted(case, 5)
    u, v, p = ((25 * b - 9 * a) / 16 for a, b in zip(f3, f5))
    if case["boundaries"]["right"]["type"] != "outlet":
        p = p - p.mean()
    return {"u": np.round(u, 7).tolist(), "v": np.round(v, 7).tolist(), "p": np.round(p, 7).tolist()}


if __name__ == "__main__":
    for name in sys.argv[1:]:
        t = time.time()
        doc = json.loads(Path(name).read_text())
        doc["expected"] = expected(doc["input"])
        Path(name).write_text(json.dumps(doc) + "\n")
        print(f"{name}: {time.time() - t:.0f} s", flush=True)
