"""Unit tests for the judge's leaf rules, containers, tolerances and labels."""

from __future__ import annotations

import copy
import json
import math
import pickle
from typing import Any

import pytest

from swr.judge import LABEL_ORDER, Comparison, Tolerances, compare, equal, fastpath, structure

INF, NAN = math.inf, math.nan
TOL = Tolerances()


def both(ref: Any, cand: Any, tol: Tolerances = TOL) -> Comparison:
    """compare() and equal() must agree; return the Comparison."""
    cmp = compare(ref, cand, tol)
    assert equal(ref, cand, tol) == cmp.ok
    return cmp


@pytest.mark.parametrize(
    "ref,cand,ok,label",
    [
        (True, True, True, None),
        (True, False, False, "categorical_mismatch"),
        (True, 1, False, "schema_failure"),
        (False, 0, False, "schema_failure"),
        (1, True, False, "schema_failure"),
        (0, False, False, "schema_failure"),
        (1.0, True, False, "schema_failure"),
        (3, 3.0, True, None),
        (3.0, 3, True, None),
        (3, 3.5, False, "categorical_mismatch"),
        (3, 4, False, "categorical_mismatch"),
        (3, NAN, False, "categorical_mismatch"),
        (10**30, 10**30, True, None),
        (10**30, 10**30 + 1, False, "categorical_mismatch"),
        (1.0, 1.0 + 5e-5, True, None),
        (1.0, 1.0 + 2e-4, False, "numeric_mismatch"),
        (NAN, NAN, True, None),
        (NAN, 1.0, False, "numeric_mismatch"),
        (1.0, NAN, False, "numeric_mismatch"),
        (INF, INF, True, None),
        (-INF, -INF, True, None),
        (INF, -INF, False, "numeric_mismatch"),
        (INF, 1e308, False, "numeric_mismatch"),
        (1e308, INF, False, "numeric_mismatch"),
        (2.5, INF, False, "numeric_mismatch"),
        (INF, NAN, False, "numeric_mismatch"),
        (1.5, 10**400, False, "numeric_mismatch"),
        ("a", "a", True, None),
        ("a", "b", False, "categorical_mismatch"),
        ("1", 1, False, "schema_failure"),
        (1, "1", False, "schema_failure"),
        (None, None, True, None),
        (None, 0, False, "categorical_mismatch"),
        (0, None, False, "categorical_mismatch"),
        (None, {}, False, "categorical_mismatch"),
        ({"a": 1}, None, False, "categorical_mismatch"),
        ({"a": 1}, [1], False, "schema_failure"),
        ([1], {"0": 1}, False, "schema_failure"),
    ],
)
def test_leaf_rules(ref, cand, ok, label) -> None:
    cmp = both(ref, cand)
    assert cmp.ok is ok
    assert cmp.label == label


def test_inf_never_accepted_by_huge_rtol() -> None:
    loose = Tolerances(atol=1.0, rtol=1e6)
    assert not both(INF, 1e308, loose).ok
    assert not both(1e308, INF, loose).ok
    assert not both(INF, -INF, loose).ok
    assert both(1e308, -1e308, loose).ok  # |a-b| overflows, the bound too: still within
    assert both(INF, INF, loose).ok


def test_tolerance_boundary_uses_reference_magnitude() -> None:
    tol = Tolerances(atol=0.0, rtol=0.1)
    assert both(100.0, 109.0, tol).ok  # 9 <= 0.1 * 100
    assert not both(100.0, 110.5, tol).ok  # 10.5 > 0.1 * 100
    assert both(110.5, 100.0, tol).ok  # 10.5 <= 0.1 * 110.5: b is the reference
    assert both(0.0, 0.5, Tolerances(atol=0.5, rtol=0.0)).ok
    assert not both(0.0, 0.6, Tolerances(atol=0.5, rtol=0.0)).ok


