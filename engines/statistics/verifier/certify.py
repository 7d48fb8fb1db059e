"""Certified values of freshly drawn data, computed here in high precision (mpmath, 80 significant digits)
from the data exactly as a candidate reads them (the IEEE doubles the JSON numbers denote): the role NIST's
certified values play for its own datasets. Each result has spec.md's output format, its numbers rounded
once to the nearest double (17 significant digits, far more than the 15 the LRE grades).

The formulas are the definitions of spec.md sections 3-6 evaluated without rounding error that matters: the
normal equations, whose squared condition number costs at most ~30 of the 80 digits on the worst design the
generator draws; nonlinear least squares (in 50 digits) by Gauss-Newton from the true parameters, iterated to
a fixed point and checked to be a strict minimum (gradient nil, J'J positive definite, no lower sum of squares
nearby)."""
from __future__ import annotations

from typing import Any, Callable

import mpmath
from mpmath import mp, mpf

mp.dps = 80
EPS = mpf(2) ** -52


class Uncertifiable(ValueError):
    """Data the generator must draw again (a degenerate fit, a model that does not converge)."""


def _f(v: Any) -> float | None:
    return None if v is None else float(v)


def _noise_floor(ss: mpf, values: list[mpf]) -> None:
    """spec.md section 2 rounds a sum of squares below (n eps ||y||)^2 to 0: drawn data stay far above it, so
    that no certified value depends on which side of the rule a candidate's rounding falls."""
    if ss <= 1e4 * (len(values) * EPS) ** 2 * mpmath.fsum(v * v for v in values):
        raise Uncertifiable("a sum of squares at the exact-zero level")


def _mean(values: list[mpf]) -> mpf:
    return mpmath.fsum(values) / len(values)


def design(x: list[list[float]], degree: int, intercept: bool) -> list[list[mpf]]:
    """Rows of the design matrix of spec.md 3.1, exactly."""
    cols = [[mpf(v) ** k for v in x[0]] for k in range(1, degree + 1)] if degree > 1 else \
        [[mpf(v) for v in c] for c in x]
    if intercept:
        cols = [[mpf(1)] * len(cols[0])] + cols
    return [list(r) for r in zip(*cols)]


def linear(y_in: list[float], x: list[list[float]], degree: int, intercept: bool,
           exact: bool = False) -> dict[str, Any]:
    """Ordinary least squares (spec.md 3.2) by the normal equations in 80 digits. `exact`: data drawn to fit
    exactly up to their rounding to doubles, whose residual quantities spec.md section 2 makes 0 (f null)."""
    y = [mpf(v) for v in y_in]
    rows = design(x, degree, intercept)
    n, p = len(rows), len(rows[0])
    X = mpmath.matrix(rows)
    xtx = X.T * X
    inv = mpmath.inverse(xtx)
    b = inv * (X.T * mpmath.matrix(y))
    res = [y[i] - mpmath.fsum(rows[i][j] * b[j] for j in range(p)) for i in range(n)]
    rss = mpmath.fsum(r * r for r in res)
    if not exact:
        _noise_floor(rss, y)
    elif rss > 1e-4 * (n * EPS) ** 2 * mpmath.fsum(v * v for v in y):  # as far below the rule as others are above
        raise Uncertifiable("not an exact fit")
    else:
        rss = mpf(0)
    if intercept:
        m = _mean(y)
        tss = mpmath.fsum((v - m) ** 2 for v in y)
    else:
        tss = mpmath.fsum(v * v for v in y)
    df_reg, df_res = p - (1 if intercept else 0), n - p
    ms = rss / df_res
    reg = tss - rss
    return {"coefficients": [_f(b[j]) for j in range(p)],
            "standard_errors": [_f(mpmath.sqrt(ms * inv[j, j])) for j in range(p)],
            "residual_sd": _f(mpmath.sqrt(ms)), "r_squared": _f(reg / tss),
            "anova": {"regression": {"df": df_reg, "ss": _f(reg), "ms": _f(reg / df_reg)},
                      "residual": {"df": df_res, "ss": _f(rss), "ms": _f(ms)},
                      "f": _f(reg / df_reg / ms) if ms else None}}


def univariate(y_in: list[float]) -> dict[str, Any]:
    y = [mpf(v) for v in y_in]
    m = _mean(y)
    dev = [v - m for v in y]
    ss = mpmath.fsum(d * d for d in dev)
    _noise_floor(ss, y)
    r1 = mpmath.fsum(dev[i] * dev[i - 1] for i in range(1, len(y))) / ss
    return {"mean": _f(m), "sd": _f(mpmath.sqrt(ss / (len(y) - 1))), "autocorrelation": _f(r1)}


def anova(groups_in: list[list[float]]) -> dict[str, Any]:
    groups = [[mpf(v) for v in g] for g in groups_in]
    everything = [v for g in groups for v in g]
    grand = _mean(everything)
    means = [_mean(g) for g in groups]
    ssb = mpmath.fsum(len(g) * (m - grand) ** 2 for g, m in zip(groups, means))
    ssw = mpmath.fsum((v - m) ** 2 for g, m in zip(groups, means) for v in g)
    _noise_floor(ssb, everything)
    _noise_floor(ssw, everything)
    k, n = len(groups), len(everything)
    msb, msw = ssb / (k - 1), ssw / (n - k)
    return {"between": {"df": k - 1, "ss": _f(ssb), "ms": _f(msb)}, "within": {"df": n - k, "ss": _f(ssw),
            "ms": _f(msw)}, "f": _f(msb / msw), "r_squared": _f(ssb / (ssb + ssw)), "residual_sd": _f(mpmath.sqrt(msw))}


