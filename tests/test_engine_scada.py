"""The SCADA/DCS runtime engine (engines/scada-dcs, issue 25): its hidden cases are drawn from the seed, hold
exactly the items its [score] declares, and each one tells every declared spec rule apart (the reason its
threshold is all of them); its verifier's invariants are recomputed from the candidate's own journal and
historian, so a tampered record fails them although it says nothing false about itself."""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import ROOT

from swr.kinds.engine import check
from swr.kinds.engine.grading import run_verifier
from swr.kinds.engine.mutants import materialise
from swr.kinds.engine.spec import load_engine, read_cases
from swr.sandbox import Sandbox, get_sandbox

ENGINE = ROOT / "engines" / "scada-dcs"
INVARIANTS = ("journal_consistency", "historian_deadband")


def _module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_hidden_cases_repeat_per_seed_and_every_case_tells_every_rule_apart(tmp_path: Path) -> None:
    """The generator, run in the sandbox as the build runs it: the same seed gives the same bytes, another seed
    other plants; there are exactly `[score] items` cases (one item each); and on every case each rule's
    mutant of the reference (its mutants/<rule>.patch, applied as the build applies it) prints another output
    than the case's expected one, so a runtime that breaks any one rule fails every scenario."""
    from swr.core.jsonfile import dump_json

    spec, sb = load_engine(ENGINE), get_sandbox("bwrap")
    assert spec.score is not None and spec.score.pass_at == spec.score.items
    first, again, other = (check.hidden_cases(spec, sb, seed) for seed in (0, 0, 1))
    assert [dump_json(c) for c in first] == [dump_json(c) for c in again]
    assert len(first) == len(other) == spec.score.items and not any("items" in c for c in first)
    assert all(a["input"] != b["input"] for a, b in zip(first, other))
    assert len(spec.rules) >= 9
    for rule in spec.rules:
        mutant = materialise(ENGINE / "reference", ENGINE / rule.mutant, tmp_path / rule.id)
        scada = _module(mutant / "scada.py", f"scada_{rule.id.replace('-', '_')}")
        same = [c["id"] for c in first if scada.run(copy.deepcopy(c["input"])) == c["expected"]]
        assert not same, (rule.id, same)


def _verdicts(sb: Sandbox, case: dict[str, Any], output: dict[str, Any]) -> dict[str, bool]:
    recs = run_verifier(load_engine(ENGINE), ENGINE / "verifier", case, output, sb)
    return {r["check"]: r["pass"] for r in recs}


def _tamper(case: dict[str, Any], how: str) -> dict[str, Any]:
    out = copy.deepcopy(case["expected"])
    journal = out["journal"]
    if how == "ack-without-operator":  # the ack's transition kept, the operator's accepted ack dropped
        i = next(i for i, e in enumerate(journal) if e["event"] == "operator" and e["status"] == "accepted")
        del journal[i]
    elif how == "illegal-transition":  # UNACK -> NORM is no ISA-18.2 transition
        e = next(e for e in journal if e["event"] == "alarm" and e["from"] == "UNACK" and e["to"] == "ACKED")
        e["to"] = "NORM"
    elif how == "ack-of-normal-accepted":
        e = next(e for e in journal if e.get("reason") == "not_unacknowledged")
        e.update(status="accepted", reason=None)
    elif how == "sample-dropped":
        out["historian"]["LT1"].pop(1)
    elif how == "sample-within-deadband":  # t=3 scanned 82.0, 1 from the stored 81.0
        out["historian"]["LT1"].insert(2, [3, 82.0, "good"])
    return out


@pytest.mark.parametrize(
    "how, invariant",
    [
        ("ack-without-operator", "journal_consistency"),
        ("illegal-transition", "journal_consistency"),
        ("ack-of-normal-accepted", "journal_consistency"),
        ("sample-dropped", "historian_deadband"),
        ("sample-within-deadband", "historian_deadband"),
    ],
)
def test_the_invariants_are_recomputed_from_the_candidates_own_records(
    backend: Sandbox, how: str, invariant: str
) -> None:
    """On the first worked example (LT1's HI alarm acked, its historian compressed), the expected output passes
    every check, and each tampering of the journal or the historian fails the invariant that replays that
    record against the ISA-18.2 state machine, the operator script or the field script, on either backend."""
    (case, *_) = read_cases(ENGINE, "cases/public")
    assert case["id"] == "e1-tank-level-alarm"
    assert all(_verdicts(backend, case, case["expected"]).values())
    got = _verdicts(backend, case, _tamper(case, how))
    assert got[invariant] is False, (how, got)


def test_the_public_examples_answer_what_the_spec_says() -> None:
    """The worked examples of spec.md section 9 hold the values the spec walks through (read off their expected
    outputs, which the reference computes: the spec and the reference agree)."""
    cases = {c["id"]: c["expected"] for c in read_cases(ENGINE, "cases/public")}
    e1 = cases["e1-tank-level-alarm"]
    assert [(e["t"], e["from"], e["to"]) for e in e1["journal"] if e["event"] == "alarm"] == [
        (3, "NORM", "UNACK"),
        (4, "UNACK", "ACKED"),
        (7, "ACKED", "NORM"),
        (10, "NORM", "UNACK"),
        (11, "UNACK", "ACKED"),
    ]
    assert e1["historian"]["LT1"][-2:] == [[9, 100.0, "uncertain"], [11, 100.0, "bad"]]
    e2 = cases["e2-pump-interlock"]
    assert e2["outputs"] == {"P1": False, "XV1": True} and e2["interlocks"] == {"IL1": "normal"}
    reasons = [e["reason"] for e in e2["journal"] if e["event"] == "operator" and e["reason"]]
    assert reasons[:2] == ["interlocked", "condition_active"] and "invalid_value" in reasons
    e3 = cases["e3-scan-classes-comm-loss"]
    assert {"t": 6, "event": "interlock", "interlock": "IL7", "to": "tripped"} in e3["journal"]
    assert e3["historian"]["FT1"][-1] == [12, 15.0, "good"] and e3["alarms"]["TT1.HI"] == "NORM"
