"""The dependency-rot revival periodictable-numpy2 (periodictable 1.6.1 of May 2022: runs on Python 3.8 with
NumPy 1.22, dies on Python 3.12 with NumPy 2.1 on the removed `np.NaN`) and `swr revive make pypi:NAME==VERSION`,
which builds the revival folder naming that release or scaffolds one from the downloaded sdist.

The sdist is fetched from PyPI once into the swr cache; the two venvs are made once there too."""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT, release_slice, swr

from swr import kinds
from swr.core.errors import SwrError
from swr.harness.run import JobConfig, run_job
from swr.kinds.revival.spec import load_revival
from swr.kinds.revival.task import RevivalTask
from swr.sandbox import get_sandbox

NAME = "periodictable-numpy2"
REVIVAL = ROOT / "revivals" / NAME
SOURCE = "pypi:periodictable==1.6.1"


def _one_line(res: subprocess.CompletedProcess[str]) -> str:
    err = res.stderr
    assert res.returncode == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`swr revive make pypi:…` with a revivals folder holding this task's folder: that folder is built."""
    base = tmp_path_factory.mktemp("r3")
    shutil.copytree(REVIVAL, base / "revivals" / NAME)
    res = swr("revive", "make", SOURCE, "--revivals", str(base / "revivals"), "--out", str(base / "task"), timeout=1800)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert f"{NAME}:" in res.stdout and str(base / "task") in res.stdout.replace("\n", "")
    return base / "task"


