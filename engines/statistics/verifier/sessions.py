"""The public examples ("sessions" of analyses) built from the vendored NIST StRD datasets, as published, with
NIST's certified values. Hidden sessions are not NIST's: fresh.py draws them from the release seed (a NIST
set under any disguise the input alone undoes is answered by a table of NIST's values; cheat/nist-strd is one).
`transformed(seed)` keeps the former disguised NIST sessions for the self-checks that show such a table passes
them.

`python3 sessions.py OUTDIR` writes the three public examples (untransformed datasets)."""
from __future__ import annotations

import json
import random
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import strd

D = Decimal
# (linear, univariate, anova, [(nonlinear, start index)]) per session
PUBLIC = [("Norris", "Lew", "SiRstv", [("Misra1a", 0)]),
          ("Pontius", "Michelso", "SmLs01", [("Chwirut2", 0)]),
          ("NoInt1", "Mavro", "AtmWtAg", [("DanWood", 0)])]
DISGUISED = [("Filip", "NumAcc1", "SmLs02", [("MGH09", 1), ("Eckerle4", 1)]),
          ("Longley", "NumAcc2", "SmLs03", [("Thurber", 0), ("Kirby2", 0)]),
          ("Wampler3", "NumAcc3", "SmLs04", [("Rat43", 1), ("BoxBOD", 1)]),
          ("Wampler4", "NumAcc4", "SmLs05", [("Lanczos3", 1), ("Hahn1", 0)]),
          ("NoInt2", "Lottery", "SmLs06", [("Bennett5", 0), ("ENSO", 0)])]


def _f(v: str | D) -> float:
    return float(D(v))


def _num(v: str | D) -> float | int:
    d = D(v)
    return int(d) if d == d.to_integral_value() and "." not in str(v) and "E" not in str(v).upper() else float(d)


def _power(rng: random.Random | None) -> int:
    """The power of ten a hidden case scales its response by: never 0, so no printed NIST value is reused."""
    return rng.choice([-2, -1, 1, 2]) if rng else 0


def _scaled(cert: Any, powers: dict[str, int], s: D, path: str = "") -> Any:
    """Certified values times s**power (power by field name, default 0), kept as exact decimals."""
    if isinstance(cert, dict):
        return {k: _scaled(v, powers, s, k if k in powers else path) for k, v in cert.items()}
    if isinstance(cert, list):
        return [_scaled(v, powers, s, path) for v in cert]
    return _num(D(cert) * s ** powers.get(path, 0))


def linear(name: str, aid: str, rng: random.Random | None) -> tuple[dict[str, Any], dict[str, Any]]:
    d = strd.load("linear", name)
    n = len(d["y"])
    s = D(10) ** _power(rng)
    order = rng.sample(range(n), n) if rng else list(range(n))
    inp = {"id": aid, "procedure": "linear", "y": [_f(D(d["y"][i]) * s) for i in order],
           "x": [[_f(col[i]) for i in order] for col in d["x"]], "degree": d["degree"], "intercept": d["intercept"]}
    powers = {"coefficients": 1, "standard_errors": 1, "residual_sd": 1, "ss": 2, "ms": 2}
    return inp, {"id": aid, "procedure": "linear", **_scaled(d["cert"], powers, s)}


def univariate(name: str, aid: str, rng: random.Random | None) -> tuple[dict[str, Any], dict[str, Any]]:
    d = strd.load("univariate", name)
    s = D(10) ** _power(rng)
    sign = -1 if D(d["cert"]["mean"]) < 0 else 1
    c = D(sign * rng.randint(0, 999)) * s if rng else D(0)
    cert = {"mean": _num(D(d["cert"]["mean"]) * s + c), "sd": _num(D(d["cert"]["sd"]) * s),
            "autocorrelation": _num(d["cert"]["autocorrelation"])}
    return ({"id": aid, "procedure": "univariate", "y": [_f(D(v) * s + c) for v in d["y"]]},
            {"id": aid, "procedure": "univariate", **cert})


def anova(name: str, aid: str, rng: random.Random | None) -> tuple[dict[str, Any], dict[str, Any]]:
    d = strd.load("anova", name)
    s = D(10) ** _power(rng)
    c = D(rng.randint(-99, 99)) * s if rng else D(0)
    groups = [[D(v) * s + c for v in g] for g in d["groups"]]
    if rng:
        groups = [rng.sample(g, len(g)) for g in rng.sample(groups, len(groups))]
    powers = {"ss": 2, "ms": 2, "residual_sd": 1}
    return ({"id": aid, "procedure": "anova", "groups": [[_f(v) for v in g] for g in groups]},
            {"id": aid, "procedure": "anova", **_scaled(d["cert"], powers, s)})


def nonlinear(name: str, start: int, aid: str, rng: random.Random | None) -> tuple[dict[str, Any], dict[str, Any]]:
    d = strd.load("nonlinear", name)
    n = len(d["y"])
    lin = strd.LINEAR_PARAMS.get(name, [])
    s = D(10) ** _power(rng) if lin else D(1)
    order = rng.sample(range(n), n) if rng else list(range(n))
    b0 = [D(v) * (s if i in lin else 1) for i, v in enumerate(d["starts"][start])]
    cert = d["cert"]
    scaled = lambda vals: [_num(D(v) * (s if i in lin else 1)) for i, v in enumerate(vals)]  # noqa: E731
    exp = {"parameters": scaled(cert["parameters"]), "standard_errors": scaled(cert["standard_errors"]),
           "residual_ss": _num(D(cert["residual_ss"]) * s * s), "residual_sd": _num(D(cert["residual_sd"]) * s)}
    inp = {"id": aid, "procedure": "nonlinear", "model": d["model"], "parameters": d["parameters"],
           "start": [_f(v) for v in b0], "x": [_f(d["x"][i]) for i in order],
           "y": [_f(D(d["y"][i]) * s) for i in order]}
    return inp, {"id": aid, "procedure": "nonlinear", **exp}


def session(spec: tuple[str, str, str, list[tuple[str, int]]], rng: random.Random | None) -> dict[str, Any]:
    lin, uni, aov, nl = spec
    pairs = [linear(lin, "a1", rng), univariate(uni, "a2", rng), anova(aov, "a3", rng)]
    pairs += [nonlinear(name, start, f"a{4 + i}", rng) for i, (name, start) in enumerate(nl)]
    return {"input": {"analyses": [p[0] for p in pairs]}, "expected": {"results": [p[1] for p in pairs]}}


def transformed(seed: int) -> list[dict[str, Any]]:
    """NIST sets scaled, shifted and permuted (the hidden sessions before they were drawn fresh)."""
    rng = random.Random(seed)
    return [{"id": f"h{i + 1}", **session(spec, rng)} for i, spec in enumerate(DISGUISED)]


def public() -> list[dict[str, Any]]:
    return [{"id": f"e{i + 1}", **session(spec, None)} for i, spec in enumerate(PUBLIC)]


if __name__ == "__main__":
    out = Path(sys.argv[1])
    for case in public():
        text = json.dumps({"input": case["input"], "expected": case["expected"]})
        (out / f"{case['id']}.json").write_text(text + "\n")
