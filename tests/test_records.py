"""One typed model per file swr writes, and the verdict as a model: each file of the fixtures (copied from
releases that main built with seed 0, and verdicts main's graders returned before they returned models) reads
back as its model and dumps to the same bytes; a file that does not fit its model is one line naming the file
and the field; the store's columns are its records' fields and old databases' verdicts load unchanged."""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import fields
from pathlib import Path

import pytest
from conftest import ROOT, swr

from swr import kinds
from swr.core.errors import SwrError
from swr.core.layout import DB_FILE
from swr.core.recordfile import dump_record, read_record
from swr.core.release_dir import load_release, task_dir
from swr.core.release_file import ReleaseFile
from swr.harness.run import JobConfig
from swr.harness.store import RegradeRecord, RunRecord, Store
from swr.kinds.engine.build_file import EngineBuildFile
from swr.kinds.engine.verdict import EngineVerdict
from swr.kinds.revival.build_file import RevivalBuildFile, read_build_file
from swr.kinds.revival.verdict import RevivalVerdict
from swr.kinds.verdict import Verdict, dump_verdict, parse_verdict, verdict_json, verdict_model
from swr.kinds.workflow.coverage import CoverageFile
from swr.kinds.workflow.gates_file import GatesFile
from swr.kinds.workflow.verdict import WorkflowVerdict

RECORDS = ROOT / "tests" / "fixtures" / "records"
MODELS = {
    "release": ReleaseFile,
    "gates": GatesFile,
    "coverage": CoverageFile,
    "engine-build": EngineBuildFile,
    "revival-build": RevivalBuildFile,
}
FILES = sorted(RECORDS.glob("*.json"))
VERDICTS = sorted((RECORDS / "verdicts").glob("*.json"))


def _model(path: Path) -> type:
    return MODELS[path.name.split(".")[-2]]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_file_swr_wrote_reads_as_its_model_and_dumps_to_the_same_bytes(path: Path) -> None:
    text = path.read_text()
    assert dump_record(read_record(_model(path), path)) == text


def test_the_fixtures_cover_every_model_and_shape() -> None:
    """One of each model, a revival variant made by obfuscation, a deleted module's calibration, a release of
    each kind of source folder."""
    assert {_model(p) for p in FILES} == set(MODELS.values())
    revivals = [read_record(RevivalBuildFile, p) for p in FILES if _model(p) is RevivalBuildFile]
    assert any(r.obfuscated_from and r.identifiability for r in revivals)
    assert any(r.similarity and r.rebuild for r in revivals) and any(r.feedback is None for r in revivals)
    releases = [read_record(ReleaseFile, p) for p in FILES if _model(p) is ReleaseFile]
    assert all(any(getattr(r, k) for r in releases) for k in ("workflows", "engines", "revivals"))


@pytest.mark.parametrize(
    ("name", "edit", "field"),
    [
        (
            "fluid-state-v3.gates.json",
            lambda d: d["gates"]["oracle_passes"].update({"pass": "yes"}),
            "gates.oracle_passes.pass",
        ),
        (
            "fluid-state-v3.gates.json",
            lambda d: d["gates"]["disjoint"].update({"passes": True}),
            "gates.disjoint.passes",
        ),
        ("engines.release.json", lambda d: d.pop("seed"), "seed"),
        ("geodesic-line-v1.coverage.json", lambda d: d.update({"functions": "all"}), "functions"),
        ("engines.release.json", lambda d: d["engines"][0].update({"status": "meh"}), "engines.0.status"),
        ("plc-runtime.engine-build.json", lambda d: d["adequacy"].update({"kill_rate": "high"}), "adequacy.kill_rate"),
        ("p-8d6813-deleted-module.revival-build.json", lambda d: d.update({"native_tests": "many"}), "native_tests"),
        ("toolz-itertoolz.revival-build.json", lambda d: d["similarity"].pop("threshold"), "similarity.threshold"),
    ],
)
def test_a_file_that_is_not_its_model_is_one_line_naming_file_and_field(
    tmp_path: Path,
    name: str,
    edit,  # noqa: ANN001
    field: str,
) -> None:
    doc = json.loads((RECORDS / name).read_text())
    edit(doc)
    bad = tmp_path / name
    bad.write_text(json.dumps(doc))
    with pytest.raises(SwrError) as e:
        read_record(_model(bad), bad)
    assert (e.value.file, e.value.field) == (str(bad), field)
    assert len(str(e.value).splitlines()) == 1 and str(bad) in str(e.value) and f"`{field}`" in str(e.value)


