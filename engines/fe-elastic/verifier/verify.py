"""Hidden verifier: the candidate's displacements and reactions against CalculiX's, equilibrium K u - f
recomputed from the candidate's displacements with the verifier's own stiffness, prescribed DOFs held."""
from __future__ import annotations

import json
import math
import sys
from typing import Any

import numpy as np

from stiffness import assemble


def _array(x: Any, shape: tuple[int, ...]) -> np.ndarray | None:
    """x as a finite float array of that shape, or None (any malformed output)."""
    try:
        a = np.array(x, dtype=float)
    except (ValueError, TypeError, OverflowError):
        return None
    return a if a.shape == shape and np.all(np.isfinite(a)) and np.all(np.abs(a) < 1e150) else None


def _rel(a: np.ndarray | None, b: np.ndarray, floor: float) -> float | None:
    return None if a is None else float(np.linalg.norm(a - b) / max(np.linalg.norm(b), floor))


def measure(inp: dict, expected: dict, out: Any) -> dict[str, tuple[float | None, str]]:
    nn, nf = len(inp["nodes"]), len(inp["fixed"])
    out = out if isinstance(out, dict) else {}
    u = _array(out.get("displacements"), (nn, 3))
    r = _array(out.get("reactions"), (nf,))
    ue, re_ = np.array(expected["displacements"], dtype=float), np.array(expected["reactions"], dtype=float)
    K, f, where = assemble(inp)
    fixed = np.array([3 * where[int(n)] + int(d) - 1 for n, d, _ in inp["fixed"]], dtype=int)
    free = np.setdiff1d(np.arange(3 * nn), fixed)
    scale_u = max(float(np.abs(ue).max()), 1e-300)
    res: dict[str, tuple[float | None, str]] = {
        "displacement_error": (_rel(u, ue, 1e-300), "||u - u_ccx|| / ||u_ccx|| over all DOFs"),
        "reaction_error": (_rel(r, re_, max(np.linalg.norm(f), 1e-300)), "||R - R_ccx|| / ||R_ccx|| at prescribed DOFs"),
    }
    if u is None:
        bad = "displacements missing or not an N x 3 array of finite numbers"
        return {**res, "equilibrium_residual": (None, bad), "prescribed_dofs": (None, bad)}
    flat = u.ravel()
    with np.errstate(all="ignore"):
        Ku = K @ flat
        resid = np.linalg.norm((Ku - f)[free]) / max(np.linalg.norm(f[free]) + np.linalg.norm(Ku[fixed]), 1e-300)
    want = np.array([float(v) for _, _, v in inp["fixed"]])
    gap = float(np.abs(flat[fixed] - want).max() / scale_u) if len(fixed) else 0.0
    res["equilibrium_residual"] = (float(resid) if math.isfinite(resid) else None,
                                   "||(K u - f)_free|| / (||f_free|| + ||(K u)_prescribed||), K assembled here")
    res["prescribed_dofs"] = (gap, "max |u - prescribed| / max |u_ccx| at prescribed DOFs (must be <= 1e-9)")
    return res


def main() -> None:
    d = json.load(sys.stdin)
    got = measure(d["input"], d["expected"], d.get("output"))
    records = []
    for name, spec in d["checks"].items():
        value, why = got.get(name, (None, "unknown check"))
        if spec["kind"] == "tolerance":
            ok = value is not None and (value <= spec["threshold"] if spec["better"] == "lower" else value >= spec["threshold"])
        else:
            ok = value is not None and value <= 1e-9
        records.append({"check": name, "measured": value, "pass": bool(ok), "detail": why})
    print(json.dumps({"checks": records}))


if __name__ == "__main__":
    main()