def test_dict_missing_and_extra_keys() -> None:
    ref = {"a": 1, "b": {"c": 2.0, "d": "x"}}
    cmp = both(ref, {"a": 1, "b": {"c": 2.0, "d": "x", "e": 5}, "z": 0})
    assert cmp.ok and cmp.extra_keys == ["b.e", "z"]
    cmp = both(ref, {"a": 1})
    assert cmp.label == "schema_failure"
    assert (cmp.matched, cmp.total) == (1, 3)
    assert cmp.mismatches[0].path == "b" and cmp.mismatches[0].got == "<missing>"


def test_list_length_is_structural_and_counts_leaves() -> None:
    ref = {"xs": [{"a": 1.0, "b": 2.0}, {"a": 3.0, "b": 4.0}], "k": 1}
    cmp = both(ref, {"xs": [{"a": 1.0, "b": 2.0}], "k": 1})
    assert cmp.label == "structural_mismatch"
    assert (cmp.matched, cmp.total) == (1, 5)
    assert cmp.mismatches[0].expected == "list[2]" and cmp.mismatches[0].got == "list[1]"


def test_wrong_kind_counts_subtree_unmatched() -> None:
    cmp = both({"a": {"x": 1, "y": [1, 2, 3]}, "b": 2}, {"a": "oops", "b": 2})
    assert cmp.label == "schema_failure"
    assert (cmp.matched, cmp.total) == (1, 5)
    assert cmp.field_agreement == pytest.approx(0.2)


def test_labels_ordered_and_primary_is_first() -> None:
    ref = {"n": 1.0, "s": "a", "l": [1, 2], "m": 1}
    cmp = both(ref, {"n": 2.0, "s": "b", "l": [1]})
    assert cmp.labels == list(LABEL_ORDER)
    assert cmp.label == "schema_failure"
    cmp = both(ref, {"n": 2.0, "s": "b", "l": [1, 2], "m": 1})
    assert cmp.labels == ["numeric_mismatch", "categorical_mismatch"] and cmp.label == "numeric_mismatch"
    cmp = both(ref, {"n": 1.0, "s": "b", "l": [1], "m": 1})
    assert cmp.labels == ["categorical_mismatch", "structural_mismatch"] and cmp.label == "categorical_mismatch"


def test_primary_label_of_a_run_with_numeric_and_categorical_mismatches_is_numeric() -> None:
    """The SWR paper's primary counts (460 numeric while 173 runs were both numeric and categorical) imply
    numeric comes first; both labels stay in the multi-label list for co-occurrence counts."""
    from swr.judge import Execution, judge_scenario

    ref = {"n": 1.0, "s": "a", "l": [1, 2]}
    ex = Execution(0, json.dumps({"n": 2.0, "s": "b", "l": [1, 2, 3]}).encode())
    s = judge_scenario(ref, ex, Tolerances(), split="hidden", index=0)
    assert s["label"] == "numeric_mismatch"
    assert s["labels"] == ["numeric_mismatch", "categorical_mismatch", "structural_mismatch"]


def test_mismatches_capped_counts_exact() -> None:
    ref = [float(i) for i in range(100)]
    cmp = both(ref, [x + 1 for x in ref])
    assert len(cmp.mismatches) == 20 and cmp.total == 100 and cmp.matched == 0
    assert [m.path for m in cmp.mismatches[:3]] == ["0", "1", "2"]


def test_mismatches_in_document_order() -> None:
    ref = {"a": 1, "b": 2, "c": 3}
    cmp = both(ref, {"a": 0, "c": 0})
    assert [m.path for m in cmp.mismatches] == ["a", "b", "c"]


def test_field_agreement_and_empty() -> None:
    cmp = both({"a": 1, "b": 2, "c": 3, "d": 4}, {"a": 1, "b": 2, "c": 3, "d": 5})
    assert (cmp.matched, cmp.total, cmp.field_agreement) == (3, 4, 0.75)
    cmp = both({}, {"x": 1})
    assert cmp.ok and cmp.total == 0 and cmp.field_agreement == 1.0
    assert not both([], [1]).ok


