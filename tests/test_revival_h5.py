"""The dependency-rot revival `peakutils-scipy` (PeakUtils 1.3.3, January 2020: peak detection for 1D spectra):
recorded natively on Python 3.8 with SciPy 1.4, unimportable on Python 3.12 with SciPy 1.14 (`scipy.integrate.simps`
is gone, and behind it `scipy.linalg.pinv2`), repaired by upstream's own later fix (`simpson`, `pinv`). Built once
with `swr build` into a one-task release: the three gates, the oracle and nop through `swr run`, a half port that
fixes only the import (the baselines still fail, and the probe says so), and anti-cheat on a SciPy pin-back.

The sdist is fetched from PyPI once (checked against its sha256); both venvs are made once under the cache."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, release_slice
from conftest import grade_revival as _grade
from conftest import revival_oracle as _oracle

from swr import kinds
from swr.harness.run import JobConfig, run_job
from swr.kinds.revival.anticheat import dependency_downgrades
from swr.kinds.revival.envs import ensure, installed
from swr.kinds.revival.source import apply_patch, original, port_patch
from swr.kinds.revival.spec import load_revival, norm
from swr.kinds.revival.task import RevivalTask
from swr.kinds.revival.verdict import RevivalVerdict
from swr.kinds.verdict import parse_verdict

REVIVAL = ROOT / "revivals" / "peakutils-scipy"
TASK = "peakutils-scipy"
PROBE = "probes/peaks.py"
TESTS = "tests/peakutils_test.py"
BASELINE_TESTS = {
    f"{TESTS}::FBGPeaks::test_peaks",
    f"{TESTS}::Baseline::test_conditioning",  # the tests that
    f"{TESTS}::Baseline::test_negative",
    f"{TESTS}::HighEnvelope::test_up_envelope",
}  # reach pinv2


@pytest.fixture(scope="module")
def release(revival_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return release_slice(revival_release, (TASK,), tmp_path_factory.mktemp("slice") / "rel")


@pytest.fixture(scope="module")
def task(release: Path) -> RevivalTask:
    t = kinds.load(release / "tasks" / TASK)
    assert isinstance(t, RevivalTask)
    return t


def test_the_port_is_upstreams_fix_not_a_pin_back(tmp_path: Path) -> None:
    """Native SciPy 1.4, target SciPy 1.14; the patch spells the removed calls as PeakUtils 1.3.4/1.3.5 did and
    declares nothing that excludes the target's SciPy."""
    spec = load_revival(REVIVAL)
    assert spec.kind == "dependency-rot" and (spec.native.python, spec.target.python) == ("3.8", "3.12")
    assert spec.native.pins()["scipy"] == "1.4.1" and spec.target.pins()["scipy"] == "1.14.1"
    proj = original(spec, tmp_path / "orig")
    peak, baseline = proj / "peakutils" / "peak.py", proj / "peakutils" / "baseline.py"
    assert "from scipy.integrate import simps" in peak.read_text() and "LA.pinv2(" in baseline.read_text()
    apply_patch(proj, port_patch(spec))
    assert not re.search(r"\bsimps\b", peak.read_text()) and "simpson(y=x * yt, x=x)" in peak.read_text()
    assert "pinv2" not in baseline.read_text() and "LA.pinv(vander)" in baseline.read_text()
    assert dependency_downgrades(proj, spec.target.pins()) == []


@pytest.mark.parametrize("side", ["native", "target"])
def test_every_package_in_each_environment_is_pinned(side: str) -> None:
    """Nothing floats: the venv holds exactly the pins (pytest's own dependencies and pandas' included)."""
    env = getattr(load_revival(REVIVAL), side)
    have = {k: v for k, v in installed(ensure(env)).items() if k not in ("pip", "setuptools", "wheel")}
    assert have == {norm(k): v for k, v in env.pins().items()}


