"""A revival task that needs a GPU (`[requires] device = "gpu"`, the paper's Caduceus task: revivals/causal-conv1d-cuda)
on a machine without one, through the CLI: `swr build` leaves it out with one line (release.json: status
"skipped"), and a task that was built on a GPU machine is graded and run as skipped (pass null, label
skipped_no_device), which `swr results` counts apart from the pass rates. This machine has no GPU; the tests
assert that first, so that on a GPU machine they fail loudly instead of testing nothing."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from conftest import ROOT, release_slice, swr

from swr.core.errors import SwrError
from swr.kinds.revival import device
from swr.kinds.revival.spec import load_revival

GPU_TASK = ROOT / "revivals" / "causal-conv1d-cuda"
CHEAP = "toolz-itertoolz"  # a small shipped revival, built here to stand for a task built on a GPU machine


def test_this_machine_has_no_gpu() -> None:
    """The premise of every test below (on a GPU machine the skip path is not what runs)."""
    assert device.gpus() == [], "this suite's skip-path tests assume a machine without a GPU"


def test_gpus_are_character_devices_not_names(tmp_path: Path) -> None:
    """A regular file or directory named nvidia0 is no GPU; a character device is (what CUDA opens)."""
    (tmp_path / "nvidia0").write_text("")
    (tmp_path / "nvidia1").mkdir()
    (tmp_path / "nvidiactl").write_text("")
    assert device.gpus(tmp_path) == []
    os.mknod(tmp_path / "nvidia2", 0o600 | stat.S_IFCHR, os.makedev(195, 2))  # the NVIDIA driver's major
    assert device.gpus(tmp_path) == ["nvidia2"]


def test_the_gpu_task_declares_its_device_and_a_bad_one_is_one_line(tmp_path: Path) -> None:
    assert load_revival(GPU_TASK).requires.device == "gpu"
    assert load_revival(ROOT / "revivals" / CHEAP).requires.device == "cpu"  # the default: no [requires]
    bad = tmp_path / "bad"
    shutil.copytree(GPU_TASK, bad)
    toml = bad / "revival.toml"
    toml.write_text(toml.read_text().replace('device = "gpu"', 'device = "tpu"'))
    with pytest.raises(SwrError) as e:
        load_revival(bad)
    assert e.value.field == "requires.device" and "\n" not in str(e.value)
    res = swr("build", str(bad), "--out", str(tmp_path / "rel"))
    assert res.returncode == 2 and "requires.device" in res.stderr and "Traceback" not in res.stderr


def test_swr_build_skips_the_gpu_task_with_one_line(tmp_path: Path) -> None:
    res = swr("build", str(GPU_TASK), "--out", "rel", cwd=tmp_path)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("swr: causal-conv1d-cuda: skipped: needs a GPU")]
    assert len(lines) == 1, res.stderr
    release = json.loads((tmp_path / "rel" / "release.json").read_text())
    (entry,) = release["revivals"]
    assert entry["status"] == "skipped" and entry["tasks"] == [] and "GPU" in entry["reason"]
    assert release["tasks"] == [] and not (tmp_path / "rel" / "tasks" / "causal-conv1d-cuda").exists()


@pytest.fixture(scope="module")
def gpu_release(revival_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A release holding one task as a GPU machine would have built it: a cheap shipped revival from the suite's
    release, its private spec then declaring `[requires] device = "gpu"` (a GPU task cannot be built without a GPU)."""
    rel = release_slice(revival_release, (CHEAP,), tmp_path_factory.mktemp("gpu") / "rel")
    spec = rel / "tasks" / CHEAP / "private" / "revival.toml"
    spec.write_text(spec.read_text() + '\n[requires]\ndevice = "gpu"\n')
    return rel


def test_swr_grade_records_a_gpu_task_as_skipped(gpu_release: Path, tmp_path: Path) -> None:
    task = gpu_release / "tasks" / CHEAP
    res = swr("grade", str(task), str(task / "public" / "project"), "--json")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    v = json.loads(res.stdout)
    assert v["pass"] is None and v["label"] == "skipped_no_device" and v["records"] == [] and "GPU" in v["detail"]
    table = swr("grade", str(task), str(task / "public" / "project"))
    assert "SKIPPED (skipped_no_device)" in table.stdout and "PASS" not in table.stdout


@pytest.mark.parametrize("agent", ["oracle", "nop"])
def test_swr_run_counts_a_gpu_task_neither_pass_nor_fail(gpu_release: Path, tmp_path: Path, agent: str) -> None:
    jobs = tmp_path / "jobs"
    res = swr("run", str(gpu_release), "--agent", agent, "--jobs-dir", str(jobs), "--job", "j")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "0/0 runs passed" in res.stdout and "1 skipped" in res.stdout, res.stdout
    got = json.loads(swr("results", "j", "--jobs-dir", str(jobs), "--json").stdout)
    assert got["runs"] == 0 and got["passed"] == 0 and got["skipped"] == 1 and got["tasks"] == 0
    assert got["labels"] == {"skipped_no_device": 1}
    table = swr("results", "j", "--jobs-dir", str(jobs)).stdout
    assert "1 runs skipped" in table
