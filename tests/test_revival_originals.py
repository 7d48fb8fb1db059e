"""The original of a revived module is out of reach (issue 23 §2): in the sandbox of a revival agent and in the
sandbox of its grading, on both backends, a scan walks every readable file (archives opened) for the original
module's distinctive lines, and a candidate that loads the original from wherever it lies fails its grading.

The original is taken from the sdist the build downloaded (swr's cache of sdists, by the spec's sha256), not from
what swr stored about it: 20 of its distinctive normalised lines, spread over the module
(swr.kinds.revival.originals.signature). The scan runs inside the sandbox through the very job each side makes
(swr.harness.agents.base.agent_job, swr.kinds.revival.grading.sandbox_job), with the interpreter that side runs."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import tarfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import TEST_SEED, revival_oracle

from swr import kinds
from swr.core.cachedir import default_cache_dir
from swr.core.layout import TaskPaths
from swr.kinds.revival import grading, originals
from swr.kinds.revival.task import MODULE_REF, RevivalTask
from swr.sandbox import GiB, Limits, Sandbox, hide, run

PLAIN = ("more-itertools-recipes", "toolz-itertoolz")
SCAN_LIMITS = Limits(time_s=1800, memory_bytes=2 * GiB)
WORK = "/sandbox/work"  # the job's own workspace: what the candidate submitted and what it is graded by


def _tasks(release: Path) -> list[str]:
    """The plain tasks and the obfuscated variant(s) made from them."""
    found = []
    for d in sorted((release / "tasks").iterdir()):
        rec = TaskPaths(d).build_record
        made_from = json.loads(rec.read_text()).get("obfuscated_from") if rec.is_file() else None
        if d.name in PLAIN or made_from in PLAIN:
            found.append(d.name)
    assert len(found) == 3, found  # both plain tasks and toolz's obfuscated variant
    return found


def _load(release: Path, task_id: str) -> RevivalTask:
    task = kinds.load(release / "tasks" / task_id)
    assert isinstance(task, RevivalTask)
    return task


def original_lines(release: Path, task_id: str, n: int = 20) -> list[str]:
    """n distinctive lines of the original deleted module, read from the downloaded sdist (an obfuscated
    variant's original is its plain task's)."""
    task = _load(release, task_id)
    rec = json.loads(task.paths.build_record.read_text())
    plain = _load(release, rec.get("obfuscated_from") or task_id)
    spec = tomllib.loads(plain.paths.revival_toml.read_text())
    sdists = sorted((default_cache_dir() / "revival-sdists" / spec["sha256"]).glob("*.tar.gz"))
    assert sdists, f"the build's sdist of {spec['source']} is not in swr's cache"
    rels = [
        f.relative_to(plain.reference_dir / MODULE_REF).as_posix()
        for f in (plain.reference_dir / MODULE_REF).rglob("*.py")
    ]
    with tarfile.open(sdists[0]) as t:
        sources = [
            t.extractfile(m).read()
            for m in t.getmembers()  # type: ignore[union-attr]
            if m.isfile() and any(m.name.endswith("/" + r) for r in rels)
        ]
    assert len(sources) == len(rels) >= 1, rels
    lines = originals.signature(sources, n)
    assert len(lines) == n
    return lines


def _scan(sandbox: Sandbox, job: Any, lines: list[str]) -> dict[str, Any]:
    req = {"roots": ["/"], "lines": lines, "hits": 2}
    res = run(sandbox, job, json.dumps(req).encode())
    assert res.ok, (res.limit, res.returncode, res.stderr[-2000:])
    out = json.loads(res.stdout)
    assert out["files"] > 1000 and not out["truncated"], out  # it did walk the system
    return out


def scan_agent(sandbox: Sandbox, task: RevivalTask, lines: list[str], tmp: Path) -> list[list[str]]:
    """What the scan finds in the agent's sandbox, run by swr's own python (the agent's ./feedback's)."""
    from swr.harness.agents.base import Budget, Context, agent_job
    from swr.harness.workspace import create

    ctx = Context(task, create(task, tmp / "ws"), sandbox, Budget(), None, 1)
    job = agent_job(ctx, [sys.executable, "-I", originals.__file__], SCAN_LIMITS)
    return _scan(sandbox, job, lines)["hits"]


def scan_grading(sandbox: Sandbox, task: RevivalTask, lines: list[str], tmp: Path) -> list[list[str]]:
    """What the scan finds in grading's sandbox, run by the target venv's python: a candidate's own module runs
    there with the same reach. Its workspace (the staged candidate and the tests laid over it) is not scanned."""
    v = task.verifier()
    (tmp / "scratch").mkdir(parents=True)
    scratch = grading.stage(task.project, tmp / "scratch", v)
    job = grading.sandbox_job(v, scratch, [str(v.venv.python), "-I", originals.__file__])
    job = replace(job, limits=replace(job.limits, time_s=SCAN_LIMITS.time_s))  # a walk of the system, not a test run
    return [h for h in _scan(sandbox, job, lines)["hits"] if not h[0].startswith(WORK + "/")]


def _no_copy_readable(release: Path, backend: Sandbox, tmp_path: Path, every: bool) -> None:
    """Every file a revival agent or its grading can read, archives opened, holds none of the original
    module's distinctive lines (more-itertools' recipes, toolz's itertoolz, the obfuscated variant's original),
    two scans of the whole system at a time (the machine's two cores). `every`: all six (task, side) scans;
    else one drawn with the suite's seed (SWR_TEST_SEED)."""
    runs = [(task_id, side) for task_id in _tasks(release) for side in ("agent", "grading")]
    if not every:
        runs = [random.Random(TEST_SEED).choice(runs)]
    for task_id, _ in runs:
        _load(release, task_id).verifier()  # the venv and the covers, made once before the threads

    def one(run_: tuple[str, str]) -> list[list[str]]:
        task_id, side = run_
        scan = scan_agent if side == "agent" else scan_grading
        return scan(backend, _load(release, task_id), original_lines(release, task_id), tmp_path / f"{task_id}-{side}")

    with ThreadPoolExecutor(2) as pool:
        found = {f"{t} ({s})": hits for (t, s), hits in zip(runs, pool.map(one, runs)) if hits}
    assert not found, found


def test_no_copy_of_the_original_is_readable_in_a_revival_sandbox(
    revival_release: Path, backend: Sandbox, tmp_path: Path
) -> None:
    """One whole-system scan per backend, its task and side drawn with the suite's seed (the full suite: all)."""
    _no_copy_readable(revival_release, backend, tmp_path, every=False)


@pytest.mark.full
def test_no_copy_of_the_original_is_readable_in_any_revival_sandbox(
    revival_release: Path, backend: Sandbox, tmp_path: Path
) -> None:
    _no_copy_readable(revival_release, backend, tmp_path, every=True)


# A rebuilt module that is the original, loaded from wherever a copy can be read at grading time: every directory
# named like the package holding the module (site-packages of any interpreter, vendored `_vendor/` copies, venvs),
# every wheel/zip/egg holding it, and every other Python on the system asked for its source. Its source runs in
# this module's namespace, as the package's own module. No copy anywhere: ImportError, and the tests fail.
LOADER = r"""
import os, subprocess, sys, zipfile
NAMES, MODULE = {names!r}, {module!r}
TAILS = tuple("/" + n + "/" + MODULE + ".py" for n in NAMES)
SKIP = ("/proc", "/sys", "/dev", "/sandbox/work", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _sources():
    pythons = []
    for d, dirs, files in os.walk("/"):
        if d.startswith(SKIP):
            dirs[:] = []
            continue
        for f in files:
            p = os.path.join(d, f)
            if p.endswith(TAILS):
                yield p, lambda p=p: open(p, "rb").read()
            elif f.endswith((".whl", ".zip", ".egg", ".pyz")):
                try:
                    z = zipfile.ZipFile(p)
                    for m in z.namelist():
                        if ("/" + m).endswith(TAILS):
                            yield p + "!" + m, lambda z=z, m=m: z.read(m)
                except Exception:
                    pass
            elif f.startswith("python") and "/bin" in d and os.access(p, os.X_OK):
                pythons.append(p)
    for py in pythons:
        for n in NAMES:
            code = ("import importlib, inspect; print(inspect.getsource(importlib.import_module(%r)))"
                    % (n + "." + MODULE))
            yield py + ":" + n, lambda py=py, code=code: subprocess.run([py, "-I", "-c", code], capture_output=True,
                                                                     timeout=30, check=True).stdout


def _load():
    for where, read in _sources():
        try:
            source = read()
            exec(compile(source, where, "exec"), globals())
            sys.stderr.write("loaded the original from " + where + "\n")
            return
        except Exception:
            continue
    raise ImportError("no readable copy of the original")


_load()
"""


def loader_candidate(task: RevivalTask, dest: Path) -> Path:
    """The broken project with the deleted module (the reference's one .py file) replaced by LOADER."""
    revival_oracle(task, dest)
    ref = task.reference_dir / MODULE_REF
    [rel] = [f.relative_to(ref) for f in ref.rglob("*.py")]
    names = {rel.parts[0], *(p.replace("-", "_") for p in task.forbidden_packages)}
    (dest / rel).write_text(LOADER.format(names=sorted(names), module=rel.stem))
    (dest / rel.with_suffix(".pyi")).unlink(missing_ok=True)
    return dest


@pytest.mark.parametrize("task_id", PLAIN)
def test_a_module_loading_the_original_from_anywhere_fails_grading(
    revival_release: Path, backend: Sandbox, task_id: str, tmp_path: Path
) -> None:
    """The loader finds no copy of the original in grading's sandbox (on main it found swr's venv's toolz and
    setuptools' vendored more_itertools, and passed)."""
    task = _load(revival_release, task_id)
    got = task.grade(loader_candidate(task, tmp_path / "cand"), backend)  # type: ignore[arg-type]
    assert not got.passed and got.labels, got.score
    assert got.score.startswith("0/"), got.score


# The judge in a revival image, with what its venv leaves out unimportable: it must grade without them.
BLOCKED_JUDGE = r"""
import sys
BLOCKED = set(sys.argv[1].split(","))
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError("left out of the image: " + name)
sys.meta_path.insert(0, Block())
from swr.export.harbor_judge import main
sys.exit(main(sys.argv[2:]))
"""


def test_a_revival_image_holds_no_copy_of_the_original_and_its_judge_grades_without_dask(
    revival_release: Path, tmp_path: Path
) -> None:
    """No Docker engine here: what the exported image installs is read off its files. swr's venv in it (readable
    by the candidate) holds exactly its requirements (`--no-deps`), none of them a forbidden distribution or Dask
    (which brings toolz); no file of any installed distribution (swr's pins as installed here, the task's pins as
    in its target venv), of the build context (wheel, workspace) holds the original's lines; and the judge, with
    every distribution the venv leaves out made unimportable, rewards the oracle 1."""
    from importlib.metadata import distribution

    from swr.core.layout import HarborTaskPaths
    from swr.export.harbor import export_task, runtime_pins, swr_wheel
    from swr.kinds.revival import envs

    wheel = swr_wheel()
    for task_id in _tasks(revival_release):
        task = _load(revival_release, task_id)
        hp = HarborTaskPaths(tmp_path / task_id)
        export_task(task.root, hp.root, wheel, "", 3600.0)
        pins = [p.split("==") for p in hp.swr_requirements.read_text().split()]
        names = {n for n, _ in pins}
        left_out = {"dask", "distributed", "toolz", "cytoolz", "more-itertools", "partd", "openai", "cryptography"}
        assert names and not names & left_out, (task_id, names & left_out)
        assert any(
            ln.startswith("RUN python3 -m venv /opt/swr") and " --no-deps -r " in ln
            for ln in hp.dockerfile.read_text().splitlines()
        ), hp.dockerfile.read_text()
        sig = {ln.encode() for ln in original_lines(revival_release, task_id)}
        files = [
            str(distribution(n).locate_file(f))
            for n, v in pins
            for f in distribution(n).files or ()
            if distribution(n).version == v
        ]
        site = next(envs.ensure(task.target()).root.glob("lib/python*/site-packages"))
        files += [str(p) for p in site.rglob("*") if p.is_file()]
        files += [str(p) for p in hp.environment.rglob("*") if p.is_file()]
        assert len(files) > 1000
        hits = [(f, w) for f in files if (w := originals.copy_in(f, sig, 2)) is not None]
        assert not hits, (task_id, hits)
    task_id = "toolz-itertoolz"
    hp = HarborTaskPaths(tmp_path / task_id)
    logs, solution = tmp_path / "logs", tmp_path / "solution"
    logs.mkdir()
    shutil.copytree(hp.oracle, solution)
    kept = {p.split("==")[0] for p in hp.swr_requirements.read_text().split()}
    left = {p.split("==")[0] for p in runtime_pins()} - kept
    assert {"dask", "toolz"} <= left
    blocked = ",".join(sorted({i for d in left | {"toolz", "cytoolz"} for i in hide.import_names(d)} | {"tlz"}))
    res = subprocess.run(
        [sys.executable, "-c", BLOCKED_JUDGE, blocked, str(hp.task_copy), str(solution), str(logs)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert res.returncode == 0 and json.loads(res.stdout)["reward"] == 1.0, (res.stdout[-2000:], res.stderr[-3000:])


SYNTHETIC = (
    "\n".join(
        f'def recipe_{i}(iterable):\n    """Recipe number {i}: a distinctive docstring line of the '
        f'original."""\n    return list(iterable)[{i}::{i + 1}]  # step {i} of the original module'
        for i in range(1, 40)
    )
    + "\n"
)


def test_copies_are_found_by_content_and_covered_in_the_sandbox(backend: Sandbox, tmp_path: Path) -> None:
    """A renamed vendored copy, a top-level copy with its bytecode, bytecode whose source is gone and a wheel
    holding a copy are found by the original's lines alone and are unreadable in a job that covers them; an
    unrelated module beside them stays readable."""
    import py_compile
    import zipfile

    from swr.sandbox import WORKDIR, Job, Mount

    root = tmp_path / "env"
    renamed = root / "site" / "otherpkg" / "_impl" / "renamed"
    renamed.mkdir(parents=True)
    (renamed / "__init__.py").write_text("")
    (renamed / "core.py").write_text(SYNTHETIC)
    top = root / "site" / "top_copy.py"
    top.write_text(SYNTHETIC)
    py_compile.compile(str(top))
    orphan = root / "site" / "orphan"
    orphan.mkdir()
    (orphan / "__init__.py").write_text("")
    (orphan / "gone.py").write_text(SYNTHETIC)
    py_compile.compile(str(orphan / "gone.py"))
    (orphan / "gone.py").unlink()
    (root / "site" / "unrelated.py").write_text("x = 1\n")
    (root / "wheels").mkdir()
    with zipfile.ZipFile(root / "wheels" / "thing-1.0-py3-none-any.whl", "w") as z:
        z.writestr("thing/_vendored/x/mod.py", SYNTHETIC)
    for d in [root, *root.rglob("*")]:
        d.chmod(0o755 if d.is_dir() else 0o644)
    lines = originals.signature([SYNTHETIC.encode()])
    got = originals.copies((root,), tuple(lines))
    assert set(got) == {
        renamed,
        top,
        *top.parent.glob("__pycache__/top_copy.*.pyc"),
        orphan,
        root / "wheels" / "thing-1.0-py3-none-any.whl",
    }, got
    (tmp_path / "work").mkdir(mode=0o755)
    job = Job(
        [sys.executable, "-I", originals.__file__],
        Mount(tmp_path / "work", WORKDIR, "ro"),
        Limits(time_s=120),
        extra_mounts=(Mount(root, str(root), "ro"),),
        hidden_paths=got,
    )
    res = run(backend, job, json.dumps({"roots": [str(root)], "lines": lines, "hits": 2}).encode())
    assert res.ok, res.stderr[-2000:]
    out = json.loads(res.stdout)
    assert out["hits"] == [] and out["files"] >= 3, out
    probe = Job(
        [sys.executable, "-I", "-c", f"print(open({str(root / 'site' / 'unrelated.py')!r}).read())"],
        Mount(tmp_path / "work", WORKDIR, "ro"),
        Limits(time_s=60),
        extra_mounts=(Mount(root, str(root), "ro"),),
        hidden_paths=got,
    )
    res = run(backend, probe, b"")
    assert res.ok and res.stdout == b"x = 1\n\n", res.stderr[-1000:]
