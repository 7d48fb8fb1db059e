"""Container images for `swr run -e podman`: built for real from a task's pinned `[requires]` on a
Debian base bootstrapped from the package mirror (`swr image base`), or named by the task itself.

No mocks and no skips: CI installs podman, runc and debootstrap (`make sysdeps`)."""

from __future__ import annotations

import json
import shutil
import sys
import uuid
from pathlib import Path

import pytest
from conftest import CATALOG, FIXTURES, swr

from swr.assemble import BuildOptions, build
from swr.core.release_dir import task_dir
from swr.harness import workspace
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.reference import write_oracle
from swr.kinds.workflow.task import load_workflow_task
from swr.sandbox import WORKDIR, Job, Limits, Mount, get_sandbox, run, sandbox_for

PINT = CATALOG / "data-document" / "pint" / "unit-chain"


@pytest.fixture(scope="module")
def podman():
    return get_sandbox("podman")


@pytest.fixture(scope="module")
def pint_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("pint")
    res = build([PINT], d / "release", BuildOptions(variants=2, public=2, hidden=2, cache=ExecutionCache(d / "c")))
    assert not res[0].failure, res[0].failure
    return d / "release"


def in_sandbox(sb, script: str, work: Path) -> tuple[int, str]:
    res = run(sb, Job(["/bin/sh", "-c", script], Mount(work, WORKDIR, "rw"), Limits(time_s=120)), b"")
    return res.returncode, (res.stdout + res.stderr).decode(errors="replace")


def test_the_environment_is_pinned_and_keys_the_image(local_base: str, pint_release: Path, podman) -> None:
    env = load_workflow_task(task_dir(pint_release, "unit-chain-v1")).environment
    from importlib.metadata import version

    assert env["pip"] == [f"pint=={version('pint')}"] and env["apt"] == []
    recipe, tag = podman.images.recipe(env)
    assert f"pint=={version('pint')}" in recipe and "--no-index" in recipe
    assert podman.images.recipe(env)[1] == tag  # same content, same image
    bumped = {**env, "pip": ["pint==0.1"]}
    assert podman.images.recipe(bumped)[1] != tag
    assert podman.images.recipe({**env, "apt": ["sox"]})[1] != tag


def test_oracle_passes_in_the_image_built_from_requires(
    local_base: str, pint_release: Path, podman, tmp_path: Path
) -> None:
    built = swr("image", "build", str(pint_release), timeout=1800)
    assert built.returncode == 0, built.stderr
    tags = {line.split("\t")[1] for line in built.stdout.splitlines()}
    assert len(tags) == 1 and next(iter(tags)).startswith("localhost/swr-env:")  # one environment, one image

    res = swr(
        "run", str(pint_release), "-a", "oracle", "-e", "podman", "--job", "img", "--jobs-dir", str(tmp_path), "--json"
    )
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["passed"] == 2, res.stdout
    nop = swr(
        "run", str(pint_release), "-a", "nop", "-e", "podman", "--job", "nop", "--jobs-dir", str(tmp_path), "--json"
    )
    assert json.loads(nop.stdout)["passed"] == 0, nop.stdout

    task = load_workflow_task(task_dir(pint_release, "unit-chain-v1"))
    sb = sandbox_for("podman", task.environment)
    assert sb.image in tags
    work = tmp_path / "probe"
    work.mkdir()
    code, out = in_sandbox(
        sb,
        f"test -e {sys.prefix} && echo HOST-VISIBLE; command -v python3; "
        "python3 -c 'import pint; print(pint.__version__)'; cat /etc/debian_version",
        work,
    )
    assert code == 0, out
    assert "HOST-VISIBLE" not in out and "/opt/swr/bin/python3" in out and task.environment["pip"][0][6:] in out


def test_feedback_works_inside_the_image(local_base: str, pint_release: Path, tmp_path: Path) -> None:
    """An agent's `./feedback` runs swr itself inside the task's image."""
    task = load_workflow_task(task_dir(pint_release, "unit-chain-v2"))
    ws = workspace.create(task, tmp_path / "ws")
    write_oracle(task.reference_spec(), task.reference_dir, ws.solution)
    code, out = in_sandbox(sandbox_for("podman", task.environment), "./feedback --json", ws.root)
    assert code == 0, out
    verdict = json.loads(out[out.index("{") :])
    assert verdict["pass"] and verdict["r_pub"] == 1.0, verdict


def test_a_task_that_names_an_image_runs_in_it(local_base: str, podman, tmp_path: Path) -> None:
    tag = f"localhost/swr-test-named:{uuid.uuid4().hex[:8]}"
    ctx = tmp_path / "ctx"
    ctx.mkdir()
    (ctx / "Containerfile").write_text(f"FROM {local_base}\nRUN echo 42 > /etc/swr-answer\n")
    made = podman.client("build", "--tag", tag, "--file", str(ctx / "Containerfile"), str(ctx), timeout=600)
    assert made.returncode == 0, made.stderr
    try:
        wf = tmp_path / "wf" / "named-image"
        shutil.copytree(FIXTURES / "good-entry", wf)
        spec = (wf / "workflow.toml").read_text().replace('name = "good-entry"', 'name = "named-image"')
        (wf / "workflow.toml").write_text(spec.replace("apt = []", f'apt = []\nimage = "{tag}"'))
        rel = tmp_path / "release"
        opts = BuildOptions(variants=1, public=2, hidden=2, cache=ExecutionCache(tmp_path / "c"))
        assert not build([wf], rel, opts)[0].failure
        task = load_workflow_task(task_dir(rel, "named-image-v1"))
        assert task.environment["image"] == tag

        sb = sandbox_for("podman", task.environment)
        assert sb.image == tag
        work = tmp_path / "probe"
        work.mkdir()
        assert in_sandbox(sb, "cat /etc/swr-answer", work) == (0, "42\n")
        res = swr(
            "run", str(rel), "-a", "oracle", "-e", "podman", "--job", "named", "--jobs-dir", str(tmp_path), "--json"
        )
        assert res.returncode == 0 and json.loads(res.stdout)["passed"] == 1, res.stdout + res.stderr
        host = swr(
            "run",
            str(rel),
            "-a",
            "oracle",
            "-e",
            "podman",
            "--image",
            "host",
            "--job",
            "host",
            "--jobs-dir",
            str(tmp_path),
            "--json",
        )
        assert json.loads(host.stdout)["passed"] == 1, host.stdout + host.stderr
    finally:
        podman.client("rmi", "--force", tag, timeout=120)