def test_a_release_whose_gates_are_not_a_gates_file_is_refused_by_swr_tasks(
    linear_release: Path, tmp_path: Path
) -> None:
    rel = tmp_path / "rel"
    shutil.copytree(linear_release, rel, symlinks=True)
    gates = task_dir(rel, "good-linear-v1") / "private" / "gates.json"
    doc = json.loads(gates.read_text())
    doc["gates"]["oracle_passes"]["r_hid"] = "all of them"
    gates.write_text(json.dumps(doc))
    res = swr("tasks", str(rel))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert str(gates) in res.stderr and "`gates.oracle_passes.r_hid`" in res.stderr and "Traceback" not in res.stderr


def test_a_built_release_reads_back_through_its_models(linear_release: Path) -> None:
    rel = load_release(linear_release)
    assert isinstance(rel, ReleaseFile) and rel.content_hash and rel.workflows and rel.engines is None
    assert dump_record(rel) == (linear_release / "release.json").read_text()
    gates = kinds.load(task_dir(linear_release, "good-linear-v1")).gates
    assert gates["oracle_passes"].passed and gates["oracle_passes"].r_hid == 1.0
    assert not any(c.passed for c in gates["replay_controls_fail"].controls.values())


def test_a_missing_build_file_is_none_and_a_present_one_its_model(tmp_path: Path) -> None:
    assert read_build_file(tmp_path / "build.json") is None
    shutil.copyfile(RECORDS / "p-8d6813-deleted-module.revival-build.json", tmp_path / "build.json")
    built = read_build_file(tmp_path / "build.json")
    assert built is not None and built.obfuscated_from == "toolz-itertoolz" and built.seed == 20241004


# ------------------------------------------------------------------ the verdict


@pytest.mark.parametrize("path", VERDICTS, ids=lambda p: p.stem)
def test_a_verdict_main_returned_dumps_to_the_same_json(path: Path) -> None:
    """What the store's verdict column, a run directory and Harbor's verdict file hold, and `swr grade --json`
    prints, byte for byte as before the graders returned models."""
    text = path.read_text()
    v = parse_verdict(json.loads(text))
    assert isinstance(v, Verdict) and type(v) is verdict_model(v.kind)
    assert dump_verdict(v) == text
    assert dump_verdict(v, indent=2) == json.dumps(json.loads(text), indent=2, allow_nan=False)
    assert parse_verdict(verdict_json(v)) == v


def test_each_kind_has_its_model_and_reads_generically() -> None:
    got = {p.stem: parse_verdict(json.loads(p.read_text())) for p in VERDICTS}
    assert isinstance(got["workflow-oracle"], WorkflowVerdict) and "kind" not in verdict_json(got["workflow-oracle"])
    assert isinstance(got["engine-constant"], EngineVerdict) and isinstance(got["revival-nop"], RevivalVerdict)
    assert got["workflow-oracle"].r_hid == 1.0 and got["workflow-oracle"].score is None
    assert got["engine-oracle"].score == "4/4" and got["engine-oracle"].r_hid is None
    assert got["engine-constant"].agreement() == 0.0 and got["workflow-oracle"].agreement() == 1.0
    assert got["engine-feedback"].public_only and not got["engine-oracle"].public_only
    assert [f["kind"] for f in got["revival-deleted-module-oracle"].findings()] == ["copied_original"]
    assert (
        got["revival-deleted-module-oracle"].measured_similarity() and not got["revival-feedback"].measured_similarity()
    )
    assert got["revival-feedback"].exit_ok() and not got["engine-constant"].exit_ok()


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"kind": "vibes", "task": "t", "pass": True}, "kind"),
        ({"kind": "engine", "task": "t", "pass": True, "label": "pass", "labels": [], "score": "1/1"}, "failed_checks"),
        (
            {
                "task": "t",
                "pass": True,
                "label": "pass",
                "labels": [],
                "r_hid": 1.0,
                "r_pub": None,
                "field_agreement": 1.0,
                "anti_shortcut": [],
                "scenarios": [],
                "score": "1/1",
            },
            "score",
        ),
    ],
)
def test_a_verdict_that_is_no_kinds_is_one_line_naming_the_field(doc: dict, field: str) -> None:
    with pytest.raises(SwrError) as e:
        parse_verdict(doc)
    assert field in (e.value.field or str(e.value)) and len(str(e.value).splitlines()) == 1


