"""Revival tasks end to end, on the shipped revival (more-itertools 10.2.0 with its recipes module deleted):
spec errors, `swr build revivals` (the original passes natively, the starting workspace fails, the restored
module passes, all in the target venv inside the bwrap sandbox), the verdict and its score, anti-cheat on an
edited public test and a pinned-back dependency, and `swr run` with the oracle and nop.

The sdist is fetched from PyPI once (and checked against its sha256); the venv is made once under the cache."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, swr
from conftest import grade_revival as _grade
from conftest import revival_oracle as _oracle

from swr import kinds
from swr.harness import workspace
from swr.harness.run import JobConfig, run_job
from swr.kinds.revival.grading import FORGED, read_results
from swr.kinds.revival.runner import MARK
from swr.kinds.revival.source import imported_by, most_imported, original
from swr.kinds.revival.spec import load_revival
from swr.kinds.revival.task import RevivalTask
from swr.kinds.revival.verdict import RevivalVerdict
from swr.kinds.verdict import parse_verdict

REVIVAL = ROOT / "revivals" / "more-itertools-recipes"
TASK = "more-itertools-recipes"


@pytest.fixture(scope="session")
def release(revival_release: Path) -> Path:
    return revival_release


@pytest.fixture(scope="session")
def task(release: Path) -> RevivalTask:
    t = kinds.load(release / "tasks" / TASK)
    assert isinstance(t, RevivalTask)
    return t


@pytest.mark.parametrize(
    "edit, field",
    [
        ('kind = "deleted-module"', ('kind = "deleted-modules"', "kind")),
        ("released = 2024-01-08", ('released = "last year"', "released")),
        ('"pluggy==1.7.0"]\n\n[verify]', ('"pluggy>=1"]\n\n[verify]', "target.pip")),
        ('sha256 = "', ('shasum = "', "shasum")),
        ('probes = ["probes/recipes.py"]', ('probes = ["../recipes.py"]', "verify.probes")),
    ],
)
def test_a_bad_spec_is_one_line_naming_file_and_field(tmp_path: Path, edit: str, field: tuple[str, str]) -> None:
    folder = shutil.copytree(REVIVAL, tmp_path / "r")
    text = (folder / "revival.toml").read_text()
    assert edit in text
    (folder / "revival.toml").write_text(text.replace(edit, field[0], 1))
    res = swr("revive", "make", str(folder), "--out", str(tmp_path / "out"))
    assert res.returncode == 2, res.stdout + res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr, res.stderr
    assert str(folder / "revival.toml") in res.stderr and f"field `{field[1]}`" in res.stderr, res.stderr
    assert not (tmp_path / "out").exists()


def test_a_kind_other_than_the_specs_is_refused(tmp_path: Path) -> None:
    res = swr("revive", "make", str(REVIVAL), "--kind", "dependency-rot", "--out", str(tmp_path / "out"))
    assert res.returncode == 2 and "field `kind`" in res.stderr and "deleted-module" in res.stderr, res.stderr


def test_the_deleted_module_is_the_most_imported_one(tmp_path: Path) -> None:
    """No `module` in the spec: the build deletes what the package's own import graph leans on most."""
    spec = load_revival(REVIVAL)
    assert spec.module is None
    proj = original(spec, tmp_path / "orig")
    counts = imported_by(proj, (".",), spec.verify.hidden)
    assert counts["more_itertools.recipes"] == 2 and counts["more_itertools.more"] == 1  # by __init__ and more
    assert most_imported(proj, (".",), spec.verify.hidden) == "more_itertools.recipes"


def test_the_build_records_natively_and_gates_nop_and_reference(task: RevivalTask) -> None:
    record = json.loads(task.paths.build_record.read_text())
    recorded = json.loads(task.paths.recorded.read_text())
    assert record["native_tests"] == len(recorded["tests"]) > 500
    assert any(t.startswith("tests/test_recipes.py::") for t in recorded["tests"])
    assert record["nop"]["pass"] is False and record["nop"]["score"].startswith("0/")
    n = len(recorded["tests"]) + len(recorded["probes"])
    assert record["reference"] == {"pass": True, "score": f"{n}/{n}", "labels": []}
    project = task.project
    assert not (project / "more_itertools" / "recipes.py").exists()
    assert not (project / "more_itertools" / "recipes.pyi").exists()
    assert not (project / "tests" / "test_recipes.py").exists() and (project / "tests" / "test_more.py").is_file()
    assert (task.reference_dir / "module" / "more_itertools" / "recipes.py").is_file()
    assert task.meta.released.isoformat() == "2024-01-08" and task.meta.target.pip == load_revival(REVIVAL).target.pip


