"""Verdict assembly: stage labels, anti-shortcut, scores, feedback mode, JSON safety."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from swr.judge import STAGE_ORDER, Execution, Tolerances, judge_scenario, missing_candidate, verdict
from swr.judge.decision import to_json

TOL = Tolerances()
REFS = [{"y": 1.0, "k": "a"}, {"y": 2.0, "k": "b"}, {"y": 3.0, "k": "c"}]
PUB = [{"y": 10.0, "k": "p"}, {"y": 20.0, "k": "q"}]


def ok(doc: Any) -> Execution:
    return Execution(0, (json.dumps(doc) + "\n").encode())


def run(outputs: list[Any], *, public_outputs: list[Any] | None = None, **kw: Any) -> dict:
    """Verdict for hidden candidate outputs (Executions or docs) against REFS/PUB."""
    execs = [o if isinstance(o, Execution) else ok(o) for o in outputs]
    pubs = [ok(o) for o in (public_outputs if public_outputs is not None else PUB)]
    v = verdict("t", list(zip(REFS, execs)), list(zip(PUB, pubs)), TOL, **kw)
    json.dumps(v, allow_nan=False)
    return v


def test_pass() -> None:
    v = run([{**r, "extra": 1} for r in REFS])
    assert v["pass"] and v["label"] == "pass" and v["labels"] == []
    assert v["r_hid"] == 1.0 and v["r_pub"] == 1.0 and v["field_agreement"] == 1.0
    assert [s["split"] for s in v["scenarios"]] == ["hidden"] * 3 + ["public"] * 2
    assert v["scenarios"][0]["extra_keys"] == ["extra"]
    assert all("_output" not in s for s in v["scenarios"])
    assert set(v) >= {"task", "pass", "label", "labels", "r_hid", "r_pub", "field_agreement", "scenarios"}


def test_execution_failure_nonzero_exit_and_limit() -> None:
    v = run([REFS[0], Execution(1, b"", b"boom\n"), Execution(None, b"", limit="timeout")])
    assert not v["pass"] and v["label"] == "execution_failure"
    s1, s2 = v["scenarios"][1], v["scenarios"][2]
    assert s1["label"] == "execution_failure" and s1["exit_code"] == 1 and s1["stderr_tail"] == "boom\n"
    assert s2["label"] == "execution_failure" and s2["limit"] == "timeout"
    assert (s1["matched"], s1["total"]) == (0, 2)
    assert v["r_hid"] == pytest.approx(1 / 3) and v["field_agreement"] == pytest.approx(2 / 6)
    ex = Execution(0, json.dumps(REFS[0]).encode(), limit="memory")  # limit beats exit code 0
    assert judge_scenario(REFS[0], ex, TOL, split="hidden", index=0)["label"] == "execution_failure"


@pytest.mark.parametrize(
    "stdout",
    [
        b"garbage",
        b"",
        b'{"y": 1.0, "k": "a"}{"y": 1.0, "k": "a"}',
        b'[{"y": 1.0, "k": "a"}]',
        b'"text"',
        b"\xff\xfe{}",
        b"[" * 100000 + b"]" * 100000,
        b'{"y": 1.0, "k": "a"} x',
    ],
)
def test_parse_failure(stdout) -> None:
    s = judge_scenario(REFS[0], Execution(0, stdout), TOL, split="hidden", index=0)
    assert s["label"] == "parse_failure" and not s["pass"] and s["detail"]
    assert s["_output"] is None and s["total"] == 2


def test_parse_allows_surrounding_whitespace_and_nan() -> None:
    s = judge_scenario({"v": math.nan}, Execution(0, b'\n\t {"v": NaN}  \r\n'), TOL, split="public", index=4)
    assert s["pass"] and list(s["_output"]) == ["v"] and math.isnan(s["_output"]["v"])
    assert s["index"] == 4 and s["split"] == "public" and s["label"] is None


def test_stderr_tail_is_last_2000_chars() -> None:
    err = ("x" * 5000 + "é" * 1500).encode() + b"\xff"
    s = judge_scenario(REFS[0], Execution(2, b"", err), TOL, split="hidden", index=0)
    assert len(s["stderr_tail"]) == 2000 and s["stderr_tail"].endswith("é\ufffd")


def test_schema_and_semantic_labels_order() -> None:
    v = run([{"y": 1.0}, {"y": 2.5, "k": "b"}, {"y": 3.0, "k": "z"}])
    assert v["label"] == "schema_failure"
    assert v["labels"] == ["schema_failure", "numeric_mismatch", "categorical_mismatch"]
    assert v["scenarios"][1]["mismatches"] == [{"path": "y", "label": "numeric_mismatch", "expected": 2.0, "got": 2.5}]


def test_input_independent() -> None:
    v = run([REFS[0]] * 3)
    assert not v["pass"] and "input_independent" in v["labels"]
    assert v["label"] == "input_independent"  # scenario labels are only semantic here
    assert {"label": "input_independent", "hidden": [1, 2]} in v["anti_shortcut"]


def test_input_independent_needs_differing_references() -> None:
    refs = [{"y": 1.0}, {"y": 1.0}]
    v = verdict("t", [(r, ok(r)) for r in refs], [], TOL)
    assert v["pass"] and v["labels"] == []


def test_public_replay() -> None:
    v = run([REFS[0], PUB[1], REFS[2]])
    assert not v["pass"]
    assert v["labels"] == ["public_replay", "numeric_mismatch", "categorical_mismatch"]
    assert v["label"] == "public_replay"
    assert v["anti_shortcut"] == [{"label": "public_replay", "hidden": 1, "public": 1}]


def test_public_replay_uses_public_refs_and_blocks_pass() -> None:
    refs = [{"y": 1.0}, {"y": 2.0}]
    v = verdict("t", [(r, ok(r)) for r in refs], [], TOL, public_refs=[{"y": 2.0, "z": 0}])
    assert v["pass"]  # the hidden reference itself equals the public one: not a replay
    v = verdict("t", [(r, ok(r)) for r in refs], [], TOL, public_refs=[{"y": 2.0}, {"y": 9.0}])
    assert v["r_pub"] is None and v["pass"]
    v = verdict("t", [(refs[0], ok(refs[0])), (refs[1], ok({"y": 9.0}))], [], TOL, public_refs=[{"y": 9.0}])
    assert v["label"] == "public_replay" and v["r_hid"] == 0.5


def test_feedback_mode_public_only() -> None:
    pub = [(PUB[0], ok(PUB[0])), (PUB[1], ok(PUB[1]))]
    v = verdict("t", [], pub, TOL)
    assert v["pass"] and v["label"] == "pass" and v["r_pub"] == 1.0 and v["r_hid"] is None  # no hidden split was run
    pub[1] = (PUB[1], ok(PUB[0]))  # replaying a public output is fine here: no anti-shortcut
    v = verdict("t", [], pub, TOL)
    assert not v["pass"] and v["r_pub"] == 0.5 and v["label"] == "numeric_mismatch"
    assert v["anti_shortcut"] == [] and v["field_agreement"] == 0.5
    v = verdict("t", list(zip(REFS, map(ok, REFS))), pub, TOL, split_for_pass="public")
    assert not v["pass"] and v["r_hid"] == 1.0


def test_missing_candidate() -> None:
    v = missing_candidate("t", "no executable run")
    assert v["label"] == "missing_candidate" and v["pass"] is False and v["r_hid"] == 0.0
    assert v["labels"] == ["missing_candidate"] and STAGE_ORDER[0] == "missing_candidate"
    json.dumps(v, allow_nan=False)


def test_json_safe_with_nan_inf_huge_values() -> None:
    ref = {"a": math.nan, "b": math.inf, "c": 1.0, "d": [1, 2], "e": 10**5000}
    got = {"a": 1.0, "b": -math.inf, "c": math.nan, "d": {"x": 1}, "e": 1}
    v = verdict("t", [(ref, ok(got))], [], Tolerances(), public_refs=[])
    text = json.dumps(v, allow_nan=False)
    mm = v["scenarios"][0]["mismatches"]
    assert [m["expected"] for m in mm][:4] == ["NaN", "Infinity", 1.0, "list[2]"]
    assert [m["got"] for m in mm][:4] == [1.0, "-Infinity", "NaN", "dict[1]"]
    assert "bits>" in mm[4]["expected"] and "NaN" in text
    ex = Execution(0, b'{"a": 1}', wall_s=math.inf)
    assert to_json(judge_scenario({"a": 1}, ex, TOL, split="hidden", index=0))["wall_s"] == "Infinity"


def test_verdict_rejects_unknown_split() -> None:
    with pytest.raises(ValueError):
        verdict("t", [], [], TOL, split_for_pass="train")
    v = verdict("t", [], [], TOL)
    assert not v["pass"] and v["label"] is None and v["r_pub"] is None
