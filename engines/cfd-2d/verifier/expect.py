"""Expected fields of a cfd-2d case: the reference solver (reference/ns2d.py, which the check lays beneath
the verifier's files when it runs generate.py and expect.py) on the case's grid refined 3x and 5x (odd factors, so that the coarse faces and
centres are fine-grid points), Richardson-extrapolated to second order, (25 f5 - 9 f3) / 16, restricted to the
case's grid; the pressure de-meaned in a closed cavity. stdin {"input"} -> stdout {"expected": {u, v, p}}.
reference/make_expected.py wrote the public examples' fields the same way."""
from __future__ import annotations

import copy
import json
import sys

import numpy as np

from ns2d import solve


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
    print(json.dumps({"expected": expected(json.load(sys.stdin)["input"])}))
