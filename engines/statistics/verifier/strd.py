"""Parse vendored NIST StRD files (verifier/nist/*.dat) into data and certified values, all kept as exact
decimal strings so that transformed cases can carry exactly derived certified values."""
from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

NIST = Path(__file__).resolve().parent / "nist"
NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"

# Nonlinear models, rewritten from each file's "y = ..." line into spec.md's expression grammar; a mistyped
# model cannot reproduce the certified values, which the reference checks on every build.
NLS_MODELS = {
    "Misra1a": "b1*(1-exp(-b2*x))",
    "Chwirut2": "exp(-b1*x)/(b2+b3*x)",
    "DanWood": "b1*x^b2",
    "MGH09": "b1*(x^2+x*b2)/(x^2+x*b3+b4)",
    "Thurber": "(b1+b2*x+b3*x^2+b4*x^3)/(1+b5*x+b6*x^2+b7*x^3)",
    "BoxBOD": "b1*(1-exp(-b2*x))",
    "Eckerle4": "(b1/b2)*exp(-0.5*((x-b3)/b2)^2)",
    "Rat43": "b1/((1+exp(b2-b3*x))^(1/b4))",
    "Kirby2": "(b1+b2*x+b3*x^2)/(1+b4*x+b5*x^2)",
    "Lanczos3": "b1*exp(-b2*x)+b3*exp(-b4*x)+b5*exp(-b6*x)",
    "Bennett5": "b1*(b2+x)^(-1/b3)",
    "Hahn1": "(b1+b2*x+b3*x^2+b4*x^3)/(1+b5*x+b6*x^2+b7*x^3)",
    "ENSO": "b1+b2*cos(2*pi*x/12)+b3*sin(2*pi*x/12)+b5*cos(2*pi*x/b4)+b6*sin(2*pi*x/b4)"
            "+b8*cos(2*pi*x/b7)+b9*sin(2*pi*x/b7)",
}
# parameters in which each model is linear (y = sum of b_j * g_j(x; others)): scaling y by s scales these
# parameters and their standard errors by s and leaves the others and their standard errors unchanged
LINEAR_PARAMS = {"Misra1a": [0], "DanWood": [0], "MGH09": [0], "Thurber": [0, 1, 2, 3],
                 "BoxBOD": [0], "Eckerle4": [0], "Rat43": [0], "Kirby2": [0, 1, 2],
                 "Lanczos3": [0, 2, 4], "Bennett5": [0], "Hahn1": [0, 1, 2, 3],
                 "ENSO": [0, 1, 2, 4, 5, 7, 8]}


def _lines(name: str) -> list[str]:
    return (NIST / f"{name}.dat").read_text().replace("\r", "").split("\n")


def _after(lines: list[str], pattern: str) -> str:
    """The first number on the first line matching `pattern` (after the match)."""
    for ln in lines:
        m = re.search(pattern, ln)
        if m:
            return re.findall(NUM, ln[m.end():])[0]
    raise ValueError(f"no line matching {pattern!r}")


def _rows(lines: list[str], start: int, width: int) -> list[list[str]]:
    out = []
    for ln in lines[start:]:
        nums = re.findall(NUM, ln)
        if len(nums) == width and ln.strip():
            out.append(nums)
    return out


def _data_start(lines: list[str], pattern: str) -> int:
    idx = [i for i, ln in enumerate(lines) if re.search(pattern, ln)]
    if not idx:
        raise ValueError(f"no data header matching {pattern!r}")
    return idx[-1] + 1


