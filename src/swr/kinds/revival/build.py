"""Building a revival task (`swr revive make`, `swr build revivals/`): fetch and check the source, make the
native and target environments, record the reference outputs from the untouched original natively, make the
broken project, then hold the task to the two gates every revival must pass — the starting workspace fails
its verifier and the reference passes it, both in the target environment. Each problem is one line."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from swr.core.cachedir import default_cache_dir
from swr.core.errors import SwrError
from swr.core.hashing import content_hash, tree_hash
from swr.core.layout import REVIVAL_TOML, TaskPaths
from swr.core.trees import BUILD_OUTPUTS, JUNK, KEEP_ALL, copy_tree
from swr.kinds.revival import copied, envs
from swr.kinds.revival.anticheat import file_hash
from swr.kinds.revival.build_file import write_build_file
from swr.kinds.revival.grading import Verifier, grade_revival, hidden_and_public, observe
from swr.kinds.revival.source import apply_patch, module_file, most_imported, original, port_patch
from swr.kinds.revival.spec import RevivalSpec, load_revival, norm
from swr.kinds.revival.task import MODULE_REF, load_revival_task, write_oracle, write_revival_task
from swr.kinds.revival.verdict import RevivalVerdict
from swr.kinds.taskfile import read_task_file
from swr.sandbox import Sandbox, tree


@dataclass
class RevivalResult:
    """One revival's build, as `swr build` reports it beside workflows and engines."""

    spec: RevivalSpec
    tasks: list[str]
    failure: str | None = None
    wall_s: float = 0.0
    record: dict[str, Any] = field(default_factory=dict)
    skipped: str | None = None  # why this machine cannot build it ([requires] device): neither built nor failed

    @property
    def message(self) -> str:
        return f"{self.spec.directory / REVIVAL_TOML}: {self.failure}"

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.spec.name,
            "family": self.spec.family,
            "domain": self.spec.domain,
            "kind": "revival",
            "revival": self.spec.kind,
            "status": "failed" if self.failure else "skipped" if self.skipped else "ok",
            "reason": self.failure or self.skipped,
            "tasks": self.tasks,
        }


def original_tests(project: Path, spec: RevivalSpec, dest: Path) -> Path:
    """The hidden and public test files, with the conftest.py and __init__.py files of their directories
    and of every directory above them in the project: what grading lays over a candidate."""
    files = [Path(t) for t in hidden_and_public(spec)]
    missing = [f.as_posix() for f in files if not (project / f).exists()]
    if missing:
        raise SwrError(f"no test file {missing[0]} in the project", field="verify")
    dirs = {d for f in files for d in [f.parent, *f.parent.parents]}
    extra = [d / n for d in dirs for n in ("conftest.py", "__init__.py") if (project / d / n).is_file()]
    for rel in [*files, *extra]:
        for src in [project / rel] if (project / rel).is_file() else sorted((project / rel).rglob("*.py")):
            dst = dest / src.relative_to(project)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
    dest.mkdir(exist_ok=True)
    return dest


def record_native(spec: RevivalSpec, project: Path, tests: Path, sandbox: Sandbox) -> tuple[dict[str, Any], list[str]]:
    """The untouched original in its native environment (built by its `native.build` steps first): the tests
    that pass there and each probe's JSON; problems when anything fails (a reference that does not run records
    nothing). A recording that holds is kept in swr's cache under recording_key: a native build is made once."""
    v = Verifier(spec, tests, spec.directory / "probes", envs.ensure(spec.native), native=True)
    kept = recordings_dir() / f"{recording_key(v, project)}.json"
    if kept.is_file():
        return json.loads(kept.read_text()), []
    recorded, problems = _record(v, project, sandbox)
    if not problems:
        kept.parent.mkdir(parents=True, exist_ok=True)
        tmp = kept.with_name(f".{kept.name}.{os.getpid()}")
        tmp.write_text(json.dumps(recorded, sort_keys=True))
        os.replace(tmp, kept)
    return recorded, problems


def recordings_dir() -> Path:
    return default_cache_dir() / "revival-recordings"


def recording_key(v: Verifier, project: Path) -> str:
    """What a native recording depends on: the environment (interpreter, pins, Debian packages, build steps),
    the original's files, the tests laid over it, the probes, what the verifier runs, and the code that stages,
    builds and runs them."""
    probes = v.probes_dir
    return content_hash(
        {
            "env": {"version": v.venv.version, **v.env.model_dump(mode="json")},
            "project": tree_hash(project),
            "tests": tree_hash(v.tests_dir),
            "probes": tree_hash(probes) if probes.is_dir() else None,
            "verify": v.spec.verify.model_dump(mode="json"),
            "code": [file_hash(Path(__file__).parent, f) for f in ("runner.py", "grading.py")],
        }
    )


