"""The typed models of task.toml and of the verdict: what a build writes, what a bad file is told, and the
contract every grader's output is checked against."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
import tomli_w
from conftest import swr, write_candidate

from swr import kinds
from swr.core.errors import SwrError
from swr.core.release_dir import task_dir
from swr.kinds.engine.verdict import EngineVerdict
from swr.kinds.taskfile import dump_task_file, read_task_file
from swr.kinds.verdict import parse_verdict, run_outcome
from swr.kinds.workflow.task import load_workflow_task
from swr.kinds.workflow.taskfile import WorkflowTaskFile
from swr.kinds.workflow.verdict import WorkflowVerdict


def test_a_built_task_records_its_kind_and_reads_back_as_its_model(linear_release: Path) -> None:
    root = task_dir(linear_release, "good-linear-v1")
    assert tomllib.loads((root / "task.toml").read_text())["kind"] == "workflow"
    meta = read_task_file(root)
    assert isinstance(meta, WorkflowTaskFile) and meta.id == "good-linear-v1" and meta.variant == 1
    assert dump_task_file(meta) == (root / "task.toml").read_text()  # the file is the model's own dump
    assert load_workflow_task(root).meta == meta


def _doctored(release: Path, tmp_path: Path, edit) -> Path:  # noqa: ANN001
    root = tmp_path / "t"
    shutil.copytree(task_dir(release, "good-linear-v1"), root)
    meta = tomllib.loads((root / "task.toml").read_text())
    edit(meta)
    (root / "task.toml").write_text(tomli_w.dumps(meta))
    return root


@pytest.mark.parametrize(
    ("edit", "field", "words"),
    [
        (lambda m: m.update(kind="revival-of-the-fittest"), "kind", "unknown task kind"),
        (lambda m: m["limits"].pop("time_s"), "limits.time_s", "required"),
        (lambda m: m["tolerances"].update(atol=-1.0), "tolerances.atol", "greater than or equal"),
        (lambda m: m.update(surprise=1), "surprise", "not permitted"),
    ],
)
def test_a_bad_task_toml_is_one_line_naming_file_and_field(
    linear_release: Path, tmp_path: Path, edit, field: str, words: str
) -> None:  # noqa: ANN001
    root = _doctored(linear_release, tmp_path, edit)
    with pytest.raises(SwrError) as e:
        kinds.load(root)
    assert e.value.field == field and words in e.value.message
    res = swr("grade", str(root), str(write_candidate(tmp_path / "c", "print('{}')")))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    [line] = res.stderr.strip().splitlines()
    assert "task.toml" in line and field in line


def test_an_older_task_toml_without_kind_is_a_workflow_task(linear_release: Path, tmp_path: Path) -> None:
    root = _doctored(linear_release, tmp_path, lambda m: m.pop("kind"))
    assert isinstance(kinds.load(root).meta, WorkflowTaskFile)


def test_every_verdict_grade_returns_holds_to_the_model(linear_release: Path, sandbox, tmp_path: Path) -> None:  # noqa: ANN001
    task = kinds.load(task_dir(linear_release, "good-linear-v1"))
    task.write_oracle(tmp_path / "oracle")
    v = parse_verdict(task.grade(tmp_path / "oracle", sandbox))
    assert isinstance(v, WorkflowVerdict) and v.passed and v.r_hid == 1.0 and v.scenarios[0].passed


def test_a_verdict_that_breaks_the_contract_is_refused_naming_the_field() -> None:
    good = {
        "kind": "engine",
        "task": "t",
        "pass": False,
        "label": "proof_failure:eq",
        "labels": ["proof_failure:eq"],
        "score": "1/2",
        "failed_checks": ["eq"],
        "cases": [{"case": "a", "failure": None, "detail": ""}],
        "records": [
            {
                "case": "a",
                "check": "eq",
                "kind": "proof",
                "measured": None,
                "threshold": None,
                "better": None,
                "pass": False,
                "detail": "counterexample",
            }
        ],
    }
    assert isinstance(parse_verdict(good), EngineVerdict)
    bad = {**good, "records": [{**good["records"][0], "kind": "vibes"}]}
    with pytest.raises(SwrError) as e:
        parse_verdict(bad)
    assert e.value.field == "records.0.kind"
    with pytest.raises(SwrError):
        parse_verdict({**good, "score": "41 of 43"})


@pytest.mark.parametrize(
    ("passed", "limit", "cheated", "policy", "outcome"),
    [
        (True, None, False, "fail", (True, "pass", [])),
        (True, None, True, "fail", (False, "anti_cheat", ["anti_cheat"])),
        (True, None, True, "record", (True, "pass", ["anti_cheat"])),
        (False, "time", False, "fail", (False, "time", ["numeric_mismatch", "time"])),
        (False, None, True, "fail", (False, "numeric_mismatch", ["numeric_mismatch", "anti_cheat"])),
    ],
)
def test_a_runs_outcome_from_its_verdict(
    passed: bool, limit: str | None, cheated: bool, policy: str, outcome: tuple
) -> None:
    labels = [] if passed else ["numeric_mismatch"]
    v = {
        "task": "t",
        "pass": passed,
        "label": "pass" if passed else "numeric_mismatch",
        "labels": labels,
        "r_hid": 1.0 if passed else 0.0,
        "r_pub": None,
        "field_agreement": 1.0,
        "anti_shortcut": [],
        "scenarios": [],
    }
    assert run_outcome(v, limit, cheated, policy) == outcome
