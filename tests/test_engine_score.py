"""Engines scored as the paper's Table 2 (issue 25, /work/briefs/score_contract.md): k of N items, the items
defined by the hidden cases (a case's `items`, else the case), a record per check for the whole case or per
item, pass at engine.toml's `[score] pass_at`. A toy engine (sums of named lists, one item per list) graded in
the real sandbox on both backends, and built with `swr build` to see the gates hold under k < N."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, swr

from swr.audit.adequacy import grade_until_failed
from swr.core.errors import SwrError
from swr.harness.store import RunRecord, Store
from swr.kinds.engine.grading import grade_case, verdict
from swr.kinds.engine.spec import EngineSpec, Score, load_engine
from swr.kinds.engine.verdict import EngineVerdict
from swr.kinds.verdict import dump_verdict, parse_verdict
from swr.sandbox import Sandbox, get_sandbox

ENGINES = ROOT / "engines"
TOML = """name = "toy-sum"
domain = "data-document"
analog = "a spreadsheet's SUM"
summary = "Sum named lists of integers."

[interface]
description = "stdin: {lists: {name: [int]}}; stdout: {sums: {name: int}}"
timeout_s = 30
memory_mb = 256

[score]
unit = "list"
items = __ITEMS__
pass_at = __PASS_AT__
why = "a test engine: one item per list"

[[checks]]
name = "shape"
kind = "invariant"
description = "the output is {sums: {...}} and nothing else (reported once for the whole case)"

[[checks]]
name = "sums"
kind = "proof"
description = "a list's sum is exact (reported per item in a case with items)"
"""
RUN = """#!/usr/bin/env python3
import json, sys
lists = json.load(sys.stdin)["lists"]
print(json.dumps({"sums": {k: sum(v) for k, v in lists.items()}}))
"""
# The verifier: `shape` case-wide; `sums` per item where the case has items (the payload's `items` is the case
# id alone where it has none). `quirks` in a case's input make it misreport, to test what the grader does then.
VERIFY = """import json, sys
p = json.load(sys.stdin)
lists, out, quirks = p["input"]["lists"], p["output"], p["input"].get("quirks", [])
sums, items = out.get("sums"), p.get("items", [p["case"]])
recs = [{"check": "shape", "pass": isinstance(sums, dict) and set(out) == {"sums"}, "measured": None}]
if items == [p["case"]]:
    recs.append({"check": "sums", "pass": isinstance(sums, dict) and all(sums.get(k) == sum(v) for k, v in lists.items())})
else:
    for k in items:
        if "omit-" + k in quirks:
            continue
        name = "zz-" + k if "rename-" + k in quirks else k
        recs.append({"check": "sums", "item": name, "pass": isinstance(sums, dict) and sums.get(k) == sum(lists[k])})
