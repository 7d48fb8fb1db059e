"""`swr audit`: the verifier's stress test, sensitivity, replay, achievability, consensus and lint,
on the shipped catalog and on deliberately broken verifier configurations."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
import tomli_w
from conftest import FIXTURES, release_slice, sample_per_domain, swr, write_candidate

from swr.assemble import BuildOptions, build
from swr.audit.consensus import consensus_audit
from swr.audit.lint import lint_audit
from swr.audit.mutation import mutation_audit, wilson
from swr.audit.replay import replay_audit
from swr.audit.sensitivity import sensitivity_audit
from swr.core.layout import ReleasePaths
from swr.kinds.workflow.cache import ExecutionCache

# ------------------------------------------------------------------ the whole catalog meets the bar


@pytest.fixture(scope="module")
def mutation_sample(catalog_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`make test`: 4 tasks per domain drawn with SWR_TEST_SEED (printed at the end of the run); `make test-full`
    audits every task of the catalog."""
    return release_slice(
        catalog_release, tuple(sample_per_domain(catalog_release, 4)), tmp_path_factory.mktemp("mutation") / "rel"
    )


@pytest.mark.full
def test_whole_catalog_mutation_audit_makes_no_wrong_decision(catalog_release: Path) -> None:
    r = mutation_audit(catalog_release, per_class=3, jobs=2, reexecute=True)
    assert r["false_accepts"] == 0 and r["false_rejects"] == 0, r["wrong_decisions"]
    assert r["trials"] > 20 * r["tasks"]


def test_catalog_mutation_audit_makes_no_wrong_decision(mutation_sample: Path) -> None:
    r = mutation_audit(mutation_sample, per_class=3, jobs=2, reexecute=True)
    assert r["tasks"] == 24 and r["false_accepts"] == 0 and r["false_rejects"] == 0, r["wrong_decisions"]
    names = {c["name"] for c in r["classes"]}
    assert {
        "perturb_1.01x_tolerance",
        "perturb_0.99x_tolerance",
        "deepest_leaf_changed",
        "coherent_shift_10x_tolerance",
        "other_scenario_output",
        "reserialise_int_as_float",
        "ignored_axis_reexecuted",
    } <= names
    assert r["trials"] > 20 * r["tasks"]


def test_catalog_replay_controls_pass_no_task(catalog_release: Path) -> None:
    r = replay_audit(catalog_release)
    assert r["controls_passing"] == 0
    assert r["controls"]["oracle"]["pass_rate"] == 1.0


def test_catalog_every_task_changes_between_scenarios(catalog_release: Path) -> None:
    r = sensitivity_audit(catalog_release, reexecute=False)
    assert r["tasks_without_change"] == 0 and all(t["pairs_changed"] > 0 for t in r["tasks"])


def test_catalog_lints_clean(catalog_release: Path) -> None:
    """Issue 15: no unaccepted warning, no error; every accepted finding carries its workflow's reason."""
    r = lint_audit(catalog_release)
    assert (r["errors"], r["warnings"]) == (0, 0), r["findings"]
    assert all(a["why"] for a in r["accepted"])


# ------------------------------------------------------------------ small releases, broken on purpose


