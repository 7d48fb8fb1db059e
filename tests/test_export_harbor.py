"""`swr export harbor`: a release holding a task of each kind (and of each revival kind) becomes Harbor tasks that
the real harbor 0.26 (its own Python 3.12 venv) loads and lints clean, as does the whole shipped set (catalog,
engines, revivals) at once; hidden files stay under tests/ and solution/; the export is byte-identical when
repeated; each task's tests/test.sh, run on the host with the container paths overridden, runs swr's real judge
from the exported wheel: reward 1 with the oracle's solve.sh, 0 without. As root (this
host's tests run so), test.sh runs in a private mount namespace in which /root is traversable, as in the image,
and each candidate execution runs as uid 65534 on a separate "task Python": it cannot read the hidden task."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from swr.core.layout import HarborTaskPaths, ReleasePaths, TaskPaths
from swr.core.release_dir import list_tasks
from swr.export.harbor import _build_wheel, swr_wheel
from swr.export.harbor_judge import reward_of
from swr.kinds.revival import device
from swr.kinds.revival.spec import load_revival
from swr.kinds.taskfile import read_task_file
from swr.kinds.verdict import parse_verdict
from swr.sandbox import WORKDIR, Job, Limits, Mount, run
from swr.sandbox.local import LocalSandbox
from tests.conftest import FIXTURES, HEAVY_REVIVALS, ROOT, swr

HARBOR = "harbor==0.26.0"
REVIVALS = ("more-itertools-recipes", "bitarray-c-api", "periodictable-numpy2")  # deleted-module, build, dependency-rot
KINDS = {"good-linear-v1": "workflow", "statistics": "engine", "spice": "engine", **dict.fromkeys(REVIVALS, "revival")}
# periodictable's broken project still passes the tests that never load its neutron and X-ray tables
START_PARTIAL = {"periodictable-numpy2"}
# a deleted-module task whose only reference is its original module (no honest rebuild yet): the oracle's solution
# is that original, so the judge finds a copied_original in it (every test passes; anti-cheat fails it). None now:
# more-itertools-recipes' oracle is its honest rebuild (revivals/more-itertools-recipes/reference/), reward 1.
ORACLE_IS_THE_ORIGINAL: set[str] = set()
NOBODY = "65534"
DIGEST = "python:3.12-slim@sha256:" + "ab" * 32
# /root (0700 here) made traversable in a private mount namespace, its .pyenv and .cache bound back: the image's
# Pythons are readable by all. "$1": where /root's own view goes; the rest is the command.
ROOT_VIEW = (
    'set -e; v="$1"; shift; mount --rbind /root "$v"; mount -t tmpfs -o mode=0755 tmpfs /root; '
    'for d in .pyenv .cache; do mkdir /root/$d; mount --rbind "$v/$d" /root/$d; done; exec "$@"'
)


def _python312() -> Path:
    found = sorted(
        Path.home().glob(".pyenv/versions/3.12.*/bin/python3"),
        key=lambda p: tuple(int(x) for x in p.parts[-3].split(".")),
    )
    assert found, "harbor needs Python 3.12 (pyenv install 3.12)"
    return found[-1]


@pytest.fixture(scope="session")
def harbor_bin() -> Path:
    """The real harbor in its own venv, cached under ~/.cache/swr by version (`make harbor-venv` makes it too)."""
    venv = Path(os.environ.get("SWR_HARBOR_VENV") or Path.home() / ".cache/swr/harbor-0.26.0-py3.12")
    if not (venv / ".ready").is_file():
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([str(_python312()), "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin/python"), "-m", "pip", "install", "-q", HARBOR], check=True, timeout=1800)
        (venv / ".ready").write_text(HARBOR + "\n")
    return venv / "bin"


@pytest.fixture(scope="session")
def release(revival_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """good-linear (workflow), statistics and spice (engines) built by `swr build`, and one revival task of each
    revival kind (REVIVALS) from the suite's one revival release."""
    base = tmp_path_factory.mktemp("harbor-release")
    src = base / "src"
    for d in (FIXTURES / "good-linear", ROOT / "engines" / "statistics", ROOT / "engines" / "spice"):
        shutil.copytree(d, src / d.name)
    res = swr("build", str(src), "--out", str(base / "rel"), "--variants", "1", "--jobs", "2", timeout=1800)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    for task in REVIVALS:
        shutil.copytree(
            ReleasePaths(revival_release).task(task).root, ReleasePaths(base / "rel").task(task).root, symlinks=True
        )
    return base / "rel"