@pytest.fixture(scope="module")
def release(revival_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return release_slice(revival_release, (NAME,), tmp_path_factory.mktemp("slice") / "rel")


def test_the_build_holds_the_three_conditions(made: Path) -> None:
    """The original passes natively (3.8, NumPy 1.22), the untouched starting workspace fails in the target
    (3.12, NumPy 2.1) and the port passes there; the task is a dependency-rot one from May 2022."""
    task = kinds.load(made)
    assert isinstance(task, RevivalTask)
    record = json.loads(task.paths.build_record.read_text())
    recorded = json.loads(task.paths.recorded.read_text())
    assert record["native_tests"] == len(recorded["tests"]) >= 15
    assert any(t.startswith("test/test_xsf.py::") for t in recorded["tests"])
    assert recorded["probes"]["probes/scattering.py"]["mass"]["H2O"] == pytest.approx(18.01528)
    assert record["nop"]["pass"] is False and "tests_failed" in record["nop"]["labels"]
    assert "probe_mismatch" in record["nop"]["labels"]  # the probe dies on np.NaN in the target
    n = len(recorded["tests"]) + len(recorded["probes"])
    assert record["reference"] == {"pass": True, "score": f"{n}/{n}", "labels": []}
    assert task.meta.released.isoformat() == "2022-05-19"
    assert "numpy==2.1.3" in task.meta.target.pip
    assert "np.NaN" in (task.project / "periodictable" / "nsf.py").read_text()  # the workspace is the original
    assert not (task.project / "test" / "test_xsf.py").exists()


def test_the_reference_is_a_port_not_a_pin_back() -> None:
    patch = (REVIVAL / "reference" / "port.patch").read_text()
    changed = [ln for ln in patch.splitlines() if ln.startswith(("+", "-")) and not ln.startswith(("+++", "---"))]
    assert changed and all("NaN" in ln or "nan" in ln for ln in changed)
    assert "numpy<" not in patch and "requirements" not in patch and "setup.py" not in patch


@pytest.mark.parametrize("where", ["requirements.txt", "setup.py"])
def test_pinning_numpy_back_is_labelled_and_fails(made: Path, tmp_path: Path, where: str) -> None:
    """The port plus a declared `numpy<2`: everything it runs passes, anti-cheat fails it."""
    task = kinds.load(made)
    cand = tmp_path / "c"
    task.write_oracle(cand)
    if where == "setup.py":
        text = (cand / where).read_text()
        assert "'numpy'" in text
        (cand / where).write_text(text.replace("'numpy'", "'numpy<2'", 1))
    else:
        (cand / where).write_text("numpy<2\npyparsing\n")
    v = task.grade(cand, get_sandbox("bwrap"))  # type: ignore[arg-type]
    assert not v.passed and v.label == "dependency_downgrade", v.labels
    assert v.anticheat[0]["file"] == where and v.anticheat[0]["target"] == "2.1.3"


def test_swr_run_oracle_passes_and_nop_fails(release: Path, tmp_path: Path) -> None:
    oracle = run_job(JobConfig(release=release, agent="oracle", jobs_dir=tmp_path / "jobs"))
    assert len(oracle) == 1 and oracle[0].passed, [(r.label, r.error) for r in oracle]
    nop = run_job(JobConfig(release=release, agent="nop", jobs_dir=tmp_path / "jobs"))
    assert len(nop) == 1 and not nop[0].passed
    k, n = nop[0].verdict.score.split("/")
    assert int(k) < int(n)


def test_an_unknown_pypi_release_is_scaffolded_not_built(tmp_path: Path) -> None:
    """No folder names the release: a scaffold records the sdist's sha256, its upload date and its tests,
    exit 2 in one line; it refuses to build (kind is a TODO) and is found, not rewritten, the next time."""
    revivals = tmp_path / "revivals"
    res = swr("revive", "make", SOURCE, "--revivals", str(revivals), "--out", str(tmp_path / "out"))
    toml = revivals / "periodictable" / "revival.toml"
    assert "scaffolded" in _one_line(res) and str(toml) in res.stderr
    assert not (tmp_path / "out").exists()
    doc = tomllib.loads(toml.read_text())
    spec = tomllib.loads((REVIVAL / "revival.toml").read_text())
    assert doc["source"] == SOURCE and doc["sha256"] == spec["sha256"]
    assert doc["released"] == spec["released"]  # 2022-05-19
    assert "test/test_xsf.py" in doc["verify"]["hidden"] and doc["verify"]["pythonpath"] == ["."]
    with pytest.raises(SwrError, match="field `kind`"):
        load_revival(toml.parent)
    before = toml.read_text()
    again = swr("revive", "make", SOURCE, "--revivals", str(revivals), "--out", str(tmp_path / "out"))
    assert "field `kind`" in _one_line(again) and str(toml) in again.stderr
    assert toml.read_text() == before


@pytest.mark.parametrize("source", ["pypi:periodictable", "pypi:periodictable>=1.6", "pypi:"])
def test_a_malformed_pypi_source_is_one_line(tmp_path: Path, source: str) -> None:
    res = swr("revive", "make", source, "--revivals", str(tmp_path), "--out", str(tmp_path / "out"))
    assert "pypi:NAME==VERSION" in _one_line(res) and "field `source`" in res.stderr
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------- issue 23 §2: ./feedback tells the truth (helper J)


def _feedback(task: Path, candidate: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return swr("feedback", str(task), str(candidate), *flags)


def _workspace(task: Path, tmp_path: Path, candidate: Path | None = None) -> Path:
    """An agent's workspace of the task (no private half: ./feedback reads task.toml), its solution/ the
    candidate's when given."""
    from swr.harness import workspace

    ws = workspace.create(kinds.load(task), tmp_path / "ws")
    if candidate is not None:
        shutil.rmtree(ws.solution)
        shutil.copytree(candidate, ws.solution, symlinks=True)
    return ws.root


def test_the_reference_passes_feedback_with_the_public_tests_alone(made: Path, tmp_path: Path) -> None:
    """./feedback runs the public tests without the hidden ones. The original's test_private.py passes only
    after test_covalent_radius.py and test_crystal_structure.py have loaded their tables into the public one,
    so it is hidden; the correct reference passes ./feedback on the task and in an agent's workspace, and the
    build recorded that it did. The hidden grading still runs every test (test_private.py among them)."""
    task = kinds.load(made)
    oracle = tmp_path / "oracle"
    task.write_oracle(oracle)
    for where in (made, _workspace(made, tmp_path, oracle)):
        res = _feedback(where, where / "solution" if where != made else oracle, "--json")
        v = json.loads(res.stdout)
        assert res.returncode == 0 and v["pass"] and v["label"] == "pass", (where, v["labels"], v["detail"][-800:])
        assert [r["case"] for r in v["records"]] == ["test/test_core.py::test"]
    assert json.loads(task.paths.build_record.read_text())["feedback"] == {"pass": True, "score": "1/1", "labels": []}
    assert "test/test_private.py::test" in json.loads(task.paths.recorded.read_text())["tests"]


def test_a_public_test_that_passes_only_after_hidden_ones_is_refused(tmp_path: Path) -> None:
    """The spec as it was (test_private.py public): the build refuses it in one line naming the field and the
    test, instead of shipping a task whose correct reference fails ./feedback."""
    folder = shutil.copytree(REVIVAL, tmp_path / NAME)
    toml = folder / "revival.toml"
    text = toml.read_text()
    for old, new in (
        (', "test/test_private.py"]', "]"),
        ('public = ["test/test_core.py"]', 'public = ["test/test_core.py", "test/test_private.py"]'),
    ):
        assert old in text
        text = text.replace(old, new, 1)
    toml.write_text(text)
    res = swr("revive", "make", str(folder), "--out", str(tmp_path / "out"), timeout=1800)
    err = _one_line(res)
    assert str(toml) in err and "./feedback" in err and "`verify.public`" in err, err
    assert "test/test_private.py::test" in err, err
    assert not (tmp_path / "out").exists()


def test_feedback_keeps_the_lines_of_pytests_account(made: Path, tmp_path: Path) -> None:
    """A failing public test: ./feedback prints pytest's account below the table line by line, as pytest wrote
    it, not folded into one centred caption with its newlines shown as U+FFFD."""
    cand = tmp_path / "cand"
    kinds.load(made).write_oracle(cand)
    core = cand / "periodictable" / "core.py"
    text = core.read_text()
    assert "1: ['Hydrogen'," in text
    core.write_text(text.replace("1: ['Hydrogen',", "1: ['Hydrogenx',", 1))
    res = _feedback(made, cand)
    assert res.returncode == 1, res.stdout[-2000:] + res.stderr[-2000:]
    assert "\ufffd" not in res.stdout, res.stdout
    lines = res.stdout.splitlines()
    assert '>       assert H.name == "hydrogen"' in lines, res.stdout
    assert "E       AssertionError: assert 'hydrogenx' == 'hydrogen'" in lines, res.stdout
    assert any(ln.startswith("FAILED test/test_core.py::test - AssertionError") for ln in lines), res.stdout


def test_feedback_where_no_test_ran_fails_with_the_reason(made: Path, tmp_path: Path) -> None:
    """In a workspace, a conftest.py that fails to import stops pytest before it collects a test: ./feedback
    fails the public tests as not run and shows why, instead of "FAIL (pass)" with a score of 0/0."""
    ws = _workspace(made, tmp_path)
    (ws / "solution" / "test" / "conftest.py").write_text('raise ImportError("a broken conftest")\n')
    res = _feedback(ws, ws / "solution")
    assert res.returncode == 1 and "(pass)" not in res.stdout and "0/0" not in res.stdout, res.stdout
    assert "tests_failed" in res.stdout and "ImportError: a broken conftest" in res.stdout, res.stdout
    v = json.loads(_feedback(ws, ws / "solution", "--json").stdout)
    assert v["pass"] is False and v["label"] == "tests_failed", v
    assert v["records"] == [{"case": "test/test_core.py", "check": "test", "pass": False, "detail": "not run"}]