def test_the_graders_return_their_kinds_model(linear_release: Path, sandbox, tmp_path: Path) -> None:  # noqa: ANN001
    task = kinds.load(task_dir(linear_release, "good-linear-v1"))
    task.write_oracle(tmp_path / "oracle")
    v = task.grade(tmp_path / "oracle", sandbox)
    assert isinstance(v, WorkflowVerdict) and v.passed and v.scenarios[0].passed
    fb = task.grade(tmp_path / "oracle", sandbox, split="public")
    assert isinstance(fb, WorkflowVerdict) and fb.r_hid is None and fb.exit_ok()


# ------------------------------------------------------------------ the store


@pytest.mark.parametrize("record", [RunRecord, RegradeRecord, JobConfig])
def test_records_take_keywords_only(record: type) -> None:
    with pytest.raises(TypeError):
        record("k", "j", "t", "h", "oracle", None, 1, "done")


def test_the_store_columns_are_its_records_fields(tmp_path: Path) -> None:
    Store(tmp_path).close()
    db = sqlite3.connect(tmp_path / DB_FILE)
    for table, record in (("runs", RunRecord), ("regrades", RegradeRecord)):
        assert [row[1] for row in db.execute(f"PRAGMA table_info({table})")] == [f.name for f in fields(record)]
    db.close()


def test_a_run_with_a_verdict_round_trips_and_the_column_keeps_the_graders_json(tmp_path: Path) -> None:
    text = (RECORDS / "verdicts" / "revival-deleted-module-oracle.json").read_text()
    r = RunRecord(
        key="k",
        job="j",
        task="t",
        task_hash="h",
        agent="oracle",
        model=None,
        attempt=1,
        status="done",
        passed=False,
        label="copied_original",
        labels=["copied_original"],
        verdict=parse_verdict(json.loads(text)),
        turns=3,
        cost=0.5,
        cheats=[{"kind": "x"}],
        public_hash="p",
    )
    store = Store(tmp_path)
    try:
        store.put_job("j", {})
        store.put_run(r)
        [back] = store.runs("j")
        assert back.finished is not None and back == RunRecord(**{**vars(r), "finished": back.finished})
        [(column,)] = store.db.execute("SELECT verdict FROM runs").fetchall()
        assert column == text
    finally:
        store.close()


def test_an_old_database_with_a_verdict_in_the_old_json_loads(tmp_path: Path) -> None:
    """A store made before the columns were declared once, keyed by run alone, its verdict as the grader's
    dict was dumped then: it opens (migrated and rekeyed) and the verdict reads back as its model."""
    text = (RECORDS / "verdicts" / "engine-constant.json").read_text()
    db = sqlite3.connect(tmp_path / DB_FILE)
    db.executescript("""CREATE TABLE jobs (name TEXT PRIMARY KEY, config TEXT NOT NULL, created REAL NOT NULL,
      updated REAL NOT NULL);
    CREATE TABLE runs (key TEXT PRIMARY KEY, job TEXT NOT NULL, task TEXT NOT NULL, task_hash TEXT NOT NULL,
      family TEXT, domain TEXT, agent TEXT NOT NULL, model TEXT, attempt INTEGER NOT NULL, status TEXT NOT NULL,
      passed INTEGER, label TEXT, labels TEXT, verdict TEXT, turns INTEGER, input_tokens INTEGER,
      output_tokens INTEGER, cost REAL, wall_s REAL, cheats TEXT, error TEXT, tries INTEGER NOT NULL DEFAULT 1,
      finished REAL NOT NULL);""")
    db.execute(
        "INSERT INTO runs (key, job, task, task_hash, agent, attempt, status, passed, label, labels, verdict,"
        " finished) VALUES ('k', 'j', 'e', 'h', 'nop', 1, 'done', 0, 'x', '[]', ?, 0)",
        (text,),
    )
    db.commit()
    db.close()
    store = Store(tmp_path)
    try:
        [r] = store.runs("j")
        assert isinstance(r.verdict, EngineVerdict) and r.verdict.score == json.loads(text)["score"]
        assert (r.family, r.turns, r.cheats, r.public_hash) == ("", 0, [], None)
        store.put_run(r)
        assert store.db.execute("SELECT verdict FROM runs").fetchone()[0] == text
    finally:
        store.close()
