"""The `build` revival task (revivals/bitarray-c-api): bitarray 1.2.2, a C extension that builds and passes on
Python 3.8 and no longer compiles on 3.13 (Py_SIZE()/Py_TYPE() assigned, PyEval_CallObject(), distutils).
Built into a one-task release with `swr build`, it holds the three gates of every revival — the original builds
and passes natively, the starting workspace fails to build in the target, the real port builds and passes there —
and grading builds each candidate from its own source in the bwrap sandbox (`setup.py build_ext --inplace`).

The sdist is fetched from PyPI once (checked against its sha256); the venvs are made once under the cache."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, release_slice
from conftest import grade_revival as _grade
from conftest import revival_oracle as _oracle

from swr import kinds
from swr.core.layout import PORT_PATCH
from swr.harness.run import JobConfig, run_job
from swr.kinds.revival.task import RevivalTask

REVIVAL = ROOT / "revivals" / "bitarray-c-api"
TASK = "bitarray-c-api"
EXT = "bitarray/_bitarray.c"


@pytest.fixture(scope="module")
def release(revival_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return release_slice(revival_release, (TASK,), tmp_path_factory.mktemp("slice") / "rel")


@pytest.fixture(scope="module")
def task(release: Path) -> RevivalTask:
    t = kinds.load(release / "tasks" / TASK)
    assert isinstance(t, RevivalTask)
    return t


def test_the_original_builds_and_passes_natively(task: RevivalTask) -> None:
    """Recorded from bitarray 1.2.2 built by Python 3.8: both test files' tests and the probe's output."""
    record = json.loads(task.paths.build_record.read_text())
    recorded = json.loads(task.paths.recorded.read_text())
    assert record["native_tests"] == len(recorded["tests"]) == 199
    assert {t.split("::")[0] for t in recorded["tests"]} == {"bitarray/test_bitarray.py", "bitarray/test_util.py"}
    probe = recorded["probes"]["probes/bitarray_ops.py"]
    assert probe["decode"] == "abacabadfeed" and probe["tofile_fromfile"][2] == 7  # fromfile/tofile ran in C
    assert record["nop"]["pass"] is False and "build_failure" in record["nop"]["labels"]
    assert record["reference"] == {"pass": True, "score": "200/200", "labels": []}
    assert task.meta.revival == "build" and task.meta.target.python == "3.13"
    assert task.meta.released.isoformat() == "2020-05-18"


def test_the_workspace_fails_to_build_in_the_target(task: RevivalTask) -> None:
    """The untouched project does not compile against 3.13's headers: no test or probe runs."""
    project = task.project
    assert (project / EXT).is_file() and not (project / "bitarray" / "test_util.py").exists()
    assert not list(project.rglob("*.so")) and "setup.py build_ext --inplace" in task.paths.instruction.read_text()
    v = _grade(task, project)
    assert not v.passed and v.score == "0/200", v.score
    assert v.labels[:2] == ["build_failure", "execution_failure"], v.labels
    assert "lvalue required as left operand of assignment" in v.detail and "Py_TYPE(&" in v.detail


def test_the_reference_port_builds_and_passes(task: RevivalTask, tmp_path: Path) -> None:
    """The port (Py_SET_SIZE/Py_SET_TYPE, PyObject_CallObject, setuptools) touches the build, never the tests."""
    patch = (task.paths.private / PORT_PATCH).read_text()
    touched = sorted({ln.split(" b/")[-1] for ln in patch.splitlines() if ln.startswith("diff --git ")})
    assert touched == [EXT, "setup.py"]
    good = _oracle(task, tmp_path / "good")
    assert "Py_SIZE(self) = " not in (good / EXT).read_text()
    v = _grade(task, good)
    assert v.passed and v.score == "200/200" and v.labels == [], (v.labels, v.detail[-500:])
    assert {r.check for r in v.records} == {"test", "probe"}


def test_a_port_that_only_compiles_fails_on_313(task: RevivalTask, tmp_path: Path) -> None:
    """Fixing the compile errors alone is not the port: PyEval_CallObject() is gone from 3.13, so the module
    builds (an implicit declaration is a warning) and then cannot be imported."""
    half = _oracle(task, tmp_path / "half")
    src = (half / EXT).read_text()
    assert src.count("PyObject_CallObject(") == 2
    (half / EXT).write_text(src.replace("PyObject_CallObject(", "PyEval_CallObject("))
    v = _grade(task, half)
    assert not v.passed and "build_failure" not in v.labels, v.labels
    assert v.labels == ["tests_failed", "probe_mismatch"] and v.score == "0/200", v.labels
    assert "PyEval_CallObject" in json.dumps([r.model_dump(by_alias=True) for r in v.records])


@pytest.fixture(scope="module")
def built(task: RevivalTask, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference port built on the host by the target python: binaries a cheat could ship."""
    built = _oracle(task, tmp_path_factory.mktemp("built") / "p")
    py = str(task.verifier().venv.python)
    res = subprocess.run([py, "setup.py", "build_ext", "--inplace"], cwd=built, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]
    return built


LINK_OBJECT = """from setuptools import setup, Extension
setup(name="bitarray", packages=["bitarray"],
      ext_modules=[Extension("bitarray._bitarray", sources=[], extra_objects=["prebuilt/_bitarray.o"]),
                   Extension("bitarray._util", sources=["bitarray/_util.c"])])
"""


@pytest.mark.parametrize("ship", ["extension modules", "an object file"])
def test_a_shipped_binary_is_not_graded(task: RevivalTask, built: Path, tmp_path: Path, ship: str) -> None:
    """A candidate that leaves the C source broken and ships binaries compiled elsewhere — the extension modules
    with a setup.py that builds nothing, or an object file its setup.py links — is graded on what its source
    builds: grading deletes shipped binaries before the build, so nothing imports or links."""
    cheat = shutil.copytree(task.project, tmp_path / "cheat")
    if ship == "extension modules":
        for so in built.glob("bitarray/*.so"):
            shutil.copyfile(so, cheat / "bitarray" / so.name)
        (cheat / "setup.py").write_text("from setuptools import setup\nsetup(name='bitarray', packages=['bitarray'])\n")
    else:
        (cheat / "prebuilt").mkdir()
        shutil.copyfile(next(built.glob("build/temp*/bitarray/_bitarray.o")), cheat / "prebuilt" / "_bitarray.o")
        (cheat / "setup.py").write_text(LINK_OBJECT)
    v = _grade(task, cheat)
    assert not v.passed, v.labels
    if ship == "extension modules":
        assert v.labels == ["tests_failed", "probe_mismatch"], v.labels
        assert "No module named 'bitarray._bitarray'" in json.dumps([r.model_dump(by_alias=True) for r in v.records])
    else:
        assert v.labels[0] == "build_failure" and "prebuilt/_bitarray.o" in v.detail, v.detail[-500:]


def test_swr_run_oracle_passes_and_nop_fails(release: Path, tmp_path: Path) -> None:
    oracle = run_job(JobConfig(release=release, agent="oracle", jobs_dir=tmp_path / "jobs"))
    assert len(oracle) == 1 and oracle[0].passed and oracle[0].verdict.score == "200/200", [
        (r.label, r.error) for r in oracle
    ]
    nop = run_job(JobConfig(release=release, agent="nop", jobs_dir=tmp_path / "jobs"))
    assert len(nop) == 1 and not nop[0].passed and nop[0].verdict.label == "build_failure"