def test_the_build_records_natively_and_gates_nop_and_reference(task: RevivalTask) -> None:
    record = json.loads(task.paths.build_record.read_text())
    recorded = json.loads(task.paths.recorded.read_text())
    # gate 1: the untouched original passes its one test file natively and the probe ran
    assert record["native_tests"] == len(recorded["tests"]) == 24
    assert BASELINE_TESTS <= set(recorded["tests"]) and f"{TESTS}::Centroid::test_centroid2" in recorded["tests"]
    out = recorded["probes"][PROBE]
    assert out["fbg_peaks_nm"] == [1527.3, 1529.77] and out["synthetic_indexes"] == [203, 399, 701]
    # gates 2 and 3: the starting workspace fails in the target environment, the port passes there
    assert record["nop"] == {"pass": False, "score": "0/25", "labels": ["tests_failed", "probe_mismatch"]}
    assert record["reference"] == {"pass": True, "score": "25/25", "labels": []}
    assert not (task.project / TESTS).exists() and (task.project / "tests" / "baseline").is_file()  # data stays
    assert "import simps" in (task.project / "peakutils" / "peak.py").read_text()


def test_nop_fails_on_the_removed_scipy_api_and_the_oracle_passes(task: RevivalTask, tmp_path: Path) -> None:
    nop = _grade(task, task.project)
    assert not nop.passed and nop.score == "0/25", nop.score
    probe = next(r for r in nop.records if r.case == PROBE)
    assert "simps" in probe.detail, probe.detail[-500:]
    good = _grade(task, _oracle(task, tmp_path / "good"))
    assert isinstance(parse_verdict(good), RevivalVerdict)
    assert good.passed and good.score == "25/25" and good.labels == []


def test_fixing_only_the_import_leaves_the_baselines_broken(task: RevivalTask, tmp_path: Path) -> None:
    """The half port (simps -> simpson, pinv2 left) imports, but every baseline dies on scipy.linalg.pinv2: the
    tests through peakutils.baseline fail and the probe, which fits baselines, prints nothing."""
    cand = shutil.copytree(task.project, tmp_path / "half")
    peak = cand / "peakutils" / "peak.py"
    peak.write_text(
        peak.read_text()
        .replace("import simps", "import simpson")
        .replace("simps(", "simpson(")
        .replace(", x) /", ", x=x) /")
        .replace("(yt, x)", "(yt, x=x)")
    )
    v = _grade(task, cand)
    failed = {r.case: r.detail for r in v.records if not r.passed}
    assert set(failed) == BASELINE_TESTS | {PROBE}, sorted(failed)
    assert "pinv2" in failed[PROBE] and v.score == "20/25" and v.labels == ["tests_failed", "probe_mismatch"]


@pytest.mark.parametrize(
    "start, where, old, new",
    [
        ("workspace", "setup.py", "'scipy'", "'scipy<1.9'"),
        ("workspace", "requirements.txt", None, "numpy\nscipy==1.4.1  # what it was written for\n"),
        ("oracle", "setup.py", "'scipy'", "'scipy>=1.0,<1.14'"),
    ],
    ids=["workspace-setup.py", "workspace-requirements.txt", "oracle-setup.py"],
)
def test_a_scipy_pin_back_is_labelled(
    task: RevivalTask, tmp_path: Path, start: str, where: str, old: str | None, new: str
) -> None:
    """Declaring the SciPy the project was written for is anti-cheat's dependency_downgrade, on the broken
    workspace and on a real port alike. PeakUtils' setup.py starts with a UTF-8 byte-order mark."""
    cand = shutil.copytree(task.project, tmp_path / "c") if start == "workspace" else _oracle(task, tmp_path / "c")
    if old is not None:
        text = (cand / where).read_text(encoding="utf-8")
        assert old in text
        new = text.replace(old, new, 1)
    (cand / where).write_text(new, encoding="utf-8")
    v = _grade(task, cand)
    assert not v.passed and "dependency_downgrade" in v.labels, v.labels
    (hit,) = v.anticheat
    assert hit["file"] == where and hit["target"] == "1.14.1"
    if start == "oracle":
        assert v.labels == ["dependency_downgrade"] and v.score == "25/25"  # anti-cheat alone fails it