@pytest.fixture(scope="module")
def linear(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("audit")
    build(
        [FIXTURES / "good-linear"],
        base / "release",
        BuildOptions(variants=1, public=4, hidden=3, cache=ExecutionCache(base / "cache")),
    )
    return base / "release"


def broken_copy(release: Path, dest: Path, edit, table: str = "tolerances") -> Path:  # noqa: ANN001
    """A copy of the release with one table of each task.toml edited."""
    shutil.copytree(release, dest)
    for toml in dest.glob("tasks/*/task.toml"):
        meta = tomllib.loads(toml.read_text())
        edit(meta.setdefault(table, {}))
        toml.write_text(tomli_w.dumps(meta))
    return dest


def test_mutation_json_shape_and_a_clean_pass(linear: Path) -> None:
    res = swr("audit", "mutation", str(linear), "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    r = json.loads(res.stdout)
    assert {"classes", "false_accepts", "false_rejects", "trials"} <= set(r)
    for c in r["classes"]:
        assert {"name", "valid", "trials", "accepted", "rejected"} <= set(c)
        assert c["accepted"] + c["rejected"] == c["trials"] > 0


def test_a_tolerance_of_1e9_is_caught(linear: Path, tmp_path: Path) -> None:
    loose = broken_copy(linear, tmp_path / "loose", lambda t: t.update(atol=1e9))
    lint = lint_audit(loose)
    assert lint["errors"] and {f["check"] for f in lint["findings"]} == {"tolerance_too_loose"}
    mut = mutation_audit(loose, reexecute=False, jobs=1)
    assert mut["false_accepts"] > 0
    res = swr("audit", "mutation", str(loose), "--no-rerun")
    assert res.returncode == 1


def test_an_ignore_list_holding_every_field_is_caught(linear: Path, tmp_path: Path) -> None:
    blind = broken_copy(linear, tmp_path / "blind", lambda t: t.update(ignore=["y", "z"]))
    assert [f["check"] for f in lint_audit(blind)["findings"]] == ["nothing_graded"]
    assert swr("audit", "lint", str(blind)).returncode == 1
    assert mutation_audit(blind, reexecute=False, jobs=1)["false_accepts"] > 0


def test_a_percentage_pass_criterion_is_caught(linear: Path, tmp_path: Path, sandbox) -> None:
    """A pass on 60 % of hidden scenarios: lint flags it, and the grader does honour it (so it matters)."""
    lax = broken_copy(linear, tmp_path / "lax", lambda g: g.update(pass_threshold=0.6), table="grading")
    assert [f["check"] for f in lint_audit(lax)["findings"]] == ["percentage_pass"]
    from swr.core.release_dir import list_tasks
    from swr.kinds.workflow.grading import grade
    from swr.kinds.workflow.task import load_workflow_task

    task = load_workflow_task(list_tasks(lax)[0])
    script = (
        "import json, sys\ns = json.load(sys.stdin)\nok = s == %r\n"
        "print(json.dumps({'y': 2 * s['a'] + s['b'] + (0 if ok else 1), 'z': [s['a'], s['b']]}))\n"
    )
    wrong_once = write_candidate(tmp_path / "c", script % task.hidden[0].scenario)
    assert not grade(task, wrong_once, sandbox).passed  # right on 1 of 3 hidden scenarios
    right_twice = write_candidate(
        tmp_path / "d", script.replace("0 if ok else 1", "1 if ok else 0") % task.hidden[0].scenario
    )
    assert grade(task, right_twice, sandbox).passed  # wrong on one, and still passes: the defect


def test_a_pattern_that_matches_nothing_is_named(linear: Path, tmp_path: Path) -> None:
    typo = broken_copy(linear, tmp_path / "typo", lambda t: t.update(fields={"yy": {"rtol": 0.1}}))
    assert [(f["check"], f["field"]) for f in lint_audit(typo)["findings"]] == [("pattern_matches_nothing", "yy")]


def test_wilson_interval() -> None:
    lo, hi = wilson(10, 10)
    assert 0.69 < lo < 0.73 and hi == 1.0
    lo, hi = wilson(0, 0)
    assert (lo, hi) == (0.0, 1.0)
    lo, hi = wilson(50, 100)
    assert abs((lo + hi) / 2 - 0.5) < 1e-9 and 0.40 < lo < 0.41


def test_wilson_pinned_values_and_confidence_level() -> None:
    """scipy's Wilson interval gives the hand-written one's values (pinned to 12 digits), exact 0 and 1 at
    the ends, and takes a confidence level: 99 % is wider than 95 %."""
    assert wilson(1, 4) == pytest.approx((0.045587260810, 0.699358157418), abs=1e-12)
    assert wilson(7, 9) == pytest.approx((0.452588969107, 0.936774892882), abs=1e-12)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0
    lo95, hi95 = wilson(3, 10)
    lo99, hi99 = wilson(3, 10, confidence=0.99)
    assert lo99 < lo95 < hi95 < hi99


def test_sensitivity_names_an_inert_parameter(tmp_path: Path) -> None:
    wf = tmp_path / "wf"
    shutil.copytree(FIXTURES / "good-linear", wf)
    toml = (wf / "workflow.toml").read_text().replace('name = "good-linear"', 'name = "inert-c"')
    (wf / "workflow.toml").write_text(
        toml + '\n[inputs.c]\ntype = "number"\nmin = 0.0\nmax = 1.0\ndescription = "Read by nobody."\n'
    )
    build([wf], tmp_path / "rel", BuildOptions(variants=1, cache=ExecutionCache(enabled=False)))
    r = sensitivity_audit(tmp_path / "rel")
    assert r["inert_parameters"] == {"inert-c": ["c"]}
    assert r["tasks"][0]["parameters_moving_output"] == ["a", "b"]


def test_consensus_flags_a_field_two_candidates_agree_on(linear: Path, tmp_path: Path) -> None:
    """Two independent candidates that both compute y = 2a + b + 1 point at the reference's y."""
    script = (
        "import json, sys\ns = json.load(sys.stdin)\n"
        "print(json.dumps({'y': 2 * s['a'] + s['b'] + %s, 'z': [s['a'], s['b']]}))\n"
    )
    a = write_candidate(tmp_path / "a", script % "1.0")
    b = write_candidate(tmp_path / "b", script % "1.0")
    right = write_candidate(tmp_path / "right", script % "0.0")
    r = consensus_audit(linear, [a, b, right])
    assert r["tasks_compared"] == 1
    assert {f["field"] for f in r["flags"]} == {"y"} and len(r["flags"]) == 3
    assert consensus_audit(linear, [a, right])["flags"] == []


def test_lint_rerun_flags_drift_that_eats_the_tolerance(tmp_path: Path) -> None:
    """A reference whose run-to-run noise stays inside its tolerance (so the gates pass) but uses most of it."""
    wf = tmp_path / "wf"
    shutil.copytree(FIXTURES / "good-linear", wf)
    toml = (wf / "workflow.toml").read_text().replace('name = "good-linear"', 'name = "drifty"')
    (wf / "workflow.toml").write_text(toml.replace("atol = 1e-9\nrtol = 1e-9", "atol = 1e-6\nrtol = 0.0"))
    # drift of ±0.35e-6 between the first and the second execution (which runs under another hash seed)
    (wf / "run.py").write_text(
        "import json, os, sys\ns = json.load(sys.stdin)\na, b = float(s['a']), float(s['b'])\n"
        "drift = 0.35e-6 if os.environ['PYTHONHASHSEED'] == '0' else -0.35e-6\n"
        "json.dump({'y': 2.0 * a + b + drift, 'z': [a, b]}, sys.stdout)\n"
    )
    results = build(
        [wf], tmp_path / "rel", BuildOptions(variants=1, public=3, hidden=3, cache=ExecutionCache(enabled=False))
    )
    assert not results[0].failure, results[0].failure
    assert lint_audit(tmp_path / "rel")["findings"] == []  # statically nothing is wrong
    found = lint_audit(tmp_path / "rel", rerun=True)["findings"]
    assert found and {(f["check"], f["field"]) for f in found} == {("tolerance_below_drift", "y")}


def test_achievability_json(linear: Path) -> None:
    res = swr("audit", "achievability", str(linear), "--json")
    assert res.returncode == 0, res.stderr
    r = json.loads(res.stdout)
    assert [t["task"] for t in r["tasks"]] == ["good-linear-v1"]
    t = r["tasks"][0]
    assert (t["kind"], t["oracle_pass"], t["nop_pass"]) == ("workflow", True, False)
    assert t["thresholds"] and all(th["attained"] for th in t["thresholds"])
    assert r["unachievable"] == [] and r["passed_by_nop"] == []


def test_sensitivity_and_replay_cli(linear: Path) -> None:
    sens = swr("audit", "sensitivity", str(linear), "--json")
    assert sens.returncode == 0, sens.stderr
    assert json.loads(sens.stdout)["tasks"][0]["parameters_moving_output"] == ["a", "b"]
    saved = ReleasePaths(linear).audit_result("sensitivity")  # kept for `swr report` and `swr export sft`
    assert json.loads(saved.read_text()) == json.loads(sens.stdout)
    rep = swr("audit", "replay", str(linear))
    assert rep.returncode == 0 and "best_public" in rep.stdout