FUNCS = {"exp": mpmath.exp, "log": mpmath.log, "sqrt": mpmath.sqrt, "sin": mpmath.sin, "cos": mpmath.cos,
         "tan": mpmath.tan, "atan": mpmath.atan, "pi": mpmath.pi}


def model_function(expr: str, names: list[str]) -> Callable[[mpf, list[mpf]], mpf]:
    """f(x; b) of a model written in spec.md's grammar. The generator's own models only: their grammar is
    Python's once `^` is `**` (same precedence, right-associative, unary minus below the power) and their
    numbers are exact in binary, so Python's reading of them is the double a candidate reads."""
    code = compile(expr.replace("^", "**"), "<model>", "eval")

    def f(x: mpf, b: list[mpf]) -> mpf:
        return eval(code, {"__builtins__": {}}, {**FUNCS, "x": x, **dict(zip(names, b))})  # noqa: S307
    return f


def _jacobian(f: Callable, xs: list[mpf], b: list[mpf]) -> list[list[mpf]]:
    """Central differences at a step of 1e-18 relative: truncation ~1e-36, rounding ~1e-32, in 50 digits."""
    out = []
    for x in xs:
        row = []
        for j in range(len(b)):
            h = mpf("1e-18") * (abs(b[j]) or 1)
            up, down = list(b), list(b)
            up[j] += h
            down[j] -= h
            row.append((f(x, up) - f(x, down)) / (2 * h))
        out.append(row)
    return out


def _rss(f: Callable, xs: list[mpf], ys: list[mpf], b: list[mpf]) -> mpf:
    return mpmath.fsum((y - f(x, b)) ** 2 for x, y in zip(xs, ys))


def least_squares(f: Callable, xs: list[mpf], ys: list[mpf], b0: list[mpf]) -> tuple[list[mpf], mpf]:
    """Gauss-Newton with step halving from a point near the minimum (the true parameters), to a fixed point
    (relative step below 1e-28)."""
    b, s = list(b0), _rss(f, xs, ys, b0)
    for _ in range(200):
        J = mpmath.matrix(_jacobian(f, xs, b))
        r = mpmath.matrix([y - f(x, b) for x, y in zip(xs, ys)])
        step = mpmath.lu_solve(J.T * J, J.T * r)
        if all(abs(step[j]) <= mpf("1e-28") * abs(b[j]) for j in range(len(b))):
            return b, s  # a fixed point, 11 digits beyond the 17 a double holds
        t = mpf(1)
        while True:
            trial = [b[j] + t * step[j] for j in range(len(b))]
            s_new = _rss(f, xs, ys, trial)
            if s_new <= s or t < 1e-6:
                break
            t /= 2
        if s_new > s:
            if all(abs(step[j]) <= mpf("1e-20") * abs(b[j]) for j in range(len(b))):
                return b, s  # no descent left but rounding's: a fixed point to 20 digits
            raise Uncertifiable("Gauss-Newton does not descend")
        b, s = trial, s_new
    raise Uncertifiable("Gauss-Newton did not converge")


def nonlinear(expr: str, names: list[str], x_in: list[float], y_in: list[float],
              near: list[float]) -> dict[str, Any]:
    """Nonlinear least squares (spec.md 4.3) from `near` (the true parameters), certified to be a minimum, in
    50 digits (the Jacobians the generator's models reach stay below 1e10 in condition)."""
    with mp.workdps(50):
        return _nonlinear(expr, names, x_in, y_in, near)


def _nonlinear(expr: str, names: list[str], x_in: list[float], y_in: list[float],
               near: list[float]) -> dict[str, Any]:
    f = model_function(expr, names)
    xs, ys = [mpf(v) for v in x_in], [mpf(v) for v in y_in]
    b, s = least_squares(f, xs, ys, [mpf(v) for v in near])
    J = mpmath.matrix(_jacobian(f, xs, b))
    r = mpmath.matrix([y - f(x, b) for x, y in zip(xs, ys)])
    grad = J.T * r
    jtj = J.T * J
    scale = [mpmath.sqrt(jtj[j, j]) for j in range(len(b))]
    if any(abs(grad[j]) > mpf("1e-24") * scale[j] * mpmath.sqrt(s) for j in range(len(b))):
        raise Uncertifiable("not a stationary point")
    try:
        mpmath.cholesky(jtj)
    except ValueError:
        raise Uncertifiable("J'J is not positive definite at the solution") from None
    for j in range(len(b)):  # a strict minimum: moving any parameter either way raises S
        for sign in (1, -1):
            moved = list(b)
            moved[j] += sign * mpf("1e-8") * (abs(b[j]) or 1)
            if _rss(f, xs, ys, moved) <= s:
                raise Uncertifiable("not a strict minimum")
    _noise_floor(s, ys)
    n, p = len(xs), len(b)
    inv = mpmath.inverse(jtj)
    s2 = s / (n - p)
    return {"parameters": [_f(v) for v in b], "standard_errors": [_f(mpmath.sqrt(s2 * inv[j, j])) for j in range(p)],
            "residual_ss": _f(s), "residual_sd": _f(mpmath.sqrt(s2))}