def test_wildcard_override_looser_than_default() -> None:
    tol = Tolerances(fields=(("samples.*.x", None, 1e-2),))
    ref = {"samples": [{"x": 100.0, "y": 100.0} for _ in range(3)]}
    cand = copy.deepcopy(ref)
    cand["samples"][1]["x"] = 100.5
    assert both(ref, cand, tol).ok
    assert not both(ref, cand).ok
    cand["samples"][1]["y"] = 100.5
    cmp = both(ref, cand, tol)
    assert [m.path for m in cmp.mismatches] == ["samples.1.y"]


def test_most_specific_override_wins() -> None:
    tol = Tolerances(fields=(("a", 1.0, None), ("a.*.b", 0.0, 0.0), ("a.1.b", 5.0, None), ("*.*.b", 2.0, 0.0)))
    assert tol.for_path(("a", 0, "b")) == (0.0, 0.0)  # a.*.b beats *.*.b and a
    assert tol.for_path(("a", 1, "b")) == (5.0, 1e-4)  # all-literal beats wildcard
    assert tol.for_path(("a", 0, "c")) == (1.0, 1e-4)  # container override reaches leaves
    assert tol.for_path(("x", 0, "b")) == (2.0, 0.0)
    assert tol.for_path(("x",)) == (1e-6, 1e-4)
    assert both({"a": [{"b": 1.0}, {"b": 1.0}]}, {"a": [{"b": 1.0}, {"b": 4.0}]}, tol).ok
    assert not both({"a": [{"b": 1.0}, {"b": 1.0}]}, {"a": [{"b": 1.5}, {"b": 1.0}]}, tol).ok


def test_ignore_absent_or_different_not_counted() -> None:
    tol = Tolerances(ignore=("runtime_s", "meta", "rows.*.t"))
    ref = {
        "v": 1.0,
        "runtime_s": 3.2,
        "meta": {"host": "a", "n": [1, 2]},
        "rows": [{"t": 1.0, "y": 2}, {"t": 5.0, "y": 3}],
    }
    cand = {"v": 1.0, "meta": "changed", "rows": [{"y": 2}, {"t": "x", "y": 3}], "runtime_s": None}
    cmp = both(ref, cand, tol)
    assert cmp.ok and cmp.total == 3 and cmp.extra_keys == []
    assert tol.for_path(("meta", "n", 0)) is None
    cmp = both(ref, {"v": 2.0, "rows": [{"y": 2}, {"y": 3}]}, tol)
    assert cmp.label == "numeric_mismatch" and (cmp.matched, cmp.total) == (2, 3)


def test_ignored_extra_keys_not_reported() -> None:
    tol = Tolerances(ignore=("debug",))
    cmp = both({"v": 1}, {"v": 1, "debug": [1], "other": 2}, tol)
    assert cmp.ok and cmp.extra_keys == ["other"]


def test_literal_index_patterns_apply_per_index() -> None:
    tol = Tolerances(ignore=("xs.1",))
    assert both({"xs": [1, 2, 3]}, {"xs": [1, 99, 3]}, tol).ok
    assert not both({"xs": [1, 2, 3]}, {"xs": [1, 2, 4]}, tol).ok


def test_tolerances_validation_and_spec() -> None:
    with pytest.raises(ValueError):
        Tolerances(atol=-1.0)
    with pytest.raises(ValueError):
        Tolerances(rtol=math.nan)
    tol = Tolerances.from_spec({"rtol": 1e-3, "ignore": ["t"], "fields": {"a.*": {"atol": 2.0}}})
    assert tol == Tolerances(rtol=1e-3, ignore=("t",), fields=(("a.*", 2.0, None),))
    assert pickle.loads(pickle.dumps(tol)) == tol
    assert hash(tol) == hash(Tolerances(rtol=1e-3, ignore=["t"], fields=[("a.*", 2.0, None)]))


def test_structure_signature() -> None:
    tol = Tolerances(ignore=("t",))
    a = {"x": 1, "l": [1.0, 2], "d": {"s": "a", "n": None, "b": True}, "t": 1}
    b = {"d": {"b": False, "n": None, "s": "zz"}, "l": [3.5], "x": 2.5, "t": "other"}
    assert structure(a, tol) == structure(b, tol)
    assert hash(structure(a, tol)) == hash(structure(b, tol))
    assert structure(a, tol) != structure({**b, "x": "2.5"}, tol)
    assert structure(a, tol) != structure({**b, "l": [[1.0]]}, tol)
    assert structure(a, tol) != structure({**b, "y": 1}, tol)
    assert structure({"l": [{"a": 1}, {"b": 1}]}, tol) != structure({"l": [{"a": 1}]}, tol)