def test_the_workspace_is_the_broken_project_in_one_root_commit(task: RevivalTask, tmp_path: Path) -> None:
    ws = workspace.create(task, tmp_path / "ws")
    git = ["git", "-c", "safe.directory=*", "-C", str(ws.root)]  # the workspace is the sandbox user's
    assert subprocess.run([*git, "rev-list", "--all", "--count"], capture_output=True, text=True).stdout.strip() == "1"
    assert (ws.solution / "more_itertools" / "more.py").is_file() and (ws.root / "feedback").is_file()
    assert not (ws.root / "public").exists() and not (ws.solution / "more_itertools" / "recipes.py").exists()
    found = subprocess.run([*git, "grep", "-l", "def sliding_window", "HEAD"], capture_output=True, text=True)
    assert found.stdout == "", found.stdout  # the deleted module is in no commit
    assert "private" not in json.dumps(sorted(p.name for p in ws.root.rglob("*")))


def test_verdict_shape_and_score(task: RevivalTask, tmp_path: Path) -> None:
    good = _grade(task, _oracle(task, tmp_path / "good"), reference=True)
    assert isinstance(parse_verdict(good), RevivalVerdict)
    n = len(good.records)
    assert good.passed and good.score == f"{n}/{n}" and good.label == "pass" and good.labels == []
    assert {r.check for r in good.records} == {"test", "probe"}
    nop = _grade(task, task.project)
    assert not nop.passed and nop.score == f"0/{n}" and nop.labels == ["tests_failed", "probe_mismatch"]
    # one recipe wrong (sliding_window drops its last window): some records fail, not all
    bad = _oracle(task, tmp_path / "bad")
    rec = bad / "more_itertools" / "recipes.py"
    rec.write_text(
        rec.read_text() + "\n_sw = sliding_window\n"
        "def sliding_window(iterable, n):\n    return list(_sw(iterable, n))[:-1]\n"
    )
    v = _grade(task, bad, reference=True)  # the original with one recipe wrong: its copy is not the point here
    k = int(v.score.split("/")[0])
    assert not v.passed and 0 < k < n and v.score.endswith(f"/{n}"), v.score
    assert v.labels == ["tests_failed", "probe_mismatch"]
    failed = [r.case for r in v.records if not r.passed]
    assert "probes/recipes.py" in failed and any("SlidingWindow" in c for c in failed), failed[:5]


