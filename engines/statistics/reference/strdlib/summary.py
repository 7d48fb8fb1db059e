"""Univariate summary statistics and one-way ANOVA (spec.md sections 5 and 6), by two-pass algorithms:
the mean is corrected by the mean of the deviations before any sum of squares is formed."""
from __future__ import annotations

import math
from typing import Any

import numpy as np


EPS = 2.0 ** -52  # double precision's unit roundoff (twice of)


def negligible(ss: float, values: np.ndarray) -> bool:
    """A sum of squares of n deviations that is rounding noise, not data (spec.md section 2): at most
    (n * eps * ||values||)^2. An exact fit computes as 0 on one CPU and 3e-30 on another (the BLAS kernel's
    summation order); the rule decides both alike, and real data sit many orders of magnitude above it."""
    n = values.size
    return ss <= (n * EPS * float(np.linalg.norm(values))) ** 2


def mean(y: np.ndarray) -> float:
    m = float(y.sum() / y.size)
    return m + float((y - m).sum() / y.size)


def univariate(analysis: dict[str, Any]) -> dict[str, Any]:
    y = np.asarray(analysis["y"], dtype=float)
    m = mean(y)
    dev = y - m
    ss = float(dev @ dev)
    if negligible(ss, y):
        ss = 0.0
    return {"mean": m, "sd": math.sqrt(ss / (y.size - 1)) if y.size > 1 else None,
            "autocorrelation": float(dev[1:] @ dev[:-1]) / ss if ss > 0 else None}


def anova(analysis: dict[str, Any]) -> dict[str, Any]:
    groups = [np.asarray(g, dtype=float) for g in analysis["groups"]]
    everything = np.concatenate(groups)
    grand = mean(everything)
    means = [mean(g) for g in groups]
    ss_b = float(sum(g.size * (m - grand) ** 2 for g, m in zip(groups, means)))
    ss_w = float(sum(((g - m) ** 2).sum() for g, m in zip(groups, means)))
    ss_w = 0.0 if negligible(ss_w, everything) else ss_w
    ss_b = 0.0 if negligible(ss_b, everything) else ss_b
    df_b, df_w = len(groups) - 1, everything.size - len(groups)
    ms_b, ms_w = ss_b / df_b, ss_w / df_w
    return {"between": {"df": df_b, "ss": ss_b, "ms": ms_b}, "within": {"df": df_w, "ss": ss_w, "ms": ms_w},
            "f": ms_b / ms_w if ms_w > 0 else None,
            "r_squared": ss_b / (ss_b + ss_w) if ss_b + ss_w > 0 else None, "residual_sd": math.sqrt(ms_w)}