def test_long_float_lists_numpy_path() -> None:
    ref = [i * 0.37 for i in range(5000)]
    cand = [x * (1 + 5e-5) for x in ref]
    assert both(ref, cand).ok
    cand[1234] = NAN
    cand[4000] = True
    cmp = both(ref, cand)
    assert not cmp.ok and [m.path for m in cmp.mismatches] == ["1234", "4000"]
    assert [m.label for m in cmp.mismatches] == ["numeric_mismatch", "schema_failure"]
    cand[4000] = ref[4000]
    cmp = both(ref, cand)
    assert (cmp.matched, cmp.total, cmp.label) == (4999, 5000, "numeric_mismatch")
    special = [NAN, INF, -INF, 1e308] * 20
    assert both(special, list(special)).ok
    assert not both(special, special[1:] + special[:1]).ok
    assert both(ref, [int(x) if x == int(x) else x for x in ref]).ok


def test_fast_path_compiles_and_is_used() -> None:
    tol = Tolerances()
    ref = {"a": [1.0, 2.0], "b": {"c": "x", "d": 3}}
    assert compare(ref, copy.deepcopy(ref), tol).total == 4
    assert tol.memo.last is None  # small shapes compile on their second sighting
    assert compare(ref, copy.deepcopy(ref), tol).total == 4
    assert tol.memo.last is not None and "def _pred" in tol.memo.last._src
    assert fastpath.fast_count(ref, copy.deepcopy(ref), tol) == 4
    assert fastpath.fast_count(ref, {**ref, "e": 1}, tol) is None  # extras -> slow walk
    other = {"a": [1.0, 2.0], "b": {"c": "x", "d": 3.5}}  # different leaf kind
    assert fastpath.fast_count(other, other, tol) is None
    assert fastpath.fast_count(other, other, tol) == 4
    assert fastpath.fast_count(ref, ref, tol) == 4
    big = {"xs": [{"v": float(i)} for i in range(600)]}  # big: compiled at once
    assert fastpath.fast_count(big, copy.deepcopy(big), tol) == 600


def test_deep_nesting_does_not_raise() -> None:
    deep = cur = {}
    for _ in range(5000):
        cur["k"] = {}
        cur = cur["k"]
    cur["v"] = 1.0
    assert both(deep, deep).ok
    assert not both(deep, {"k": 1}).ok
    lst: list = [1.0]
    for _ in range(5000):
        lst = [lst]
    assert both(lst, lst).ok
    sig = structure(lst, TOL)
    for _ in range(5001):
        assert sig[0] == "list"
        (sig,) = sig[1]
    assert sig == "number"


@pytest.mark.parametrize("rows", [3, 16, 40])
def test_float_tables_counts_match_slow_walk(rows) -> None:
    from swr.judge.compare import compare_slow

    tol = Tolerances(fields=(("d.*.b", 0.0, 0.0),))
    ref = {
        "d": [{"a": i + 0.5, "b": -i / 3} for i in range(rows)],
        "m": [[i * 1.5] * 5 for i in range(rows)],
        "long": [[float(j) for j in range(70)] for _ in range(2)],
    }
    cand = copy.deepcopy(ref)
    cand["d"][-1]["a"] *= 1 + 5e-5
    fast, slow = compare(ref, cand, tol), compare_slow(ref, cand, tol)
    assert fast.ok and slow.ok and fast.total == slow.total == 7 * rows + 140
    cand["d"][-1]["b"] *= 1 + 1e-9  # exact column
    cand["m"][-1][2] = True
    cmp = both(ref, cand, tol)
    assert [m.path for m in cmp.mismatches] == [f"d.{rows - 1}.b", f"m.{rows - 1}.2"]
    assert (cmp.matched, cmp.total) == (slow.total - 2, slow.total)