def linear(name: str) -> dict[str, Any]:
    lines = _lines(name)
    model = next(ln for ln in lines if re.match(r"\s+y\s*=\s*B", ln))
    intercept = "B0" in model
    coef = [ln.split()[1:3] for ln in lines if re.match(r"\s+B\d+\s+" + NUM + r"\s+" + NUM + r"\s*$", ln)]
    start = _data_start(lines, r"^Data:\s+y\s+x")
    header = lines[start - 1].split()[1:]
    rows = _rows(lines, start, len(header))
    xs = [[r[j] for r in rows] for j in range(1, len(header))]
    k = len(coef) - (1 if intercept else 0)
    degree = k if len(xs) == 1 else 1
    reg = re.findall(NUM, next(ln for ln in lines if ln.startswith("Regression")))
    res = re.findall(NUM, next(ln for ln in lines if ln.startswith("Residual ")))
    cert = {"coefficients": [c[0] for c in coef], "standard_errors": [c[1] for c in coef],
            "residual_sd": _after(lines, r"^\s+Standard Deviation\s"),
            "r_squared": _after(lines, r"R-Squared"),
            "anova": {"regression": {"df": reg[0], "ss": reg[1], "ms": reg[2]},
                      "residual": {"df": res[0], "ss": res[1], "ms": res[2]}, "f": reg[3]}}
    return {"name": name, "procedure": "linear", "y": [r[0] for r in rows], "x": xs, "degree": degree,
            "intercept": intercept, "cert": cert}


def nonlinear(name: str) -> dict[str, Any]:
    lines = _lines(name)
    pars = [re.findall(NUM, ln.split("=", 1)[1]) for ln in lines if re.match(r"\s+b\d+\s*=", ln)]
    start = _data_start(lines, r"^Data:\s+y\s+x\s*$")
    rows = _rows(lines, start, 2)
    cert = {"parameters": [p[2] for p in pars], "standard_errors": [p[3] for p in pars],
            "residual_ss": _after(lines, r"Residual Sum of Squares:"),
            "residual_sd": _after(lines, r"Residual Standard Deviation:")}
    return {"name": name, "procedure": "nonlinear", "model": NLS_MODELS[name],
            "parameters": [f"b{i + 1}" for i in range(len(pars))],
            "starts": [[p[0] for p in pars], [p[1] for p in pars]],
            "y": [r[0] for r in rows], "x": [r[1] for r in rows], "cert": cert}


def univariate(name: str) -> dict[str, Any]:
    lines = _lines(name)
    start = _data_start(lines, r"^-{5,}")
    cert = {k: _after(lines, pat + r".*:") for k, pat in
            (("mean", "^Sample Mean"), ("sd", "^Sample Standard Deviation"), ("autocorrelation", "^Sample Autocorr"))}
    return {"name": name, "procedure": "univariate", "y": [r[0] for r in _rows(lines, start, 1)], "cert": cert}


def anova(name: str) -> dict[str, Any]:
    lines = _lines(name)
    between = re.findall(NUM, next(ln for ln in lines if ln.startswith("Between")))
    within = re.findall(NUM, next(ln for ln in lines if ln.startswith("Within")))
    start = _data_start(lines, r"^Data:\s+\S+\s+\S+\s*$")
    groups: dict[str, list[str]] = {}
    for label, value in _rows(lines, start, 2):
        groups.setdefault(label, []).append(value)
    cert = {"between": {"df": between[0], "ss": between[1], "ms": between[2]},
            "within": {"df": within[0], "ss": within[1], "ms": within[2]}, "f": between[3],
            "r_squared": _after(lines, r"Certified R-Squared"),
            "residual_sd": _after(lines, r"^\s+Standard Deviation")}
    return {"name": name, "procedure": "anova", "groups": list(groups.values()), "cert": cert}


PARSERS = {"linear": linear, "nonlinear": nonlinear, "univariate": univariate, "anova": anova}


def load(procedure: str, name: str) -> dict[str, Any]:
    """One vendored dataset; certified values and data as exact decimal strings."""
    d = PARSERS[procedure](name)
    _sanity(d)
    return d


def _sanity(d: dict[str, Any]) -> None:
    for v in _flat(d["cert"]):
        Decimal(v)
    if d["procedure"] == "linear":
        assert len(d["cert"]["coefficients"]) == (d["degree"] if len(d["x"]) == 1 else len(d["x"])) + d["intercept"]


def _flat(obj: Any) -> list[str]:
    if isinstance(obj, dict):
        return [v for x in obj.values() for v in _flat(x)]
    if isinstance(obj, list):
        return [v for x in obj for v in _flat(x)]
    return [obj]
