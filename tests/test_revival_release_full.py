"""Issue 25's acceptance 2 and 3 over the whole revivals/ folder at once (`make test-full`): `swr build revivals`
builds every task, heavy ones too (the default suite builds all but the heavy ones, each of which has its own `full`
tests), covering every category of the paper's Table 1 but the GPU one, whose task is declared and skipped; then
`swr run` oracle passes every task and nop none, on bwrap and on podman; and the contamination table prints for
the oracle's job. Native environments and recordings come from swr's cache when an earlier run made them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import HEAVY_REVIVALS, ROOT, swr

from swr.core.layout import TaskPaths
from swr.kinds.revival.build_file import read_build_file
from swr.kinds.revival.spec import load_revival

pytestmark = pytest.mark.full

GPU = "causal-conv1d-cuda"


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("revivals-all")
    res = swr("build", str(ROOT / "revivals"), "--out", "rel", "--jobs", "2", cwd=base, timeout=7200)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert GPU in res.stdout + res.stderr and "gpu" in (res.stdout + res.stderr).lower()
    return base / "rel"


def test_every_revival_task_is_built_and_every_category_covered(release: Path) -> None:
    folders = sorted(d for d in (ROOT / "revivals").iterdir() if (d / "revival.toml").is_file())
    built = {t.name for t in (release / "tasks").iterdir()}
    runnable = {d.name for d in folders if d.name != GPU}
    assert runnable <= built and GPU not in built and len(runnable) >= 12, sorted(built)
    assert HEAVY_REVIVALS <= built
    specs = [load_revival(d) for d in folders if d.name in runnable]
    kinds = {s.kind for s in specs}
    assert {"build", "dependency-rot", "deleted-module"} <= kinds
    builds = {s.name for s in specs if s.kind == "build"}
    assert {"pykdtree-cython", "apexpy-meson", "commons-math-jdk17"} <= builds  # C, Fortran, Java
    assert "deepimpute-keras3" in {s.name for s in specs if s.kind == "dependency-rot"}  # the TF 1 / Keras 2 rot
    post = [s.name for s in specs if s.created is not None and str(s.created) >= "2026-01-01"]
    assert len(post) >= 3, post
    obfuscated = [
        t.name
        for t in (release / "tasks").iterdir()
        if (b := read_build_file(TaskPaths(t).build_record)) is not None and b.obfuscated_from
    ]
    assert obfuscated, "no obfuscated variant in the release"


@pytest.mark.parametrize("sandbox", ["bwrap", "podman"])
def test_oracle_passes_every_task_and_nop_none_through_swr_run(release: Path, tmp_path: Path, sandbox: str) -> None:
    jobs = tmp_path / "jobs"
    n = len(list((release / "tasks").iterdir()))
    for agent in ("oracle", "nop"):
        res = swr(
            "run",
            str(release),
            "-a",
            agent,
            "--job",
            agent,
            "--jobs-dir",
            str(jobs),
            "--sandbox",
            sandbox,
            timeout=7200,
        )
        assert res.returncode in (0, 1), res.stdout[-3000:] + res.stderr[-3000:]
    for agent, rate in (("oracle", 1.0), ("nop", 0.0)):
        res = swr("results", agent, "--jobs-dir", str(jobs), "--json", "--cohort", "contamination")
        assert res.returncode == 0, res.stderr
        doc = json.loads(res.stdout)
        cohorts = doc["cohorts"]["contamination"]
        assert sum(c["tasks"] for c in cohorts.values()) == n, cohorts
        assert all(c["pass_at_1"] == rate for c in cohorts.values()), (agent, cohorts)
        assert {"original", "obfuscated", "post-cutoff"} <= set(cohorts)
    table = swr("results", "oracle", "--jobs-dir", str(jobs), "--cohort", "contamination")
    assert table.returncode == 0 and "post-cutoff" in table.stdout and "obfuscated" in table.stdout, table.stdout
