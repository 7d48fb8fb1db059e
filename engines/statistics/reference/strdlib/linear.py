"""Linear least squares (spec.md section 3): Householder QR of the column-equilibrated design matrix with
one step of iterative refinement; the ANOVA table, R^2 and standard errors follow from the residuals."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from strdlib.summary import negligible


def design(analysis: dict[str, Any]) -> np.ndarray:
    """Columns: the intercept (if any), then x1..xp, or x, x^2, ..., x^d for a polynomial."""
    xs = [np.asarray(col, dtype=float) for col in analysis["x"]]
    degree = int(analysis.get("degree", 1))
    cols = [xs[0] ** k for k in range(1, degree + 1)] if degree > 1 else xs
    if analysis.get("intercept", True):
        cols = [np.ones_like(xs[0])] + cols
    return np.column_stack(cols)


def fit(analysis: dict[str, Any]) -> dict[str, Any]:
    y = np.asarray(analysis["y"], dtype=float)
    X = design(analysis)
    n, p = X.shape
    scale = np.linalg.norm(X, axis=0)
    q, r = np.linalg.qr(X / scale)
    b = np.linalg.solve(r, q.T @ y)
    b = b + np.linalg.solve(r, q.T @ (y - (X / scale) @ b))
    rinv = np.linalg.inv(r)
    cov_unscaled = (rinv @ rinv.T) / np.outer(scale, scale)
    coef = b / scale
    res = y - X @ coef
    rss = float(res @ res)
    exact = negligible(rss, y)  # an exact fit, up to rounding: every residual quantity is 0 and F undefined
    rss = 0.0 if exact else rss
    intercept = bool(analysis.get("intercept", True))
    if intercept:
        mean = y.mean()
        mean += (y - mean).mean()
        tss = float(((y - mean) ** 2).sum())
    else:
        tss = float(y @ y)
    df_reg, df_res = p - (1 if intercept else 0), n - p
    ms_res = rss / df_res
    reg_ss = tss - rss
    return {"coefficients": coef.tolist(),
            "standard_errors": (np.zeros(p) if exact else np.sqrt(ms_res * np.diag(cov_unscaled))).tolist(),
            "residual_sd": math.sqrt(ms_res), "r_squared": 1.0 - rss / tss,
            "anova": {"regression": {"df": df_reg, "ss": reg_ss, "ms": reg_ss / df_reg},
                      "residual": {"df": df_res, "ss": rss, "ms": ms_res},
                      "f": (reg_ss / df_reg) / ms_res if ms_res > 0 else None}}
