"""Property tests: the judge never raises, fast and slow paths agree, both match a spec oracle."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swr.judge import Tolerances, compare, equal, structure
from swr.judge.compare import compare_slow

SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(SETTINGS, max_examples=100)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([10**400, -(10**400), 2**63, 0, 1, -1]),
    st.floats(),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0, 5e-324]),
    st.text(max_size=8),
)
keys = st.one_of(st.sampled_from(["a", "b", "x", "samples", "t"]), st.text(max_size=6))
json_values = st.recursive(
    scalars,
    lambda kids: st.one_of(st.lists(kids, max_size=6), st.dictionaries(keys, kids, max_size=6)),
    max_leaves=40,
)
tolerances = st.builds(
    Tolerances,
    atol=st.sampled_from([0.0, 1e-6, 0.5]),
    rtol=st.sampled_from([0.0, 1e-4, 1e-2, 1e3]),
    ignore=st.lists(st.sampled_from(["t", "a.b", "*.x", "samples.*.t"]), max_size=2).map(tuple),
    fields=st.lists(
        st.tuples(
            st.sampled_from(["a", "*.x", "samples.*", "samples.*.x", "b.*"]),
            st.sampled_from([None, 0.0, 1.0]),
            st.sampled_from([None, 0.0, 0.1]),
        ),
        max_size=3,
    ).map(tuple),
)


def _kind(x: Any) -> str:
    return {
        bool: "bool",
        int: "number",
        float: "number",
        str: "string",
        dict: "dict",
        list: "list",
        type(None): "null",
    }[type(x)]


def _leaves(x: Any, path: tuple, tol: Tolerances) -> int:
    if tol.for_path(path) is None:
        return 0
    if isinstance(x, dict):
        return sum(_leaves(v, path + (k,), tol) for k, v in x.items())
    if isinstance(x, list):
        return sum(_leaves(v, path + (i,), tol) for i, v in enumerate(x))
    return 1


def _float_rule(r: float, c: Any, atol: float, rtol: float) -> bool:
    if math.isnan(r) or math.isinf(r):
        return (math.isnan(r) and c != c) or c == r
    try:
        c = float(c)
    except OverflowError:
        return False
    if not math.isfinite(c):
        return False
    d, lim = abs(c - r), atol + rtol * abs(r)
    if math.isinf(d) or math.isinf(lim):  # the spec is about reals: decide exactly
        return abs(Fraction(c) - Fraction(r)) <= Fraction(atol) + Fraction(rtol) * abs(Fraction(r))
    return d <= lim


def oracle(r: Any, c: Any, tol: Tolerances, path: tuple = ()) -> tuple[bool, int, int]:
    """A direct, recursive reading of DESIGN.md's rules: (ok, matched, total)."""
    if tol.for_path(path) is None:
        return True, 0, 0
    n = _leaves(r, path, tol)
    if r is None or c is None:
        ok = r is None and c is None
        return ok, int(ok), n
    if _kind(r) != _kind(c):
        return False, 0, n
    if isinstance(r, dict):
        subs = [
            oracle(v, c[k], tol, path + (k,)) if k in c else (False, 0, _leaves(v, path + (k,), tol))
            for k, v in r.items()
            if tol.for_path(path + (k,)) is not None
        ]
        return all(s[0] for s in subs), sum(s[1] for s in subs), sum(s[2] for s in subs)
    if isinstance(r, list):
        if len(r) != len(c):
            return False, 0, n
        subs = [oracle(v, w, tol, path + (i,)) for i, (v, w) in enumerate(zip(r, c))]
        return all(s[0] for s in subs), sum(s[1] for s in subs), sum(s[2] for s in subs)
    if type(r) is float:
        ok = _float_rule(r, c, *tol.for_path(path))
    else:
        ok = r == c
    return ok, int(ok), 1


def perturb(x: Any, rnd: random.Random, scale: float, mut: float = 0.03) -> Any:
    """Near-equal copy: floats scaled by up to `scale`; with probability `mut` per node a
    type change, dropped/added key, shortened list, shifted float or int-to-float."""
    if rnd.random() < mut:
        return rnd.choice([None, True, 0, 1.5, "s", [], {}])
    if isinstance(x, dict):
        out = {k: perturb(v, rnd, scale, mut) for k, v in x.items() if rnd.random() >= mut}
        if rnd.random() < mut:
            out["extra"] = 1
        return out
    if isinstance(x, list):
        out = [perturb(v, rnd, scale, mut) for v in x]
        return out[:-1] if out and rnd.random() < mut else out
    if type(x) is float and math.isfinite(x):
        shift = rnd.choice([5e-7, -3e-6]) if rnd.random() < mut else 0.0
        return x * (1 + rnd.uniform(-scale, scale)) + shift
    if type(x) is int and abs(x) < 2**53 and rnd.random() < mut:
        return float(x)
    return x