@pytest.mark.parametrize(
    "name, text",
    [
        ("setup.py", "from setuptools import setup\nsetup(name='p', install_requires=['numpy', 'scipy<1.9'])\n"),
        ("requirements.txt", "scipy<1.9\nnumpy\n"),
    ],
    ids=["setup.py", "requirements.txt"],
)
def test_a_byte_order_mark_does_not_hide_a_pin_back(tmp_path: Path, name: str, text: str) -> None:
    """Python runs a setup.py that starts with a UTF-8 BOM (PeakUtils 1.3.3's does) and pip reads such a
    requirements file: anti-cheat must read them as they do, or a BOM hides any pin-back."""
    for folder, bom in (("plain", ""), ("bom", "\ufeff")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / name).write_text(bom + text, encoding="utf-8")
        (hit,) = dependency_downgrades(tmp_path / folder, {"scipy": "1.14.1", "numpy": "2.1.3"})
        assert (hit["file"], hit["requirement"]) == (name, "scipy<1.9"), folder


def test_swr_run_oracle_passes_and_nop_fails(release: Path, tmp_path: Path) -> None:
    oracle = run_job(JobConfig(release=release, agent="oracle", jobs_dir=tmp_path / "jobs", include=(TASK,)))
    assert len(oracle) == 1 and oracle[0].passed and oracle[0].verdict.score == "25/25", [
        (r.label, r.error) for r in oracle
    ]
    nop = run_job(JobConfig(release=release, agent="nop", jobs_dir=tmp_path / "jobs", include=(TASK,)))
    assert len(nop) == 1 and not nop[0].passed and nop[0].verdict.label == "tests_failed"


# ----------------------------------------------- issue 23 §2: ./feedback without public tests (helper J)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This task alone (`swr revive make`): the feedback tests need neither the other revivals nor a release."""
    from conftest import swr

    out = tmp_path_factory.mktemp("h5") / TASK
    res = swr("revive", "make", str(REVIVAL), "--out", str(out), timeout=1800)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return out


def test_feedback_without_public_tests_says_so(made: Path, tmp_path: Path) -> None:
    """The sdist's one test file is hidden, so ./feedback has nothing to run: on the task and in an agent's
    workspace alike it says that (pass null, label no_public_tests, exit 0), not "FAIL (pass) 0/0" nor an
    error; the hidden grading of the same candidate is unchanged."""
    from conftest import swr

    from swr.harness import workspace

    task = kinds.load(made)
    oracle = _oracle(task, tmp_path / "oracle")
    ws = workspace.create(task, tmp_path / "ws").root
    for where, cand in ((made, oracle), (made, task.project), (ws, ws / "solution")):
        doc = swr("feedback", str(where), str(cand), "--json")
        v = json.loads(doc.stdout)
        assert doc.returncode == 0 and v["pass"] is None and v["label"] == "no_public_tests", (where, doc.stdout)
        assert v["records"] == [] and v["labels"] == [] and "hidden suite" in v["detail"]
        assert isinstance(parse_verdict(v), RevivalVerdict)
        text = swr("feedback", str(where), str(cand))
        assert text.returncode == 0 and "no public tests" in text.stdout, text.stdout
        assert not any(w in text.stdout for w in ("FAIL", "PASS", "0/0", "(pass)")), text.stdout
    assert _grade(task, oracle).passed and not _grade(task, task.project).passed


def test_feedback_without_public_tests_still_names_a_pin_back(made: Path, tmp_path: Path) -> None:
    """Nothing to run is not nothing to check: a declared SciPy pin-back fails ./feedback (dependency_downgrade)."""
    from conftest import swr

    from swr.harness import workspace

    ws = workspace.create(kinds.load(made), tmp_path / "ws").root
    (ws / "solution" / "requirements.txt").write_text("numpy\nscipy<1.9\n")
    res = swr("feedback", str(ws), str(ws / "solution"), "--json")
    v = json.loads(res.stdout)
    assert res.returncode == 1 and v["pass"] is False and v["labels"] == ["dependency_downgrade"], res.stdout
    assert "0/0" not in swr("feedback", str(ws), str(ws / "solution")).stdout