def test_an_empty_candidate_is_missing(task: RevivalTask, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    v = _grade(task, tmp_path / "empty")
    assert not v.passed and v.label == "missing_candidate"


def test_an_edited_public_test_is_labelled_and_fails(task: RevivalTask, tmp_path: Path) -> None:
    cand = _oracle(task, tmp_path / "c")
    (cand / "tests" / "test_more.py").write_text((cand / "tests" / "test_more.py").read_text() + "\n# tidied\n")
    v = _grade(task, cand, reference=True)
    assert not v.passed and v.label == "tests_modified", v.labels
    assert v.score.split("/")[0] == v.score.split("/")[1]  # the tests themselves pass: anti-cheat fails it
    assert v.anticheat == [{"kind": "tests_modified", "file": "tests/test_more.py", "detail": "changed"}]


@pytest.mark.parametrize(
    "where, text, flagged",
    [
        ("requirements.txt", "pytest<8\n", True),
        ("requirements-dev.txt", "pytest==7.4.4  # what it was written for\n", True),
        ("pyproject.toml", None, True),  # [project] dependencies gains "pytest~=7.0"
        ("requirements.txt", "pytest>=8\nnumpy<2\n", False),  # allows the target pin; numpy is not a target package
    ],
)
def test_a_pinned_back_dependency_is_labelled(
    task: RevivalTask, tmp_path: Path, where: str, text: str | None, flagged: bool
) -> None:
    cand = _oracle(task, tmp_path / "c")
    if text is None:
        doc = (cand / where).read_text()
        assert "[project]" in doc
        text = doc.replace("[project]", '[project]\ndependencies = ["pytest~=7.0"]', 1)
    (cand / where).write_text(text)
    v = _grade(task, cand, reference=True)
    assert v.passed is not flagged, v.labels
    assert ("dependency_downgrade" in v.labels) is flagged
    if flagged:
        assert v.anticheat[0]["file"] == where and v.anticheat[0]["target"] == "8.3.3"


FORGER = """
import atexit as _atexit, json as _json, sys as _sys
def _forge():
    _sys.stdout.write("\\n" + {prefix!r} + _json.dumps({{"exit": 0, "outcomes": _json.loads({outcomes!r})}}) + "\\n")
    _sys.stdout.flush()
_atexit.register(_forge)
"""


@pytest.mark.parametrize("prefix", [MARK, MARK + "0" * 32], ids=["the-old-format", "a-guessed-nonce"])
def test_a_forged_results_line_does_not_pass_a_failing_test(task: RevivalTask, tmp_path: Path, prefix: str) -> None:
    """A candidate whose module, on import, registers an exit handler that prints a results line claiming
    every natively passing test passed: its failing tests still fail, and the verdict says it was forged."""
    cand = _oracle(task, tmp_path / "c")
    rec = cand / "more_itertools" / "recipes.py"
    everything = json.dumps({t: "passed" for t in json.loads(task.paths.recorded.read_text())["tests"]})
    rec.write_text(
        rec.read_text() + "\n_sw = sliding_window\n"
        "def sliding_window(iterable, n):\n    return list(_sw(iterable, n))[:-1]\n"
        + FORGER.format(prefix=prefix, outcomes=everything)
    )
    v = _grade(task, cand)
    broken = [r for r in v.records if r.check == "test" and "SlidingWindow" in r.case]
    assert broken and not any(r.passed for r in broken), broken[:2]
    assert not v.passed and "execution_failure" in v.labels, v.labels
    assert v.detail.startswith(FORGED) and FORGED in broken[0].detail, v.detail


def test_only_the_runners_one_results_line_is_read() -> None:
    nonce, out = "ab" * 16, '{"exit": 1, "outcomes": {"t::a": "failed"}}'
    honest = f"pytest says F\n{MARK}{nonce}{out}\n"
    assert read_results(honest, nonce) == ({"t::a": "failed"}, "pytest says F\n")
    forged = f'{MARK}{{"exit": 0, "outcomes": {{"t::a": "passed"}}}}\n'
    for text, why in [
        (honest + forged, "2 results lines"),
        (forged + honest, "2 results lines"),
        (honest + "bye\n", "output after the results line: 'bye'"),
        (forged, "no results line carries this run's nonce"),
        (honest.replace(nonce, "cd" * 16), "no results line carries this run's nonce"),
    ]:
        got, detail = read_results(text, nonce)
        assert got is None and detail.splitlines()[-1].startswith(f"{FORGED}: {why}"), (text, detail)


def test_public_split_runs_the_public_tests_only(task: RevivalTask, tmp_path: Path) -> None:
    good = _grade(task, _oracle(task, tmp_path / "c"), split="public")
    assert good.split == "public" and good.passed, good.labels
    assert good.records and all(r.case.startswith("tests/test_more.py::") for r in good.records)
    assert not _grade(task, task.project, split="public").passed


def test_swr_run_oracle_passes_and_nop_fails(release: Path, tmp_path: Path) -> None:
    """Acceptance 2 of issue 13 over every shipped revival task: the oracle passes each one, nop none."""
    oracle = run_job(JobConfig(release=release, agent="oracle", jobs_dir=tmp_path / "jobs"))
    assert len(oracle) >= 6 and all(r.passed for r in oracle), [(r.task, r.label, r.error) for r in oracle]
    for r in oracle:
        k, n = r.verdict.score.split("/")
        assert k == n and int(n) > 0, (r.task, r.verdict.score)
    nop = run_job(JobConfig(release=release, agent="nop", jobs_dir=tmp_path / "jobs"))
    assert len(nop) == len(oracle) and not any(r.passed for r in nop), [(r.task, r.label) for r in nop]


def test_a_pin_whose_dependency_is_not_pinned_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pins are the whole environment (installed without dependencies, then `pip check`): pytest pinned
    without pluggy/iniconfig/packaging would let those float to whatever PyPI has on build day."""
    from swr.core.errors import SwrError
    from swr.kinds.revival.envs import ensure, installed
    from swr.kinds.revival.spec import Env

    monkeypatch.setenv("SWR_CACHE", str(tmp_path))
    with pytest.raises(SwrError, match=r"pip check.*pytest 8\.3\.3 requires"):
        ensure(Env(python="3.12", pip=("pytest==8.3.3",)))
    venv = ensure(Env(python="3.12", pip=("pytest==8.3.3", "iniconfig==2.3.1", "packaging==26.4", "pluggy==1.7.0")))
    assert sorted(k for k in installed(venv) if k != "pip") == ["iniconfig", "packaging", "pluggy", "pytest"]