def _record(v: Verifier, project: Path, sandbox: Sandbox) -> tuple[dict[str, Any], list[str]]:
    spec = v.spec
    try:
        seen = observe(v, project, sandbox, hidden_and_public(spec))
    except tree.Rejected as e:
        return {}, [f"the original cannot be staged for its tests: {e}"]
    if seen["build"] is not None:
        return {}, [f"the original does not build natively: {seen['build'][-600:]}"]
    if seen["tests"] is None:
        return {}, [f"the original's tests do not run natively: {seen['tests_detail'][-300:]}"]
    bad = sorted(t for t, o in seen["tests"].items() if o not in ("passed", "skipped"))
    passed = sorted(t for t, o in seen["tests"].items() if o == "passed")
    problems = [f"the original fails {len(bad)} test(s) natively, e.g. {bad[0]}"] if bad else []
    if not passed:
        problems.append("no test of the original passes natively")
    probes = {}
    for p, (out, why) in seen["probes"].items():
        if out is None:
            problems.append(f"probe {p} fails on the original natively: {why[-300:]}")
        probes[p] = out
    return {"tests": passed, "probes": probes}, problems


def break_project(spec: RevivalSpec, orig: Path, broken: Path) -> tuple[dict[str, Path], str]:
    """The broken project (hidden tests removed; for deleted-module the module's files too), the reference
    files it lacks ({project path: file}) and what the instruction says is missing."""
    copy_tree(orig, broken, ignore=JUNK | BUILD_OUTPUTS, symlinks=True)
    for hidden_rel in spec.verify.hidden:
        target = broken / hidden_rel
        shutil.rmtree(target) if target.is_dir() else target.unlink()
    if spec.kind != "deleted-module":
        return {}, ""
    module = spec.module or most_imported(orig, spec.verify.pythonpath, spec.verify.hidden)
    rel = module_file(orig, spec.verify.pythonpath, module)
    ref = {r.as_posix(): orig / r for r in (rel, rel.with_suffix(".pyi")) if (orig / r).is_file()}
    for r in ref:
        (broken / r).unlink()
    return ref, f"the module `{module}` (`{rel.as_posix()}`)"


def check_task(root: Path, sandbox: Sandbox) -> tuple[dict[str, Any], list[str]]:
    """The starting workspace must fail in the target environment, the reference must pass there, and pass
    ./feedback as an agent's workspace runs it: the public tests alone, without the hidden ones."""
    task = load_revival_task(root, read_task_file(root))
    v = task.verifier()
    nop = grade_revival(v, task.id, task.project, sandbox)
    with tempfile.TemporaryDirectory(prefix="swr-revival-oracle-") as d:
        write_oracle(task, Path(d) / "o")
        ref = grade_revival(v, task.id, Path(d) / "o", sandbox, reference=True)
        fb = (
            grade_revival(task.feedback_verifier(), task.id, Path(d) / "o", sandbox, "public")
            if task.meta.feedback.public
            else None
        )
    problems = (
        (["the starting workspace passes its verifier"] if nop.passed else [])
        + (
            [f"the reference fails in the target environment: {ref.labels} {_first_failure(ref)}"]
            if not ref.passed
            else []
        )
        + (
            [
                f"the reference fails ./feedback, which runs the public tests without the hidden ones (field "
                f"`verify.public`: a test that passes only after hidden ones have run belongs in `verify.hidden`): "
                f"{fb.labels} {_first_failure(fb)}"
            ]
            if fb is not None and not fb.passed
            else []
        )
    )
    return {"nop": _brief(nop), "reference": _brief(ref), **({"feedback": _brief(fb)} if fb else {})}, problems


def _brief(v: RevivalVerdict) -> dict[str, Any]:
    return {"pass": v.passed, "score": v.score, "labels": v.labels}


def _first_failure(v: RevivalVerdict) -> str:
    bad = [r for r in v.records if not r.passed]
    return f"{bad[0].case}: {bad[0].detail[:300]}" if bad else v.detail[:300]


