"""The deep-learning dependency-rot task (revivals/deepimpute-keras3: DeepImpute 1.1, written for TensorFlow 1.15
and Keras 2, to run on TensorFlow 2.21, Keras 3 and NumPy 2). The default suite checks the folder cheaply: the
spec's environments are the two eras, the port applies and touches what the rot broke, the probe prints one JSON
object. `make test-full` builds the task alone (two TensorFlow environments, ~1 GB, cached by content under the
swr cache) with `swr build`, whose gates run the original natively, the workspace and the port in the target,
and runs `swr run` with the oracle and nop on both sandboxes."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest
from conftest import ROOT, build_revival_alone, swr

from swr.kinds.revival.source import apply_patch, cached_sdist
from swr.kinds.revival.spec import load_revival

TF_TASK = ROOT / "revivals" / "deepimpute-keras3"
NAME = "deepimpute-keras3"
SDIST_SHA256 = "beb36b9fa0c51c5f350d176f2d9f2d43530a4e4514d57e777964ef3e1aad494a"  # deepimpute==1.1, in the toml


def test_the_spec_spans_tensorflow_1_and_keras_3() -> None:
    spec = load_revival(TF_TASK)
    native, target = spec.native.pins(), spec.target.pins()

    def v(pin: str) -> tuple[int, ...]:
        return tuple(int(x) for x in pin.split(".")[:2])

    assert spec.native.python == "3.7" and v(native["tensorflow-cpu"]) == (1, 15) and v(native["keras"])[0] == 2
    assert spec.target.python == "3.12" and v(target["tensorflow-cpu"]) >= (2, 16) and v(target["keras"])[0] == 3
    assert v(target["numpy"])[0] == 2 and "deepimpute" not in target
    assert spec.verify.atol > 0 and spec.verify.rtol > 0  # fixed by the native run (revival.toml says how)


def test_the_port_applies_and_replaces_the_tf1_and_keras2_calls(tmp_path: Path) -> None:
    project = tmp_path / "p"
    shutil.copytree(TF_TASK / "project", project)
    before = (project / "deepimpute" / "multinet.py").read_text()
    for gone in ("tf.set_random_seed", "tf.ConfigProto", "K.set_session", "Adam(lr=", '"{}/model.h5"'):
        assert gone in before
    apply_patch(project, TF_TASK / "reference" / "port.patch")
    after = (project / "deepimpute" / "multinet.py").read_text()
    for gone in ("tf.set_random_seed", "tf.ConfigProto", "K.set_session", "Adam(lr=", '"{}/model.h5"'):
        assert gone not in after
    assert "model.weights.h5" in after and "tf.random.set_seed" in after


@pytest.fixture(scope="module")
def tf_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This task alone, built as the README says (`swr build revivals/<task>`): native recording under
    TensorFlow 1.15, nop and reference gates under TensorFlow 2.21, in the bwrap sandbox."""
    return build_revival_alone(TF_TASK.name, tmp_path_factory, timeout=5400)


@pytest.mark.full
def test_the_project_is_the_pypi_sdist_plus_its_tests(tmp_path: Path) -> None:
    """project/ is deepimpute 1.1's sdist unpacked unchanged; only tests/ (the hidden tests) is swr's."""
    with tarfile.open(cached_sdist("deepimpute", "1.1", SDIST_SHA256)) as t:
        t.extractall(tmp_path, filter="data")
    (top,) = tmp_path.iterdir()
    res = subprocess.run(["diff", "-r", str(top), str(TF_TASK / "project")], capture_output=True, text=True)
    assert res.stdout.splitlines() == [f"Only in {TF_TASK / 'project'}: tests"], res.stdout


@pytest.mark.full
def test_the_build_records_natively_and_gates_nop_and_reference(tf_release: Path) -> None:
    built = json.loads((tf_release / "tasks" / NAME / "private" / "build.json").read_text())
    assert built["native_tests"] == 5 and built["probes"] == ["probes/multinet.py"]
    assert built["nop"]["pass"] is False and built["reference"]["pass"] is True
    recorded = json.loads((tf_release / "tasks" / NAME / "private" / "recorded.json").read_text())
    assert len(recorded["tests"]) == 5 and recorded["probes"]["probes/multinet.py"]["imputed_shape"] == [80, 40]


@pytest.mark.full
@pytest.mark.parametrize("sandbox", ["bwrap", "podman"])
def test_swr_run_oracle_passes_and_nop_fails(tf_release: Path, tmp_path: Path, sandbox: str) -> None:
    for agent, want in (("oracle", "1/1 runs passed"), ("nop", "0/1 runs passed")):
        res = swr(
            "run", str(tf_release), "--agent", agent, "--sandbox", sandbox, "--jobs-dir", str(tmp_path), timeout=3600
        )
        assert res.returncode == 0 and want in res.stdout, res.stdout[-2000:] + res.stderr[-2000:]