print(json.dumps({"checks": recs}))
"""
# Right on every list but `b`.
WRONG_B = RUN.replace("sum(v) for k, v", "sum(v) + (k == 'b') for k, v")


def toy_engine(
    dest: Path, pass_at: int = 4, items: int = 4, quirks: tuple[str, ...] = (), h1_items: Any = ("a", "b", "c")
) -> Path:
    """The toy engine: hidden h1 (items a, b, c, or `h1_items`) and h2 (no items: one item), 3 worked examples,
    one cheat wrong on `b`."""
    (dest / "verifier").mkdir(parents=True)
    (dest / "engine.toml").write_text(TOML.replace("__ITEMS__", str(items)).replace("__PASS_AT__", str(pass_at)))
    (dest / "spec.md").write_text("# toy-sum\n\nPrint each list's sum.\n")
    (dest / "verifier" / "verify.py").write_text(VERIFY)
    for name, text in (("reference", RUN), ("cheat/wrong-b", WRONG_B)):
        (dest / name).mkdir(parents=True)
        (dest / name / "run").write_text(text)
        (dest / name / "run").chmod(0o755)
    for i in (1, 2, 3):
        lists = {"p": [i, 2], "q": [3]}
        write(
            dest / "cases" / "public" / f"e{i}.json",
            {"input": {"lists": lists}, "expected": {"sums": {"p": i + 2, "q": 3}}},
        )
    h1 = {"lists": {"a": [1, 2], "b": [3, 4], "c": [5]}, "quirks": list(quirks)}
    write(dest / "cases" / "hidden" / "h1.json", {"items": list(h1_items), "input": h1})
    write(dest / "cases" / "hidden" / "h2.json", {"input": {"lists": {"x": [7, 8]}}})
    return dest


def write(path: Path, doc: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))


def candidate(dest: Path, run: str) -> Path:
    dest.mkdir(parents=True)
    (dest / "run").write_text(run)
    (dest / "run").chmod(0o755)
    return dest


def hidden(engine: Path) -> list[dict[str, Any]]:
    return [{"id": f.stem, **json.loads(f.read_text())} for f in sorted((engine / "cases" / "hidden").glob("*.json"))]


def at(spec: EngineSpec, pass_at: int) -> EngineSpec:
    """The same engine passing at another k."""
    return spec.model_copy(update={"score": Score(unit="list", items=spec.score.items, pass_at=pass_at, why="t")})


def graded(spec: EngineSpec, cand: Path, cases: list[dict[str, Any]], sb: Sandbox) -> list[Any]:
    return [grade_case(spec, spec.directory / "verifier", cand, c, sb) for c in cases]


def failing(v: EngineVerdict) -> list[tuple[str, str | None, str]]:
    return sorted((r.case, r.item, r.check) for r in v.records if not r.passed)


def test_one_item_failing_one_check_scores_n_minus_1_and_passes_at_n_minus_1(tmp_path: Path, backend: Sandbox) -> None:
    """Wrong on list b alone: b fails `sums`, a, c and h2 pass: 3/4; a pass at pass_at 3, a fail at 4. The
    verdict's JSON carries the score and each record's item (the case-wide ones null)."""
    spec = load_engine(toy_engine(tmp_path / "toy"))
    results = graded(spec, candidate(tmp_path / "cand", WRONG_B), hidden(spec.directory), backend)
    strict, lenient = verdict(spec, "toy-sum", results), verdict(at(spec, 3), "toy-sum", results)
    assert strict.score == lenient.score == "3/4"
    assert not strict.passed and strict.label == "proof_failure:sums" and strict.failed_checks == ["sums"]
    assert lenient.passed and lenient.label == "pass" and lenient.labels == ["proof_failure:sums"]
    assert failing(strict) == [("h1", "b", "sums")]
    doc = json.loads(dump_verdict(lenient))
    assert doc["score"] == "3/4" and doc["pass"] is True
    assert {(r["case"], r["item"], r["check"]) for r in doc["records"]} == {
        ("h1", None, "shape"),
        ("h1", "a", "sums"),
        ("h1", "b", "sums"),
        ("h1", "c", "sums"),
        ("h2", None, "shape"),
        ("h2", None, "sums"),
    }


def test_a_case_wide_record_applies_to_every_item(tmp_path: Path) -> None:
    """Right sums with an extra key: the case-wide `shape` fails, so every item of both cases fails though
    every itemised `sums` record passes."""
    spec = load_engine(toy_engine(tmp_path / "toy", pass_at=1))
    extra = RUN.replace('{"sums":', '{"extra": 1, "sums":')
    v = verdict(spec, "toy-sum", graded(spec, candidate(tmp_path / "c", extra), hidden(spec.directory), get_sandbox()))
    assert v.score == "0/4" and not v.passed and v.failed_checks == ["shape"]
    assert failing(v) == [("h1", None, "shape"), ("h2", None, "shape")]


def test_a_missing_record_or_one_naming_an_unknown_item_fails_the_item(tmp_path: Path) -> None:
    """The verifier leaves out b's record and names c's `zz-c`: the reference itself then scores 2/4 (a and
    h2), b and c failing as "not reported"; the record of the unknown item is not kept."""
    spec = load_engine(toy_engine(tmp_path / "toy", pass_at=1, quirks=("omit-b", "rename-c")))
    v = verdict(spec, "toy-sum", graded(spec, spec.directory / "reference", hidden(spec.directory), get_sandbox()))
    assert v.score == "2/4" and v.failed_checks == ["sums"]
    assert failing(v) == [("h1", "b", "sums"), ("h1", "c", "sums")]
    assert all(r.detail == "not reported" for r in v.records if not r.passed)
    assert not [r for r in v.records if r.item == "zz-c"]


def test_no_output_fails_every_item_of_the_case(tmp_path: Path, backend: Sandbox) -> None:
    spec = load_engine(toy_engine(tmp_path / "toy", pass_at=1))
    crash = "#!/bin/sh\nexit 3\n"
    v = verdict(spec, "toy-sum", graded(spec, candidate(tmp_path / "c", crash), hidden(spec.directory), backend))
    assert v.score == "0/4" and not v.passed and v.labels[0] == "execution_failure"
    assert all(r.item is None and not r.passed for r in v.records)  # case-wide: they cover a, b, c alike


def test_a_verdict_written_before_items_still_loads() -> None:
    rec = {"case": "h1", "check": "sums", "kind": "proof", "measured": None, "threshold": None, "better": None}
    doc = {"task": "t", "kind": "engine", "pass": True, "label": "pass", "labels": [], "score": "1/1"}
    v = EngineVerdict.model_validate(
        {**doc, "failed_checks": [], "cases": [], "records": [{**rec, "pass": True, "detail": ""}]}
    )
    assert v.records[0].item is None


def test_adequacy_kills_a_mutant_only_below_pass_at(tmp_path: Path) -> None:
    """The audit's early stop counts items against N - pass_at: wrong on one item, a mutant is killed at
    pass_at 4 and survives at 3 (the hidden cases cannot tell it apart there)."""
    spec = load_engine(toy_engine(tmp_path / "toy"))
    cases, sb, ref = hidden(spec.directory), get_sandbox(), spec.directory / "reference"
    mutant = spec.directory / "cheat" / "wrong-b"
    assert not grade_until_failed(spec, spec.directory / "verifier", mutant, ref, cases, sb, 1).passed
    assert grade_until_failed(at(spec, 3), spec.directory / "verifier", mutant, ref, cases, sb, 1).passed


def test_the_build_scores_the_reference_n_of_n_and_each_cheat_under_pass_at(tmp_path: Path) -> None:
    """`swr build` of the toy engine: at pass_at 4 it builds, nop scoring 0/4 and the cheat 3/4. With c's
    record left out and pass_at 2, the reference scores 3/4, which passes but is refused (the reference must
    score N/N), and the cheat, 2/4, would pass: refused too."""
    res = swr("build", str(toy_engine(tmp_path / "ok" / "toy-sum")), "--out", str(tmp_path / "rel"), timeout=900)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    record = json.loads((tmp_path / "rel" / "tasks" / "toy-sum" / "private" / "build.json").read_text())
    assert record["reference"]["score"] == "7/7"  # the 3 worked examples and the 4 hidden items
    assert record["nop"]["score"] == "0/4" and record["cheats"]["wrong-b"]["score"] == "3/4"
    bad = toy_engine(tmp_path / "bad" / "toy-sum", pass_at=2, quirks=("omit-c",))
    res = swr("build", str(bad), "--out", str(tmp_path / "rel2"), timeout=900)
    out = res.stdout + res.stderr
    assert res.returncode != 0 and "the reference fails" in out and "cheat wrong-b must fail" in out, out[-3000:]


@pytest.mark.parametrize(
    "items, h1_items, message",
    [
        (5, ("a", "b", "c"), "the hidden cases hold 4 items, not the 5 declared"),
        (4, ("a", "b", "b"), "hidden case h1: item 'b' is listed twice"),
        (4, ("a", "", "c"), "hidden case h1: `items` is not a list of non-empty strings"),
    ],
)
def test_the_build_refuses_hidden_items_that_do_not_match_the_score(
    tmp_path: Path, items: int, h1_items: tuple[str, ...], message: str
) -> None:
    src = toy_engine(tmp_path / "toy-sum", items=items, h1_items=h1_items)
    res = swr("build", str(src), "--out", str(tmp_path / "rel"))
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1 and "Traceback" not in res.stderr, res.stderr[-2000:]
    assert "engine.toml" in lines[0] and "score.items" in lines[0] and message in lines[0], lines


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda t: t.replace('kind = "proof"', 'kind = "proof"\nshare = 1.0', 1), "checks"),  # share is gone
        (lambda t: t[: t.index("[score]")] + t[t.index("[[checks]]") :], "score"),  # [score] is required
    ],
)
def test_an_engine_toml_breaking_the_score_rules_is_refused(tmp_path: Path, edit: Any, field: str) -> None:
    d = tmp_path / "bad"
    shutil.copytree(ENGINES / "logic-synth", d)
    (d / "engine.toml").write_text(edit((d / "engine.toml").read_text()))
    with pytest.raises(SwrError, match=field):
        load_engine(d)
    res = swr("build", str(d), "--out", str(tmp_path / "out"))
    assert res.returncode == 2 and "engine.toml" in res.stderr and field in res.stderr, res.stderr[-2000:]


def test_every_shipped_engine_declares_its_score() -> None:
    """Seven engines pass at N/N as Table 2 does; each says what an item is and why k."""
    for toml in sorted(ENGINES.glob("*/engine.toml")):
        s = load_engine(toml.parent).score
        assert s.unit and s.why and 1 <= s.pass_at <= s.items, toml
    for name in ("erp-ledger", "fe-elastic", "logic-synth", "mes", "place-route", "solid-3d", "cfd-2d"):
        s = load_engine(ENGINES / name).score
        assert s.pass_at == s.items and "N/N" in s.why, name


# ------------------------------------------------------------------ the Table 2 layout: swr results, swr report


def _release(d: Path) -> Path:
    """A release holding the task.toml files of two engines (as their build writes them) and one workflow task."""
    from swr.core.layout import TaskPaths
    from swr.kinds.engine.task import public_meta
    from swr.kinds.taskfile import TaskLimits, dump_task_file
    from swr.kinds.workflow.taskfile import TaskTolerances, WorkflowTaskFile

    for name in ("statistics", "erp-ledger"):
        at = TaskPaths(d / "tasks" / name)
        at.root.mkdir(parents=True)
        at.toml.write_text(dump_task_file(public_meta(load_engine(ENGINES / name))))
    limits = TaskLimits(time_s=1, memory_mb=1, pids=1, stdout_mb=1)
    w = WorkflowTaskFile(
        id="w1", workflow="w", family="f", domain="d", variant=1, workflow_hash="h", limits=limits,
        tolerances=TaskTolerances(atol=0, rtol=0),
    )  # fmt: skip
    TaskPaths(d / "tasks" / "w1").root.mkdir(parents=True)
    TaskPaths(d / "tasks" / "w1").toml.write_text(dump_task_file(w))
    return d


def _engine_run(task: str, score: str, passed: bool) -> dict[str, Any]:
    v = {"kind": "engine", "task": task, "pass": passed, "score": score, "label": "pass" if passed else "x"}
    verdict = {**v, "labels": [] if passed else ["x"], "failed_checks": [], "records": [], "cases": []}
    return {"status": "done", "passed": passed, "label": v["label"], "verdict": parse_verdict(verdict)}


def _jobs(d: Path, release: Path) -> None:
    """m1: statistics passed 5/5; erp-ledger failed twice, best 3/4. m2: statistics failed 4/5 (k >= a
    pass_at would not make it pass here: the run's own pass mark is shown), erp-ledger passed 4/4, and a
    workflow task passed (no row: its kind has no score table)."""
    wf = {"task": "w1", "pass": True, "label": None, "labels": [], "r_hid": 1.0, "r_pub": None}
    runs = {
        "ja": ("m1", [("statistics", 1, _engine_run("statistics", "5/5", True)),
                      ("erp-ledger", 1, _engine_run("erp-ledger", "2/4", False)),
                      ("erp-ledger", 2, _engine_run("erp-ledger", "3/4", False))]),
        "jb": ("m2", [("statistics", 1, _engine_run("statistics", "4/5", False)),
                      ("erp-ledger", 1, _engine_run("erp-ledger", "4/4", True)),
                      ("w1", 1, {"status": "done", "passed": True, "label": "pass", "verdict": parse_verdict(
                          {**wf, "field_agreement": 1.0, "anti_shortcut": [], "scenarios": []})})]),
    }  # fmt: skip
    store = Store(d)
    try:
        for job, (model, planned) in runs.items():
            keys = [[t, a, f"{job}-{t}-{a}"] for t, a, _ in planned]
            store.put_job(job, {"agent": "openai", "model": model, "release": str(release), "planned": keys})
            for (t, a, fields), (_, _, key) in zip(planned, keys):
                store.put_run(
                    RunRecord(key=key, job=job, task=t, task_hash="h", agent="openai", model=model, attempt=a, **fields)
                )
    finally:
        store.close()


def test_results_prints_the_table_2_layout_over_two_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    _jobs(tmp_path / "jobs", _release(tmp_path / "rel"))
    doc = json.loads(swr("results", "ja", "jb", "--jobs-dir", str(tmp_path / "jobs"), "--json").stdout)
    t = doc["score_tables"]["engine"]
    assert list(doc["score_tables"]) == ["engine"] and t["head"] == ["engine", "analog"]
    assert t["models"] == ["openai/m1", "openai/m2"]
    assert [(r["engine"], [r["cells"][m]["text"] for m in t["models"]]) for r in t["rows"]] == [
        ("erp-ledger", ["✗ 3/4", "✓ 4/4"]),
        ("statistics", ["✓ 5/5", "✗ 4/5"]),
    ]
    assert t["rows"][1]["analog"] == load_engine(ENGINES / "statistics").analog
    assert t["rows"][0]["cells"]["openai/m1"]["run"] == "ja-erp-ledger-2"  # the best of the two runs
    assert {m: p["text"] for m, p in t["passed"].items()} == {"openai/m1": "1/2", "openai/m2": "1/2"}
    out = swr("results", "ja", "jb", "--jobs-dir", str(tmp_path / "jobs")).stdout
    rows = [[c.strip() for c in line.strip("│ ").split("│")] for line in out.splitlines() if "│" in line]
    analog = load_engine(ENGINES / "erp-ledger").analog
    assert ["erp-ledger", analog, "✗ 3/4", "✓ 4/4"] in rows, out
    assert ["Engines passed", "", "1/2", "1/2"] in rows, out


def test_the_report_shows_the_table_2_layout(tmp_path: Path) -> None:
    from swr.report import build_report

    _jobs(tmp_path / "jobs", _release(tmp_path / "rel"))
    build_report(["ja", "jb"], tmp_path / "report", tmp_path / "jobs")
    html = (tmp_path / "report" / "index.html").read_text()
    section = html[html.index('id="engines-table"') :]
    section = section[: section.index("</table>")]
    assert "erp-ledger" in section and "✗ 3/4" in section and "✓ 4/4" in section and "✓ 5/5" in section
    assert "Engines passed" in section and section.count("1/2") == 2 and "w1" not in section