def build_revival(
    directory: Path, tasks_dir: Path, sandbox: Sandbox, kind: str | None = None, root: Path | None = None
) -> RevivalResult:
    """The task at `root` (default tasks_dir/<name>), written only when every gate holds; a failure is one
    line. `kind`: what the caller expects the spec to declare (`swr revive make --kind`)."""
    t0 = time.monotonic()
    spec = load_revival(directory)
    for which in ("native", "target"):  # a missing system package is the caller's to install: one line, exit 2
        envs.require_apt(getattr(spec, which), directory / REVIVAL_TOML, f"{which}.apt")
    if kind is not None and kind != spec.kind:
        raise SwrError(f"the spec's kind is {spec.kind!r}, not {kind!r}", file=directory / REVIVAL_TOML, field="kind")
    root = root if root is not None else tasks_dir / spec.name
    if root.exists():
        raise SwrError("already exists: a revival task is written into a fresh directory", file=root)
    try:
        problems, record = _build(spec, root, sandbox)
    except SwrError as e:
        problems, record = [str(e)], {}
    if problems:
        shutil.rmtree(root, ignore_errors=True)  # made by this build (it did not exist before)
        return RevivalResult(spec, [], "; ".join(problems), time.monotonic() - t0, record)
    return RevivalResult(spec, [spec.name], None, time.monotonic() - t0, record)


def _build(spec: RevivalSpec, root: Path, sandbox: Sandbox) -> tuple[list[str], dict[str, Any]]:
    target = envs.ensure(spec.target)
    present = envs.installed(target)
    bad = [p for p in spec.anticheat.forbidden_packages if norm(p) in present]
    if bad:
        return [f"forbidden package {bad[0]} is installed in the target environment"], {}
    with tempfile.TemporaryDirectory(prefix="swr-revive-") as d:
        work = Path(d)
        orig = original(spec, work / "orig")
        tests = original_tests(orig, spec, work / "tests")
        recorded, problems = record_native(spec, orig, tests, sandbox)
        if problems:
            return problems, {"native": recorded}
        if spec.kind != "deleted-module":
            probe = work / "patched"
            copy_tree(orig, probe, ignore=KEEP_ALL, symlinks=True)
            apply_patch(probe, port_patch(spec))  # a port that does not apply is refused before anything is written
        reference, what = break_project(spec, orig, work / "broken")
        hashes = {f: h for f in spec.verify.public_files() if (h := file_hash(work / "broken", f))}
        write_revival_task(spec, root, work / "broken", tests, reference, recorded, hashes, what, target.version)
    report, problems = check_task(root, sandbox)
    report = {
        "native_tests": len(recorded["tests"]),
        "probes": sorted(recorded["probes"]),
        **report,
        **similarity_record(spec, root),
    }
    if "similarity" in report and (rebuild := honest_rebuild(spec)) is not None:
        report["rebuild"], bad = check_rebuild(root, rebuild, report["similarity"]["threshold"], sandbox)
        problems += bad
    write_build_file(TaskPaths(root).build_record, report)
    return problems, report


def honest_rebuild(spec: RevivalSpec) -> Path | None:
    """A deleted-module revival folder's `reference/`: the module rebuilt without the original's text, at its
    project path (what calibrates copied_original and must pass without it)."""
    d = spec.directory / "reference"
    return d if spec.kind == "deleted-module" and d.is_dir() and any(d.rglob("*.py")) else None


def check_rebuild(root: Path, rebuild: Path, threshold: float, sandbox: Sandbox) -> tuple[dict[str, Any], list[str]]:
    """The honest rebuild, graded as an agent's candidate would be (not as the task's reference), must pass
    with no finding at the calibrated threshold."""
    task = load_revival_task(root, read_task_file(root))
    v = replace(task.verifier(), copy_threshold=threshold)
    with tempfile.TemporaryDirectory(prefix="swr-revival-rebuild-") as d:
        cand = Path(d) / "r"
        copy_tree(task.project, cand, ignore=KEEP_ALL, symlinks=True)
        copy_tree(rebuild, cand, merge=True)
        got = grade_revival(v, task.id, cand, sandbox)
    brief = {**_brief(got), "similarity": got.similarity}
    return brief, ([] if got.passed else [f"the honest rebuild in {rebuild} fails: {got.labels} {_first_failure(got)}"])


def similarity_record(spec: RevivalSpec, root: Path, honest: dict[str, Path] | None = None) -> dict[str, Any]:
    """A deleted-module task's copied_original calibration for build.json (swr.kinds.revival.copied.calibrate):
    `honest` rebuilds given, else the revival folder's `reference/` rebuild where there is one."""
    at = TaskPaths(root)
    if spec.kind != "deleted-module" or not (at.reference / MODULE_REF).is_dir():
        return {}
    if honest is None:
        honest = {"reference rebuild": rebuild} if (rebuild := honest_rebuild(spec)) is not None else {}
    return {"similarity": copied.calibrate(at.reference / MODULE_REF, at.project, honest)}
