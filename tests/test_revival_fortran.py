"""The Fortran `build` revival task (revivals/apexpy-meson): apexpy 1.0.3 (2018), Apex and quasi-dipole magnetic
coordinates computed by a Fortran library that setup.py compiles and wraps with numpy.distutils and f2py. It builds
with Debian's gfortran on Python 3.8 and NumPy 1.18 and passes its own tests there; on Python 3.12 with NumPy 2
numpy.distutils is gone, so the port moves the build to meson (NumPy 2's f2py) and drops np.float.

The default suite checks the folder (cheap: no sdist, no compiler). The `full` tests build only this task into a
one-task release with `swr build` (the sdist fetched once against its sha256, the venvs made once under the cache)
and hold the gates: the original passes natively, the workspace fails to build in the target, the reference port
passes; and two half ports fail, each for the reason the port exists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, build_revival_alone
from conftest import grade_revival as _grade
from conftest import revival_oracle as _oracle

from swr import kinds
from swr.core.layout import PORT_PATCH
from swr.harness.run import JobConfig, run_job
from swr.kinds.revival.envs import interpreter
from swr.kinds.revival.source import cached_sdist
from swr.kinds.revival.spec import load_revival
from swr.kinds.revival.task import RevivalTask

REVIVAL = ROOT / "revivals" / "apexpy-meson"
TASK = "apexpy-meson"
HIDDEN = ("tests/test_fortranapex.py",)
UNGRADED = "tests/test_Apex.py"  # two of its tests fail natively (revival.toml says why)
PUBLIC = "tests/test_helpers.py"
MESON = "meson.build"
APEX = "src/apexpy/apex.py"


def _touched(patch: str) -> list[str]:
    return sorted({ln.split(" b/")[-1] for ln in patch.splitlines() if ln.startswith("diff --git ")})


def test_the_spec_declares_a_fortran_build_from_numpy_distutils_to_meson() -> None:
    """The folder says what the task is: gfortran from Debian on both sides, the native build by numpy.distutils
    on NumPy 1.x, the target's by meson on NumPy 2 with no setuptools (so no distutils of any kind), a tolerance
    (Fortran's single precision moves the last bits), and a port that changes the build and never a test."""
    spec = load_revival(REVIVAL)
    assert spec.name == TASK and spec.kind == "build" and spec.source == "pypi:apexpy==1.0.3"
    assert spec.native.python == "3.8" and spec.target.python == "3.12"
    assert spec.native.apt == spec.target.apt == ("gfortran",)
    assert spec.native.build == ("python setup.py build_ext --inplace",)
    assert "meson setup _build" in spec.target.build and not any("setup.py" in s for s in spec.target.build)
    native = dict(p.split("==") for p in spec.native.pip)
    target = dict(p.split("==") for p in spec.target.pip)
    assert native["numpy"].startswith("1.") and "setuptools" in native
    assert target["numpy"].startswith("2.") and {"meson", "ninja"} <= target.keys() and "setuptools" not in target
    assert spec.verify.hidden == HIDDEN and spec.verify.public == (PUBLIC,) and spec.verify.pythonpath == ("src",)
    assert 0 < spec.verify.rtol <= 1e-5 and 0 < spec.verify.atol <= 1e-6
    assert spec.anticheat.forbidden_packages == ("apexpy",)
    touched = _touched((REVIVAL / PORT_PATCH).read_text())
    assert touched == [MESON, "pyproject.toml", "setup.py", APEX]


def test_an_sdist_whose_setup_py_imports_numpy_is_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pip download` prepares an sdist's metadata by running its setup.py, and apexpy's imports numpy.distutils,
    which pip's isolated build has not: pip fails, and the archive is fetched from the index's JSON form (an
    empty swr cache, as on a fresh machine), checked against the spec's sha256."""
    monkeypatch.setenv("SWR_CACHE", str(tmp_path / "cache"))
    spec = load_revival(REVIVAL)
    assert spec.pypi is not None and spec.sha256 is not None
    python = interpreter(spec.native.python)[0] / "bin" / "python3"
    archive = cached_sdist(*spec.pypi, spec.sha256, python=python, spec=REVIVAL / "revival.toml")
    assert archive.name == "apexpy-1.0.3.tar.gz" and archive.parent.name == spec.sha256
    assert archive.is_relative_to(tmp_path / "cache")


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This task alone built into a release with `swr build`, as the README gives the command."""
    return build_revival_alone(TASK, tmp_path_factory)


@pytest.fixture(scope="module")
def task(release: Path) -> RevivalTask:
    t = kinds.load(release / "tasks" / TASK)
    assert isinstance(t, RevivalTask)
    return t


@pytest.mark.full
def test_the_original_builds_and_passes_natively(task: RevivalTask) -> None:
    """Recorded from apexpy 1.0.3 built by numpy.distutils on Python 3.8: its Fortran tests, its helpers' tests
    and the probe's numbers, computed by the Fortran through the Apex class."""
    record = json.loads(task.paths.build_record.read_text())
    recorded = json.loads(task.paths.recorded.read_text())
    assert record["native_tests"] == len(recorded["tests"]) == 17
    assert {t.split("::")[0] for t in recorded["tests"]} == {*HIDDEN, PUBLIC}
    probe = recorded["probes"]["probes/apex_coords.py"]
    assert set(probe) == {"2000.00", "2012.50", "2019.25", "apxg2all", "apxq2g"}
    assert abs(probe["2012.50"]["geo2apex"][0][5] - 40.0) < 15  # 44N 101E: a mid-latitude Apex latitude
    assert record["nop"]["pass"] is False and "build_failure" in record["nop"]["labels"]
    assert record["reference"] == {"pass": True, "score": "18/18", "labels": []}
    assert task.meta.revival == "build" and task.meta.target.python == "3.12"


@pytest.mark.full
def test_the_workspace_fails_to_build_in_the_target(task: RevivalTask) -> None:
    """The untouched project has setup.py and no meson.build: the target's first meson step refuses it."""
    project = task.project
    assert (project / "setup.py").is_file() and not (project / MESON).exists()
    assert not (project / HIDDEN[0]).exists() and (project / PUBLIC).is_file() and (project / UNGRADED).is_file()
    assert "meson setup _build" in task.paths.instruction.read_text()
    v = _grade(task, project)
    assert not v.passed and v.score == "0/18", v.score
    assert v.labels[0] == "build_failure", v.labels
    assert "meson.build" in v.detail, v.detail[-500:]


@pytest.mark.full
def test_the_reference_port_builds_and_passes(task: RevivalTask, tmp_path: Path) -> None:
    good = _oracle(task, tmp_path / "good")
    assert (good / MESON).is_file() and not (good / "setup.py").exists()
    v = _grade(task, good)
    assert v.passed and v.score == "18/18" and v.labels == [], (v.labels, v.detail[-500:])
    assert {r.check for r in v.records} == {"test", "probe"}


@pytest.mark.full
def test_a_port_that_wraps_every_routine_does_not_compile(task: RevivalTask, tmp_path: Path) -> None:
    """Handing NumPy 2's f2py every source and routine, as numpy.distutils did, writes the COMMON blocks' wrappers
    with the modules' `use` lines, and gfortran refuses them: the port has to choose what it wraps."""
    half = _oracle(task, tmp_path / "half")
    text = (half / MESON).read_text()
    only = "\n            'only:', 'loadapxsh', 'apxg2q', 'apxg2all', 'apxq2g', ':'],"
    f90 = ", 'fortranapex-f2pywrappers2.f90'"  # without `only:`, f2py skips the modules: no F90 wrappers
    assert only in text and f90 in text
    (half / MESON).write_text(text.replace(only, "],").replace(f90, ""))
    v = _grade(task, half)
    assert not v.passed and v.labels[0] == "build_failure", v.labels
    assert "conflicts with symbol from module" in v.detail, v.detail[-800:]


@pytest.mark.full
def test_a_port_that_keeps_np_float_builds_and_fails(task: RevivalTask, tmp_path: Path) -> None:
    """Moving the build is not the whole port: np.float is gone since NumPy 1.24, so the extension builds, the
    tests of the Fortran routines pass, and every Apex() fails when it loads its coefficients (the probe)."""
    half = _oracle(task, tmp_path / "half")
    src = (half / APEX).read_text()
    assert "fa.loadapxsh(self.datafile, float(year))" in src
    (half / APEX).write_text(src.replace("float(year))", "np.float(year))"))
    v = _grade(task, half)
    assert not v.passed and "build_failure" not in v.labels, v.labels
    assert v.labels == ["probe_mismatch"] and v.score == "17/18", (v.labels, v.score)
    (probe,) = [r for r in v.records if r.check == "probe"]
    assert "np.float" in json.dumps(probe.model_dump(by_alias=True)), probe


@pytest.mark.full
@pytest.mark.parametrize("sandbox", ["bwrap", "podman"])
def test_swr_run_oracle_passes_and_nop_fails(release: Path, tmp_path: Path, sandbox: str) -> None:
    oracle = run_job(JobConfig(release=release, agent="oracle", jobs_dir=tmp_path / "jobs", sandbox=sandbox))
    assert len(oracle) == 1 and oracle[0].passed and oracle[0].verdict.score == "18/18", [
        (r.label, r.error) for r in oracle
    ]
    nop = run_job(JobConfig(release=release, agent="nop", jobs_dir=tmp_path / "jobs", sandbox=sandbox))
    assert len(nop) == 1 and not nop[0].passed and nop[0].verdict.label == "build_failure"
