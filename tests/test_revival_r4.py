"""The dependency-rot revival `pandas-schema` (pandas_schema 0.3.6, February 2022): recorded natively on
Python 3.9 with pandas 1.4, broken on Python 3.12 with pandas 2.2 (DataFrame.iteritems is gone), repaired by
a real port. The build's three gates, what the starting workspace fails on, the oracle and nop through
kinds.grade, and anti-cheat on a pandas pin-back (at grading, and a pin-back posing as the reference).

The sdist is fetched from PyPI once (checked against its sha256); both venvs are made once under the cache."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, swr
from conftest import grade_revival as _grade
from conftest import revival_oracle as _oracle

from swr import kinds
from swr.kinds.revival.anticheat import dependency_downgrades
from swr.kinds.revival.source import apply_patch, original, port_patch
from swr.kinds.revival.spec import load_revival
from swr.kinds.revival.task import RevivalTask
from swr.kinds.revival.verdict import RevivalVerdict
from swr.kinds.verdict import parse_verdict

REVIVAL = ROOT / "revivals" / "pandas-schema"
BROKEN_TEST = "test/test_schema.py::OrderedSchema::test_mixed_columns"
PROBE = "probes/validate.py"


@pytest.fixture(scope="session")
def task(revival_release: Path) -> RevivalTask:
    t = kinds.load(revival_release / "tasks" / "pandas-schema")
    assert isinstance(t, RevivalTask)
    return t


def test_the_port_is_a_real_port_not_a_pin_back(tmp_path: Path) -> None:
    """Native is old Python and pandas 1.x, target 3.12 and pandas 2.x; the patch rewrites the removed API
    and declares nothing that excludes the target's pandas."""
    spec = load_revival(REVIVAL)
    assert spec.kind == "dependency-rot" and spec.native.python == "3.9" and spec.target.python == "3.12"
    assert spec.native.pins()["pandas"].startswith("1.") and spec.target.pins()["pandas"].startswith("2.")
    proj = original(spec, tmp_path / "orig")
    schema = proj / "pandas_schema" / "schema.py"
    assert "df.iteritems()" in schema.read_text()
    apply_patch(proj, port_patch(spec))
    assert "iteritems" not in schema.read_text() and "df.items()" in schema.read_text()
    assert "is_categorical_dtype" not in (proj / "pandas_schema" / "validation.py").read_text()
    assert "distutils" not in (proj / "setup.py").read_text().split("here =")[0]  # gone from Python 3.12
    assert dependency_downgrades(proj, spec.target.pins()) == []


def test_the_build_records_natively_and_gates_nop_and_reference(task: RevivalTask) -> None:
    record = json.loads(task.paths.build_record.read_text())
    recorded = json.loads(task.paths.recorded.read_text())
    # gate 1: the untouched original passes natively (the ordered-schema test among them) and the probe ran
    assert record["native_tests"] == len(recorded["tests"]) > 60 and BROKEN_TEST in recorded["tests"]
    assert not any(t.startswith("test/test_example.py") for t in recorded["tests"])  # its example/ is not shipped
    ordered = recorded["probes"][PROBE]["ordered_swapped"]
    assert len(ordered) == 8 and ordered[0]["column"] == "given_name" and "trailing whitespace" in ordered[0]["text"]
    n = len(recorded["tests"]) + 1
    # gate 2: the starting workspace fails in the target environment; gate 3: the port passes there
    assert record["nop"]["pass"] is False and record["nop"]["labels"] == ["tests_failed", "probe_mismatch"]
    assert record["reference"] == {"pass": True, "score": f"{n}/{n}", "labels": []}
    assert (task.reference_dir / "port.patch").is_file()
    assert not (task.project / "test" / "test_validation.py").exists()
    assert (task.project / "test" / "test_schema.py").is_file()
    assert "df.iteritems()" in (task.project / "pandas_schema" / "schema.py").read_text()


def test_nop_fails_on_the_removed_pandas_api_and_the_oracle_passes(task: RevivalTask, tmp_path: Path) -> None:
    nop = _grade(task, task.project)
    failed = {r.case: r.detail for r in nop.records if not r.passed}
    assert not nop.passed and set(failed) == {BROKEN_TEST, PROBE}, sorted(failed)
    assert "iteritems" in failed[PROBE]
    good = _grade(task, _oracle(task, tmp_path / "good"))
    assert isinstance(parse_verdict(good), RevivalVerdict)
    k = len(good.records)
    assert good.passed and good.score == f"{k}/{k}" and good.labels == [] and k == len(nop.records)


def test_feedback_shows_the_break_and_the_fix(task: RevivalTask, tmp_path: Path) -> None:
    nop = _grade(task, task.project, split="public")
    assert not nop.passed and [r.case for r in nop.records if not r.passed] == [BROKEN_TEST]
    assert _grade(task, _oracle(task, tmp_path / "c"), split="public").passed


@pytest.mark.parametrize(
    "where, old, new",
    [
        ("setup.py", "'pandas>=0.19'", "'pandas>=0.19,<2'"),
        ("requirements.txt", None, "numpy\npandas==1.4.1  # what it was written for\n"),
    ],
)
def test_a_pandas_pin_back_is_labelled(
    task: RevivalTask, tmp_path: Path, where: str, old: str | None, new: str
) -> None:
    cand = _oracle(task, tmp_path / "c")
    if old is not None:
        text = (cand / where).read_text()
        assert old in text
        new = text.replace(old, new, 1)
    (cand / where).write_text(new)
    v = _grade(task, cand)
    assert not v.passed and v.labels == ["dependency_downgrade"], v.labels
    assert v.anticheat[0]["file"] == where and v.anticheat[0]["target"] == "2.2.3"
    s = v.score.split("/")
    assert s[0] == s[1]  # the port itself still passes: anti-cheat alone fails it


def test_a_pin_back_posing_as_the_reference_is_refused(tmp_path: Path) -> None:
    """A reference that only pins pandas back does not port anything: the build refuses the task."""
    folder = shutil.copytree(REVIVAL, tmp_path / "r")
    (folder / "reference" / "port.patch").write_text(
        "--- a/setup.py\n+++ b/setup.py\n@@ -84,7 +84,7 @@ setup(\n"
        "     packages=find_packages(include=['pandas_schema']),\n     install_requires=[\n         'numpy',\n"
        "-        'pandas>=0.19',\n+        'pandas>=0.19,<2',\n         'packaging'\n     ],\n     cmdclass={\n"
    )
    res = swr("revive", "make", str(folder), "--out", str(tmp_path / "out"), timeout=1800)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "the reference fails in the target environment" in res.stderr and "dependency_downgrade" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and not (tmp_path / "out").exists()