MUT = st.sampled_from([0.0, 0.001, 0.03])


def check(r: Any, c: Any, tol: Tolerances) -> None:
    eq = equal(r, c, tol)  # first sight of a small shape: compiled for the next call
    cmp = compare(r, c, tol)
    slow = compare_slow(r, c, tol)
    assert eq == cmp.ok == slow.ok
    assert (cmp.matched, cmp.total) == (slow.matched, slow.total)
    assert (cmp.ok, cmp.matched, cmp.total) == oracle(r, c, tol)
    assert cmp.ok == (cmp.label is None) and 0 <= cmp.matched <= cmp.total
    assert len(cmp.mismatches) <= 20 and (cmp.ok or cmp.mismatches)
    json.dumps([m.to_json() for m in slow.mismatches], allow_nan=False)


@SETTINGS
@given(json_values, json_values, tolerances)
def test_arbitrary_pairs_never_raise_and_agree(r, c, tol) -> None:
    check(r, c, tol)
    check(c, r, tol)
    hash(structure(r, tol))


@SETTINGS
@given(json_values, tolerances)
def test_self_comparison_passes(r, tol) -> None:
    cmp = compare(r, r, tol)
    assert cmp.ok and cmp.matched == cmp.total == oracle(r, r, tol)[2]
    assert structure(r, tol) == structure(json.loads(json.dumps(r)), tol)


@SETTINGS
@given(json_values, tolerances, st.randoms(use_true_random=False), st.sampled_from([1e-9, 5e-5, 2e-4, 1e-2]), MUT)
def test_near_equal_perturbations(r, tol, rnd, scale, mut) -> None:
    c = perturb(r, rnd, scale, mut)
    check(r, c, tol)
    check({"wrap": [r, r]}, {"wrap": [c, r]}, tol)


@FEWER
@given(
    st.lists(st.floats(allow_nan=True, allow_infinity=True) | st.integers(-5, 5), min_size=1, max_size=12),
    st.integers(64, 400),
    st.randoms(use_true_random=False),
    st.sampled_from([0.0, 5e-5, 2e-4]),
    MUT,
)
def test_long_float_lists_numpy_agrees(base, n, rnd, scale, mut) -> None:
    r = [float(base[i % len(base)]) * (1 + i / n) for i in range(n)]
    c = perturb(r, rnd, scale, mut)
    check(r, c, Tolerances())
    check({"v": r, "k": 1}, {"v": c, "k": 1}, Tolerances(fields=(("v", 0.0, 1e-3),)))


@SETTINGS
@given(
    st.lists(
        st.dictionaries(st.sampled_from(["x", "y", "t"]), st.floats(-1e6, 1e6), min_size=3, max_size=3),
        min_size=1,
        max_size=80,
    ),
    st.randoms(use_true_random=False),
    st.sampled_from([1e-6, 1e-3]),
    MUT,
)
def test_tables_with_wildcards(rows, rnd, scale, mut) -> None:
    tol = Tolerances(ignore=("samples.*.t",), fields=(("samples.*.x", None, 1e-2),))
    r = {"samples": rows}
    check(r, perturb(r, rnd, scale, mut), tol)


@SETTINGS
@given(
    st.integers(1, 60),
    st.integers(1, 5),
    st.booleans(),
    st.randoms(use_true_random=False),
    st.sampled_from([1e-6, 1e-3]),
    MUT,
)
def test_float_tables_as_dicts_and_lists(n, m, as_dicts, rnd, scale, mut) -> None:
    keys = [f"c{j}" for j in range(m)]
    grid = [[rnd.uniform(-100, 100) for _ in keys] for _ in range(n)]
    r = {"t": [dict(zip(keys, row)) for row in grid] if as_dicts else grid}
    tol = Tolerances(fields=(("t.*.c0", 0.0, 1e-2),))
    check(r, perturb(r, rnd, scale, mut), tol)


@SETTINGS
@given(
    json_values,
    st.one_of(json_values.map(lambda v: json.dumps(v).encode()), st.binary(max_size=64)),
    st.sampled_from([0, 1, None]),
    st.sampled_from([None, "timeout", "output"]),
)
def test_judge_scenario_never_raises_and_is_json_safe(ref, stdout, rc, limit) -> None:
    from swr.judge import Execution, judge_scenario, verdict

    ex = Execution(rc, stdout, stdout[::-1], limit=limit)
    s = judge_scenario(ref, ex, Tolerances(), split="hidden", index=0)
    assert s["label"] in (
        None,
        "execution_failure",
        "parse_failure",
        "schema_failure",
        "structural_mismatch",
        "categorical_mismatch",
        "numeric_mismatch",
    )
    assert s["pass"] == (s["label"] is None)
    v = verdict("t", [(ref, ex), (ref, ex)], [(ref, ex)], Tolerances())
    json.dumps(v, allow_nan=False)
