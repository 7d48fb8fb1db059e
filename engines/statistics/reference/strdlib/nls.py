"""Nonlinear least squares (spec.md section 4): Levenberg-Marquardt with Marquardt's diagonal scaling and
the analytic Jacobian from expr.py, polished by Gauss-Newton steps; standard errors from s^2 (J'J)^-1."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from strdlib.expr import Node, evaluate, model


def _residuals(tree: Node, x: np.ndarray, y: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    f, g = evaluate(tree, x, b)
    jac = g if g is not None else np.zeros((x.size, b.size))
    return y - f, jac


def _rss(r: np.ndarray) -> float:
    return float(r @ r) if np.all(np.isfinite(r)) else math.inf


def _step(jac: np.ndarray, r: np.ndarray, lam: float) -> np.ndarray:
    """Solve min |J d - r|^2 + lam |D d|^2 (D = column norms of J) as one augmented least-squares problem."""
    d = np.linalg.norm(jac, axis=0)
    d[d == 0] = 1.0
    a = np.vstack([jac / d, math.sqrt(lam) * np.eye(jac.shape[1])]) if lam > 0 else jac / d
    rhs = np.concatenate([r, np.zeros(jac.shape[1])]) if lam > 0 else r
    sol, *_ = np.linalg.lstsq(a, rhs, rcond=None)
    return sol / d


def levenberg_marquardt(tree: Node, x: np.ndarray, y: np.ndarray, b0: np.ndarray,
                        max_iter: int = 5000) -> np.ndarray:
    """The least-squares estimate reached from b0."""
    b, lam = b0.astype(float).copy(), 1e-3
    r, jac = _residuals(tree, x, y, b)
    rss = _rss(r)
    for _ in range(max_iter):
        if not np.all(np.isfinite(jac)):
            break
        delta = _step(jac, r, lam)
        trial = b + delta
        r_new, jac_new = _residuals(tree, x, y, trial)
        rss_new = _rss(r_new)
        if rss_new < rss:
            small = (rss - rss_new) <= 1e-15 * rss and np.all(np.abs(delta) <= 1e-12 * (np.abs(b) + 1e-30))
            b, r, jac, rss, lam = trial, r_new, jac_new, rss_new, max(lam / 10.0, 1e-12)
            if small:
                break
        else:
            lam *= 10.0
            if lam > 1e16:
                break
    return _polish(tree, x, y, b, rss)


def _polish(tree: Node, x: np.ndarray, y: np.ndarray, b: np.ndarray, rss: float) -> np.ndarray:
    """A few undamped Gauss-Newton steps, kept while they do not increase the residual sum of squares beyond
    its rounding (the residuals y - f cancel: their rounding is eps |y|, not eps |r|). Near the minimum S is
    flat to rounding over a region ~sqrt(eps) wide, where comparing sums of squares cannot tell better from
    worse (and which point of it an iteration stops at depends on the CPU's summation order); the
    Gauss-Newton step, computed from J'r, still points at the minimum itself."""
    noise = 4 * 2.0 ** -52 * math.sqrt(rss) * float(np.linalg.norm(y))  # S's rounding: 2 sum r_i dr_i, dr_i ~ eps y_i
    for _ in range(5):
        r, jac = _residuals(tree, x, y, b)
        trial = b + _step(jac, r, 0.0)
        rss_new = _rss(_residuals(tree, x, y, trial)[0])
        if not rss_new <= rss + noise:
            break
        b, rss = trial, min(rss, rss_new)
    return b


def fit(analysis: dict[str, Any]) -> dict[str, Any]:
    names = [str(p) for p in analysis["parameters"]]
    tree = model(str(analysis["model"]), names)
    x = np.asarray(analysis["x"], dtype=float)
    y = np.asarray(analysis["y"], dtype=float)
    b = levenberg_marquardt(tree, x, y, np.asarray(analysis["start"], dtype=float))
    r, jac = _residuals(tree, x, y, b)
    n, p = jac.shape
    rss = float(r @ r)
    s2 = rss / (n - p)
    d = np.linalg.norm(jac, axis=0)
    d[d == 0] = 1.0
    _, sv, vt = np.linalg.svd(jac / d, full_matrices=False)
    cov = (vt.T / sv ** 2) @ vt / np.outer(d, d)
    return {"parameters": b.tolist(), "standard_errors": np.sqrt(s2 * np.diag(cov)).tolist(),
            "residual_ss": rss, "residual_sd": math.sqrt(s2)}