@pytest.fixture(scope="session")
def exported(release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("harbor-out") / "tasks"
    res = swr("export", "harbor", str(release), "--out", str(out), "--json")
    assert res.returncode == 0, res.stderr
    assert {r["task"]: r["kind"] for r in json.loads(res.stdout)} == KINDS
    return out


@pytest.fixture(scope="session")
def judge_python(exported: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the exported wheel (installed offline, as the Dockerfile does) over swr's runtime
    deps, which a .pth borrows from this venv: the judge test.sh runs is the wheel's, not the source tree's."""
    venv = tmp_path_factory.mktemp("judge") / "venv"
    subprocess.run([str(Path(sys.base_prefix) / "bin" / "python3"), "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "swr-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    wheel = next(HarborTaskPaths(exported / "good-linear-v1").environment.glob("swr-*.whl"))
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-index", "--no-deps", str(wheel)], check=True)
    where = subprocess.run([str(py), "-c", "import swr; print(swr.__file__)"], capture_output=True, text=True)
    assert where.stdout.startswith(str(venv)), where.stdout + where.stderr
    return py


def test_harbor_loads_every_exported_task_and_lints_it_clean(exported: Path, harbor_bin: Path) -> None:
    dirs = sorted(str(d) for d in exported.iterdir())
    load = (
        "import json, sys\nfrom harbor.models.task.task import Task\n"
        "print(json.dumps({(t := Task(d)).name: [t.config.metadata['swr_kind'], "
        "t.config.verifier.environment_mode.value, t.paths.test_path.is_file(), t.paths.solve_path.is_file()]"
        " for d in sys.argv[1:]}))"
    )
    res = subprocess.run([str(harbor_bin / "python"), "-c", load, *dirs], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]
    assert json.loads(res.stdout) == {f"swr/{t}": [k, "separate", True, True] for t, k in KINDS.items()}
    lint = subprocess.run(
        [str(harbor_bin / "harbor"), "lint", "--extend-select", "root-agent", "--json", *dirs],
        capture_output=True,
        text=True,
    )
    assert lint.returncode == 0 and json.loads(lint.stdout or "[]") == [], lint.stdout + lint.stderr


def _hashes(root: Path) -> dict[str, str]:
    return {hashlib.sha256(p.read_bytes()).hexdigest(): str(p) for p in root.rglob("*") if p.is_file()}


def assert_hidden_only_under_tests(task_root: Path, harbor_root: Path) -> None:
    """Every private file of the swr task that is not also public is under the export's tests/, and none of
    them (by content) nor a private/ directory is in environment/ (the agent's image) or instruction.md."""
    src, hp, task_id = TaskPaths(task_root), HarborTaskPaths(harbor_root), task_root.name
    shown = _hashes(src.public) | {
        hashlib.sha256(p.read_bytes()).hexdigest(): str(p) for p in (src.toml, src.instruction)
    }
    hidden = {h: p for h, p in _hashes(src.private).items() if h not in shown}
    assert hidden, task_id
    assert set(hidden) <= set(_hashes(hp.tests)), task_id  # the judge has them all
    agent_sees = _hashes(hp.environment) | {hashlib.sha256(hp.instruction.read_bytes()).hexdigest(): "i"}
    leaked = [hidden[h] for h in hidden if h in agent_sees]
    assert not leaked, (task_id, leaked)
    assert not any(p.name == src.private.name for p in hp.environment.rglob("*")), task_id


def test_hidden_files_are_only_under_tests_and_solution(release: Path, exported: Path) -> None:
    for task_id in KINDS:
        assert_hidden_only_under_tests(release / "tasks" / task_id, exported / task_id)


def _tree(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file's bytes and mode; the wheel by name only (its bytes: the next test, on a frozen source)."""
    return {
        p.relative_to(root).as_posix(): (b"" if p.suffix == ".whl" else p.read_bytes(), p.stat().st_mode)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_export_is_byte_identical(release: Path, exported: Path, tmp_path: Path) -> None:
    res = swr("export", "harbor", str(release), "--out", str(tmp_path / "again"))
    assert res.returncode == 0, res.stderr
    assert _tree(tmp_path / "again") == _tree(exported)


def test_the_wheel_is_byte_identical_when_built_again(tmp_path: Path) -> None:
    """Built twice from one copy of the source whose files' times differ between the builds: the wheel's
    bytes do not change (SOURCE_DATE_EPOCH pins its entries' times)."""
    import swr as pkg

    src = Path(pkg.__file__).resolve().parent
    frozen = tmp_path / "project"
    shutil.copytree(src, frozen / "src" / src.name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(src.parents[1] / name, frozen / name)
    first = _build_wheel(frozen, frozen / "src" / src.name, tmp_path / "w1")
    for p in frozen.rglob("*"):
        os.utime(p, (1_700_000_000, 1_700_000_000))
    second = _build_wheel(frozen, frozen / "src" / src.name, tmp_path / "w2")
    assert first.name == second.name and first.read_bytes() == second.read_bytes()
    assert swr_wheel().name == first.name


def _open_dir(prefix: str) -> Path:
    """A directory every user may traverse (pytest's own tmp is root's alone: it would hide the hidden task)."""
    d = Path(tempfile.mkdtemp(prefix=prefix))
    d.chmod(0o755)
    return d


@pytest.fixture(scope="session")
def task_python() -> Iterator[Path]:
    """The image's Python the agent uses, stand-in: a venv outside swr's, with numpy (an engine's ENGINE_LIBS
    minus the forbidden) and nothing of swr; readable by the candidate's user."""
    import numpy

    root = _open_dir("swr-taskpy-")
    subprocess.run([str(Path(sys.base_prefix) / "bin" / "python3"), "-m", "venv", str(root / "venv")], check=True)
    subprocess.run(
        [str(root / "venv/bin/python"), "-m", "pip", "install", "-q", f"numpy=={numpy.__version__}"],
        check=True,
        timeout=900,
    )
    yield root / "venv"
    shutil.rmtree(root, ignore_errors=True)


def _test_sh(
    hp: HarborTaskPaths,
    scene: Path,
    judge_python: Path,
    task_python: Path,
    candidate: Path | str,
    plant: Callable[[Path], None] | None = None,
) -> tuple[dict, dict]:
    """test.sh on the host as the image runs it: the hidden tests (copied, modes kept) under a traversable
    scene, in app/solution the candidate: "oracle" (solve.sh), "start" (the workspace's) or a directory; the
    working directory is app/, the agent's workdir, as Harbor runs the verifier (`plant` writes into it first)."""
    tests, app, logs = scene / "tests", scene / "app", scene / "logs"
    shutil.copytree(hp.tests, tests)
    shutil.copytree(hp.workspace, app)  # what the image's workdir starts with
    logs.mkdir()
    env = {
        **os.environ,
        "SWR_HARBOR_TESTS": str(tests),
        "SWR_HARBOR_SOLUTION": str(app / "solution"),
        "SWR_HARBOR_LOGS": str(logs),
        "SWR_HARBOR_PYTHON": str(judge_python),
        "SWR_HARBOR_USER": NOBODY,
        "SWR_HARBOR_TASK_PATH": f"{task_python / 'bin'}:/usr/bin:/bin",
        "SWR_CACHE": str(Path.home() / ".cache" / "swr"),
    }
    (app / "solution").mkdir(exist_ok=True)
    if candidate == "oracle":
        subprocess.run(["bash", str(hp.solve_sh)], env=env, check=True)
    elif isinstance(candidate, Path):
        shutil.rmtree(app / "solution")
        shutil.copytree(candidate, app / "solution")
    (scene / "rootview").mkdir()
    if plant is not None:
        plant(app)
    res = subprocess.run(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            ROOT_VIEW,
            "sh",
            str(scene / "rootview"),
            "bash",
            str(hp.test_sh),
        ],
        env=env,
        cwd=app,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads((logs / "reward.json").read_text()), json.loads((logs / "verdict.json").read_text())


@pytest.fixture
def scene() -> Iterator[Path]:
    d = _open_dir("swr-harbor-scene-")
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.mark.parametrize("task_id", sorted(KINDS))
def test_test_sh_rewards_the_oracle_and_not_the_starting_workspace(
    task_id: str, exported: Path, judge_python: Path, task_python: Path, scene: Path
) -> None:
    hp = HarborTaskPaths(exported / task_id)
    for oracle in (True, False):
        (scene / str(oracle)).mkdir()
        reward, verdict = _test_sh(hp, scene / str(oracle), judge_python, task_python, "oracle" if oracle else "start")
        if oracle and task_id in ORACLE_IS_THE_ORIGINAL:
            assert verdict["labels"] == ["copied_original"] and reward == {
                **dict.fromkeys(("execution", "schema", "semantic"), 1.0),
                "anti_shortcut": 0.0,
                "reward": 0.0,
            }, reward
            continue
        assert verdict["task"] == task_id and verdict["pass"] is oracle
        if oracle:
            assert reward == dict.fromkeys(("execution", "schema", "semantic", "anti_shortcut", "reward"), 1.0)
        elif task_id in START_PARTIAL:
            assert reward["reward"] == 0.0 and 0.0 < reward["semantic"] < 1.0, reward
        else:
            assert reward["reward"] == 0.0 and reward["semantic"] == 0.0, reward


PLANTED_JUDGE = """import json, os, sys
logs = sys.argv[-1]
os.makedirs(logs, exist_ok=True)
json.dump({k: 1.0 for k in ("execution", "schema", "semantic", "anti_shortcut", "reward")}, open(os.path.join(logs, "reward.json"), "w"))
json.dump({"task": "planted", "pass": True}, open(os.path.join(logs, "verdict.json"), "w"))
"""


def _plant_judge(app: Path) -> None:
    """What an agent can leave in its workdir for the verifier's `python -m`: a package named swr whose judge
    writes a full reward, and a dist-info whose entry point claims the workflow kind."""
    (app / "swr" / "export").mkdir(parents=True)
    (app / "swr" / "__init__.py").write_text("")
    (app / "swr" / "export" / "__init__.py").write_text("")
    (app / "swr" / "export" / "harbor_judge.py").write_text(PLANTED_JUDGE)
    (app / "planted-0.1.dist-info").mkdir()
    (app / "planted-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: planted\nVersion: 0.1\n")
    (app / "planted-0.1.dist-info" / "entry_points.txt").write_text("[swr.kinds]\nworkflow = planted:KIND\n")


def test_a_judge_planted_in_the_agents_workdir_is_not_the_one_that_runs(
    exported: Path, judge_python: Path, task_python: Path, scene: Path
) -> None:
    """Harbor runs test.sh in the agent's workdir (/app); a `python -m` there would import an swr package found there
    first and hand it the reward. A "separate" verifier environment keeps only /app/solution, but a shared one (or a
    Harbor that copies more back) keeps the workdir: the judge must not read it. The real judge grades the untouched
    starting workspace: reward 0."""
    hp = HarborTaskPaths(exported / "good-linear-v1")
    (scene / "run").mkdir()
    reward, verdict = _test_sh(hp, scene / "run", judge_python, task_python, "start", plant=_plant_judge)
    assert verdict["task"] == "good-linear-v1" and verdict["pass"] is False, verdict
    assert reward["reward"] == 0.0, reward


SPY = """#!/usr/bin/env python3
# Reports who runs it and on which Python, then answers from the hidden expected outputs if it can read them.
import json, os, sys
scenario = json.load(sys.stdin)
seen = {"uid": os.getuid(), "executable": sys.executable, "prefix": sys.prefix, "read": []}
answer = {}
for d, _, files in os.walk(HIDDEN):
    docs = {}
    for f in files:
        try:
            with open(os.path.join(d, f)) as fh:
                docs[f] = json.load(fh)
            seen["read"].append(f)
        except (OSError, ValueError) as e:
            seen.setdefault("errors", []).append(type(e).__name__)
    if len(docs) == 2 and scenario in docs.values():
        answer = next(v for v in docs.values() if v != scenario)
with open(os.path.join(OUT, "spy-%d.json" % os.getpid()), "w") as fh:
    json.dump(seen, fh)
json.dump(answer, sys.stdout)
"""


def test_a_candidate_cannot_read_the_hidden_task_and_runs_on_the_task_python(
    exported: Path, judge_python: Path, task_python: Path, scene: Path
) -> None:
    """A candidate that answers from /tests/task/private's expected outputs gets nothing (it runs as 65534 and
    the task is root's alone) and fails; it ran on the task's Python, not swr's venv (not the judge's)."""
    hp = HarborTaskPaths(exported / "good-linear-v1")
    spy, out = scene / "spy", scene / "out"
    out.mkdir(mode=0o777)
    out.chmod(0o777)
    hidden = TaskPaths(scene / "run" / "tests" / "task").hidden_examples
    spy.mkdir()
    (spy / "run").write_text(SPY.replace("HIDDEN", repr(str(hidden))).replace("OUT", repr(str(out))))
    (spy / "run").chmod(0o755)
    (scene / "run").mkdir()
    reward, verdict = _test_sh(hp, scene / "run", judge_python, task_python, spy)
    seen = [json.loads(p.read_text()) for p in sorted(out.glob("spy-*.json"))]
    assert len(seen) == len(verdict["scenarios"]) > 0, (seen, verdict)
    assert all(s["uid"] == int(NOBODY) and s["read"] == [] for s in seen), seen
    assert all(
        Path(s["prefix"]) == task_python and Path(s["executable"]).parent == task_python / "bin" for s in seen
    ), seen
    assert verdict["pass"] is False and reward["reward"] == 0.0 and reward["semantic"] == 0.0, reward


def _dockerfile(exported: Path, task_id: str) -> list[str]:
    return HarborTaskPaths(exported / task_id).dockerfile.read_text().splitlines()


def test_the_agents_python_gets_the_tasks_pins_and_never_a_forbidden_package(exported: Path) -> None:
    """statistics forbids scipy, which swr itself needs: scipy is in swr's venv (/opt/swr), not in the
    requirements the image's python3 (the agent's) installs; numpy, which its candidates may use, is."""
    hp = HarborTaskPaths(exported / "statistics")
    forbidden = {"statsmodels", "scipy", "scikit-learn", "pandas"}
    agent = {ln.split("==")[0] for ln in hp.requirements.read_text().split()}
    assert agent == {"numpy"}, agent
    assert "scipy" in {ln.split("==")[0] for ln in hp.swr_requirements.read_text().split()}
    lines = _dockerfile(exported, "statistics")
    agent_installs = [ln for ln in lines if ln.startswith("RUN python3 -m pip install")]
    assert agent_installs == ["RUN python3 -m pip install --no-cache-dir -r /tmp/requirements.txt"], lines
    assert not any(f in ln for ln in agent_installs for f in forbidden)
    assert [ln for ln in lines if "swr-requirements.txt" in ln and ln.startswith("RUN")] == [
        "RUN python3 -m venv /opt/swr && /opt/swr/bin/python -m pip install --no-cache-dir -r /tmp/swr-requirements.txt"
    ]
    assert "/opt/swr/bin/python -m swr.cli feedback" in (hp.workspace / "feedback").read_text()


def test_a_build_revival_image_has_a_c_compiler_and_the_others_no_apt_line(exported: Path) -> None:
    """bitarray-c-api's build step (and its agent) compile a C extension: gcc and libc's headers are in its
    image; the pure-Python revivals need no apt package."""
    apt = [ln for ln in _dockerfile(exported, "bitarray-c-api") if "apt-get install" in ln]
    assert len(apt) == 1 and apt[0].split("--no-install-recommends ")[1].split(" &&")[0] == "gcc libc6-dev", apt
    for task_id in ("more-itertools-recipes", "periodictable-numpy2"):
        assert not any("apt-get" in ln for ln in _dockerfile(exported, task_id)), task_id


def test_engine_verifier_tools_are_installed_and_root_only(exported: Path) -> None:
    """spice's verifier tool (engine.toml apt) is on the apt line; as a forbidden program it is root's
    alone in the image; statistics needs no apt package."""
    spice = _dockerfile(exported, "spice")
    apt = [ln for ln in spice if "apt-get install" in ln]
    assert len(apt) == 1 and " ngspice " in apt[0], spice
    guard = [ln for ln in spice if "chmod 0700" in ln]
    assert len(guard) == 1 and "ngspice" in guard[0].split(";")[0], spice
    assert not any("apt-get" in ln for ln in _dockerfile(exported, "statistics"))


def test_base_image_option_pins_from(release: Path, tmp_path: Path) -> None:
    res = swr("export", "harbor", str(release), "--out", str(tmp_path / "pinned"), "--base-image", DIGEST)
    assert res.returncode == 0, res.stderr
    froms = {d.name: _dockerfile(tmp_path / "pinned", d.name)[0] for d in (tmp_path / "pinned").iterdir()}
    assert froms == dict.fromkeys(KINDS, f"FROM {DIGEST}")
    res = swr("export", "harbor", str(release), "--out", str(tmp_path / "bad"), "--base-image", "x\nRUN curl evil")
    assert res.returncode == 2 and "--base-image" in res.stderr and len(res.stderr.strip().splitlines()) == 1, (
        res.stderr
    )


def test_reward_components_follow_the_first_failing_stage() -> None:
    def scenario(i: int, labels: list[str], split: str = "hidden") -> dict:
        return {
            "split": split,
            "index": i,
            "pass": not labels,
            "label": labels[0] if labels else None,
            "labels": labels,
            "field_agreement": 1.0,
            "matched": 1,
            "total": 1,
            "mismatches": [],
            "extra_keys": [],
            "exit_code": 0,
            "limit": None,
            "wall_s": 0.1,
            "stderr_tail": "",
            "detail": None,
        }

    v = {
        "task": "t",
        "pass": False,
        "label": "input_independent",
        "labels": ["input_independent"],
        "r_hid": 1 / 3,
        "r_pub": 0.0,
        "field_agreement": 0.5,
        "anti_shortcut": [{"label": "input_independent"}],
        "scenarios": [
            scenario(0, []),
            scenario(1, ["parse_failure"]),
            scenario(2, ["execution_failure"]),
            scenario(0, ["execution_failure"], "public"),
        ],
    }
    r = reward_of(parse_verdict(v))
    assert (r.execution, r.schema_, r.semantic, r.anti_shortcut, r.reward) == (0.666667, 0.333333, 1 / 3, 0.0, 0.0)

    def record(case: str, measured: float | None) -> dict:
        return {
            "case": case,
            "check": "c",
            "kind": "tolerance",
            "measured": measured,
            "threshold": 1.0,
            "better": "lower",
            "pass": False,
            "detail": "",
        }

    engine = {
        "kind": "engine",
        "task": "t",
        "pass": False,
        "label": "tolerance_failure:c",
        "labels": ["tolerance_failure:c"],
        "score": "1/2",
        "failed_checks": ["c"],
        "cases": [{"case": "h1", "failure": None, "detail": ""}, {"case": "h2", "failure": None, "detail": ""}],
        "records": [record("h2", None), record("h1", 3.0)],
    }
    assert reward_of(parse_verdict(engine)).model_dump(by_alias=True) == {
        "execution": 1.0,
        "schema": 0.5,
        "semantic": 0.5,
        "anti_shortcut": 1.0,
        "reward": 0.0,
    }


def test_bad_output_directory_or_release_is_one_line_and_exit_2(release: Path, tmp_path: Path) -> None:
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("x")
    res = swr("export", "harbor", str(release), "--out", str(tmp_path / "busy"))
    assert res.returncode == 2 and "--out" in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr
    res = swr("export", "harbor", str(tmp_path / "busy"), "--out", str(tmp_path / "new"))
    assert res.returncode == 2 and "not a release" in res.stderr and "Traceback" not in res.stderr, res.stderr


WRITER = "id -u > built.txt && ln -s /etc/shadow leak && mkdir -p build/lib && echo so > build/lib/x.so"


def test_a_read_write_job_run_as_a_user_works_in_its_copy_and_lands_its_writes(tmp_path: Path) -> None:
    """The `none` backend's run_as on a read-write work dir (a revival `build` step's, inside the grader's
    root-only temporary directory): the user works in a copy it owns, which replaces the directory when the
    job is over; a link it made comes back as a link, never followed (/etc/shadow's bytes are not copied)."""
    assert os.geteuid() == 0, "run_as only switches users when swr is root (this host's tests run as root)"
    hidden = tmp_path / "root-only"
    work = hidden / "project"
    work.mkdir(parents=True)
    hidden.chmod(0o700)
    (work / "setup.py").write_text("# the project\n")
    sb = LocalSandbox(run_as=(int(NOBODY), int(NOBODY)))
    res = run(sb, Job(["/bin/sh", "-c", WRITER], Mount(work, WORKDIR, "rw"), Limits(time_s=30)), b"")
    assert res.ok, res.stderr
    assert (work / "built.txt").read_text().strip() == NOBODY
    assert (work / "setup.py").read_text() == "# the project\n" and (work / "build/lib/x.so").read_text() == "so\n"
    assert (work / "leak").is_symlink() and os.readlink(work / "leak") == "/etc/shadow"


@pytest.fixture(scope="session")
def shipped(
    catalog_release: Path, engines_release: Path, revival_release: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """Every shipped task in one release: the catalog (CATALOG_VARIANTS variants), every engine, every
    revival; each task a link to its built directory (export copies what it reads)."""
    dest = ReleasePaths(tmp_path_factory.mktemp("shipped") / "rel")
    dest.tasks.mkdir(parents=True)
    for rel in (catalog_release, engines_release, revival_release):
        for root in list_tasks(rel):
            dest.task(root.name).root.symlink_to(root, target_is_directory=True)
    return dest.root


LOAD_ALL = """import json, sys
from harbor.models.task.task import Task
tasks = [Task(d) for d in sys.argv[1:]]
print(json.dumps({t.name: [t.config.metadata["swr_kind"], t.paths.test_path.is_file(), t.paths.solve_path.is_file()]
                  for t in tasks}))
"""


def test_every_shipped_task_exports_and_harbor_loads_and_lints_it_clean(
    shipped: Path, harbor_bin: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Acceptance 4 at scale: the whole shipped set (every kind) exports; one harbor process loads every task,
    one `harbor lint` over all of them finds nothing; no hidden file reaches any agent's image."""
    tasks = {r.name: read_task_file(r).kind for r in list_tasks(shipped)}
    revivals = [load_revival(d.parent, check_files=False) for d in ROOT.glob("revivals/*/revival.toml")]
    sources = {d.parent.name for d in ROOT.glob("engines/*/engine.toml")} | {
        r.name
        for r in revivals
        if r.name not in HEAVY_REVIVALS and device.missing(r) is None  # built, not skipped
    }
    assert sources <= set(tasks) and {"workflow", "engine", "revival"} == set(tasks.values()), tasks
    out = tmp_path / "harbor"
    t0 = time.monotonic()
    res = swr("export", "harbor", str(shipped), "--out", str(out), "--json", timeout=3600)
    took = time.monotonic() - t0  # reported, never asserted
    assert res.returncode == 0, res.stderr[-2000:]
    assert {r["task"]: r["kind"] for r in json.loads(res.stdout)} == tasks
    dirs = sorted(str(out / t) for t in tasks)
    load = subprocess.run([str(harbor_bin / "python"), "-c", LOAD_ALL, *dirs], capture_output=True, text=True)
    assert load.returncode == 0, load.stderr[-2000:]
    assert json.loads(load.stdout) == {f"swr/{t}": [k, True, True] for t, k in tasks.items()}
    lint = subprocess.run(
        [str(harbor_bin / "harbor"), "lint", "--extend-select", "root-agent", "--json", *dirs],
        capture_output=True,
        text=True,
    )
    assert lint.returncode == 0 and json.loads(lint.stdout or "[]") == [], (lint.stdout + lint.stderr)[-4000:]
    for task_id in tasks:
        assert_hidden_only_under_tests(shipped / "tasks" / task_id, out / task_id)
    with capsys.disabled():
        print(f"\nswr export harbor: {len(tasks)} tasks ({sorted(set(tasks.values()))}) in {took:.0f} s")
