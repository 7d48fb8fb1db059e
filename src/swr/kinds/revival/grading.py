"""Grading a revival candidate: the project copied into a scratch directory with the original tests laid over
it, the tests run once by pytest and each probe on its own, all sandboxed in the target venv; one record per
test that passed natively and per probe, anti-cheat's findings, and the verdict (docs/revival.md)."""

from __future__ import annotations

import json
import os
import secrets
import shlex
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from swr.core.trees import KEEP_ALL, copy_tree
from swr.judge import Tolerances
from swr.judge.compare import compare
from swr.kinds.revival import anticheat, copied
from swr.kinds.revival.envs import Venv
from swr.kinds.revival.runner import MARK
from swr.kinds.revival.spec import Env, RevivalSpec
from swr.kinds.revival.verdict import RevivalVerdict
from swr.sandbox import WORKDIR, GiB, Job, Limits, Mount, Sandbox, run, tree
from swr.sandbox.base import hand_over
from swr.sandbox.capped import SLACK, capped_dir

TAIL = 2000
RUNNER = "_swr_runner.py"
INI = "_swr_pytest.ini"
PROJECT = "project"
COMPILED = (".so", ".pyd", ".dylib", ".o", ".a")  # shipped binaries: deleted, what is graded is built from source
# A build's disk: the scratch directory (the staged candidate and all the build writes) is a tmpfs of this size
# and size // BLOCK files as root (capped_dir), so a flood stops at the cap, not at the next poll; the staged copy
# of a candidate is bounded by it too.
BUILD_LIMITS = Limits()
STAGED = tree.Bounds(bytes=BUILD_LIMITS.disk_bytes)
FORGED = "forged results"  # an execution_failure's detail when the results line is not the runner's alone
LABEL_ORDER = (
    "missing_candidate",
    "copied_original",
    "tests_modified",
    "dependency_downgrade",
    "build_failure",
    "execution_failure",
    "tests_failed",
    "probe_mismatch",
    "nothing_checked",
)
# ./feedback of a task whose every test file is hidden: nothing runs, and the verdict says so instead of failing
NO_PUBLIC_TESTS = "no_public_tests"
SKIPPED = "skipped_no_device"  # a task this machine cannot run (swr.kinds.revival.device): neither pass nor fail
NO_PUBLIC_NOTE = (
    "every test file of this project is hidden, so there is no test to run here; the hidden suite "
    "(its tests and probes) decides"
)


@dataclass
class Verifier:
    """What grading reads: the spec, the original test files, the probes, the recorded reference outputs
    ({"tests": [ids that passed natively], "probes": {probe: JSON}}) and the public test files' hashes."""

    spec: RevivalSpec
    tests_dir: Path
    probes_dir: Path
    venv: Venv
    recorded: dict[str, Any] = field(default_factory=dict)
    hashes: dict[str, str] = field(default_factory=dict)
    # absent from every run's sandbox: the forbidden distributions (hide.py: by their RECORDs, other Pythons,
    # zipped and vendored copies) and the copies of the original found by content (swr.kinds.revival.originals)
    forbidden: tuple[str, ...] = ()
    copies: tuple[Path, ...] = ()
    original: Path | None = None  # a deleted module's original files (private): a rebuild must not be them again
    start: Path | None = None  # the starting workspace: its files are not the rebuild
    copy_threshold: float = copied.DEFAULT_THRESHOLD
    native: bool = False  # the original recorded in the native environment (its build steps), else the target's

    @property
    def env(self) -> Env:
        return self.spec.native if self.native else self.spec.target

    @property
    def steps(self) -> tuple[str, ...]:
        """The build steps run in the project before its tests and probes (revival.toml's `build`)."""
        return self.env.build


def stage(candidate: Path, scratch: Path, v: Verifier, overlay: bool = True) -> Path:
    """scratch/ with project/ (the candidate, stray conftest files removed, the original tests laid over
    it), the runner, an empty pytest config and the probes. The candidate comes in through the safe export
    (no link followed, no special file, bounded: tree.Rejected past STAGED) and its links stay inert: the
    tests are written through none of them, so nothing the candidate names is a destination on the host.
    With build steps, shipped binaries stay out too: what is graded is built from source."""
    proj = scratch / PROJECT
    tree.export(candidate, proj, STAGED, ignore=_left_out(bool(v.steps), overlay))
    if overlay:
        for f in sorted(v.tests_dir.rglob("*")):
            if f.is_file() and not f.is_symlink():
                rel = f.relative_to(v.tests_dir)
                tree.write_in(proj, list(rel.parts), f.read_bytes(), 0o644, replace=True)
    shutil.copyfile(Path(__file__).with_name("runner.py"), scratch / RUNNER)
    (scratch / INI).write_text("[pytest]\n")
    if v.probes_dir.is_dir():
        copy_tree(v.probes_dir, scratch / v.probes_dir.name, ignore=KEEP_ALL)
    return scratch


def _left_out(build: bool, overlay: bool) -> Callable[[str], bool]:
    """What of a candidate is not staged: VCS and bytecode; its conftest files when the original tests are
    laid over (theirs come with them); for a build, compiled modules (a broken source beside a binary built
    elsewhere is not a revival)."""

    def ignore(rel: str) -> bool:
        name = rel.rpartition("/")[2]
        return (
            name in (".git", "__pycache__")
            or name.endswith(".pyc")
            or (overlay and name == "conftest.py")
            or (build and name.endswith(COMPILED))
        )

    return ignore


def sandbox_job(v: Verifier, scratch: Path, argv: list[str]) -> Job:
    """One run of grading in the target venv (the tests, a probe): what its sandbox mounts and covers."""
    lim = Limits(time_s=v.spec.verify.timeout_s, memory_bytes=4 * GiB, pids=256)
    return Job(
        argv,
        Mount(scratch.resolve(), WORKDIR, "overlay"),
        lim,
        extra_mounts=v.venv.mounts(),
        hidden=v.forbidden,
        hidden_paths=v.copies,
    )


def _request(v: Verifier, mode: str, **kw: Any) -> bytes:
    return json.dumps(
        {
            "mode": mode,
            "project": PROJECT,
            "pythonpath": list(v.spec.verify.pythonpath),
            "classpath": list(v.spec.verify.classpath),
            "ini": INI,
            **kw,
        }
    ).encode()


def run_tests(v: Verifier, scratch: Path, tests: list[str], sandbox: Sandbox) -> tuple[dict[str, str] | None, str]:
    """({node id: passed|failed|error|skipped}, detail) of one pytest run, or (None, why) when it did not run
    or its results line is not the runner's alone. A fresh nonce per run (see swr.kinds.revival.runner for what it
    does and does not guarantee)."""
    nonce = secrets.token_hex(16)
    res = run(
        sandbox,
        sandbox_job(v, scratch, [str(v.venv.python), "-I", RUNNER]),
        _request(v, "tests", tests=tests, nonce=nonce),
    )
    text = res.stdout.decode("utf-8", errors="replace")
    if res.limit or MARK not in text:
        why = f"limit {res.limit}" if res.limit else f"exit code {res.returncode}"
        return None, f"pytest did not finish ({why}): {(text + res.stderr.decode(errors='replace'))[-TAIL:]}"
    outcomes, detail = read_results(text, nonce)
    if outcomes == {}:  # nothing ran: why is often on stderr only (a conftest that fails to import)
        detail = f"{detail}\n{res.stderr.decode('utf-8', errors='replace')}"[-TAIL:]
    return outcomes, detail


def read_results(text: str, nonce: str) -> tuple[dict[str, str] | None, str]:
    """The outcomes on the one results line the runner wrote (MARK + this run's nonce + JSON), and pytest's
    output before it; (None, why) when there is another MARK line, output after ours, or none of ours. The
    reason comes last, so that a record's short detail (its tail) shows it."""
    marks, ours = text.count(MARK), text.find(MARK + nonce + "{")
    at = ours + len(MARK) + len(nonce)
    line, _, after = text[at:].partition("\n") if ours >= 0 else ("", "", "")
    forged = (
        f"{FORGED}: no results line carries this run's nonce"
        if ours < 0
        else f"{FORGED}: {marks} results lines, the runner writes one"
        if marks > 1
        else f"{FORGED}: output after the results line: {after.strip()[:200]!r}"
        if after.strip()
        else None
    )
    if forged:
        return None, f"{text[: ours if ours >= 0 else text.find(MARK)][-TAIL // 2 :]}\n{forged}"
    try:
        doc = json.loads(line)
        return {str(k): str(o) for k, o in doc["outcomes"].items()}, text[:ours][-TAIL:]
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        return None, f"unreadable pytest results: {e}"


def run_probe(v: Verifier, scratch: Path, probe: str, sandbox: Sandbox) -> tuple[Any, str]:
    """(the probe's JSON object, "") or (None, why)."""
    res = run(sandbox, sandbox_job(v, scratch, [str(v.venv.python), "-I", RUNNER]), _request(v, "probe", probe=probe))
    if not res.ok:
        why = f"limit {res.limit}" if res.limit else f"exit code {res.returncode}"
        return None, f"{why}: {res.stderr.decode(errors='replace')[-TAIL:]}"
    try:
        out = json.loads(res.stdout)
    except ValueError as e:
        return None, f"stdout is not one JSON object: {e}"
    return (out, "") if isinstance(out, dict) else (None, "stdout is JSON but not an object")


def build_step(v: Verifier, project: Path, sandbox: Sandbox) -> str | None:
    """The environment's build steps run in turn in the project (in the scratch copy), each its own sandboxed
    run with the build cap, the venv's bin/ first on PATH; why the first failing one failed (its output's tail,
    then which step and how), or None. The reason comes last (a verdict's detail is its tail): a build that
    filled its capped directory says so."""
    for i, step in enumerate(v.steps, 1):
        res = run(sandbox, step_job(v, project, step), b"")
        if res.ok:
            continue
        out = (res.stdout + res.stderr).decode(errors="replace")
        how = res.limit or f"exit code {res.returncode}"
        why = f"{out[-(TAIL - 400) :]}\nbuild step {i} `{step[:200]}` failed ({how})"
        return f"{why}\n{full}" if (full := _full(project)) else why
    return None


def step_job(v: Verifier, project: Path, step: str) -> Job:
    """One build step: `sh -c STEP` in the project, writable, in the venv (`python`, `pip` are its own)."""
    venv = str(v.venv.root)
    script = f'export VIRTUAL_ENV={shlex.quote(venv)} PATH={shlex.quote(venv + "/bin")}:"$PATH"\n{step}'
    return Job(
        ["/bin/sh", "-c", script],
        Mount(project.resolve(), WORKDIR, "rw"),
        replace(BUILD_LIMITS, time_s=v.spec.verify.timeout_s),
        extra_mounts=v.venv.mounts(),
        hidden=v.forbidden,
        hidden_paths=v.copies,
    )


def _full(path: Path) -> str | None:
    """Why the file system under path takes no more (its bytes or its files are spent), or None."""
    try:
        st = os.statvfs(path)
    except OSError:
        return None
    if st.f_bavail * st.f_frsize >= SLACK and st.f_favail > 0:
        return None
    return f"the build directory is full ({st.f_blocks * st.f_frsize >> 20} MiB, {st.f_files} files at most)"


def observe(
    v: Verifier, project: Path, sandbox: Sandbox, tests: list[str], overlay: bool = True, probes: bool = True
) -> dict[str, Any]:
    """What a project does in v's venv: {"tests": outcomes | None, "tests_detail", "probes": {name: (JSON, why)},
    "build": why | None}. The build records the original natively with it; grading reads a candidate's. As root
    the scratch directory is a capped tmpfs (executable: later runs import what the build compiled there);
    tree.Rejected when the project cannot be staged."""
    with (
        tempfile.TemporaryDirectory(prefix="swr-revival-") as d,
        capped_dir(Path(d) / "s", BUILD_LIMITS.disk_bytes, executable=True),
    ):
        scratch = stage(project, Path(d) / "s", v, overlay)
        if v.steps and (err := _build_in(v, scratch, sandbox)):
            return {"tests": None, "tests_detail": err, "probes": {}, "build": err}
        outcomes, detail = run_tests(v, scratch, tests, sandbox)
        got = {p: run_probe(v, scratch, p, sandbox) for p in (v.spec.verify.probes if probes else ())}
    return {"tests": outcomes, "tests_detail": detail, "probes": got, "build": None}


def _build_in(v: Verifier, scratch: Path, sandbox: Sandbox) -> str | None:
    """The build writes into the project (the sandbox user's for it); later runs see what it built. The
    candidate's compiled modules were left out when it was staged."""
    hand_over(scratch / PROJECT)
    return build_step(v, scratch / PROJECT, sandbox)


def hidden_and_public(spec: RevivalSpec) -> list[str]:
    return list(dict.fromkeys([*spec.verify.hidden, *spec.verify.public_files()]))


def grade_revival(
    v: Verifier,
    task_id: str,
    candidate: Path,
    sandbox: Sandbox,
    split: Literal["all", "hidden", "public"] = "all",
    reference: bool = False,
) -> RevivalVerdict:
    """The revival verdict: a record per natively passing test and per probe, anti-cheat, `score` "k/N".
    `reference`: the candidate is the task's own reference, written by swr (the build's gate, the oracle
    agent): a deleted module's reference is its original, so it is measured but not a copied_original."""
    if not candidate.is_dir() or not any(candidate.iterdir()):
        return verdict(task_id, [], ["missing_candidate"], [], f"{candidate} is missing or empty", split)
    findings = anticheat.inspect(candidate, v.hashes, v.spec.target.pins())
    public = split == "public"
    similarity = None
    if v.original is not None and not public:
        similarity, copies = copied.inspect(v.original, candidate, v.start, v.copy_threshold)
        findings = ([] if reference else copies) + findings
    tests = list(v.spec.verify.public) if public else hidden_and_public(v.spec)
    try:
        seen = observe(v, candidate, sandbox, tests, overlay=not public, probes=not public)
    except tree.Rejected as e:
        return verdict(task_id, [], ["missing_candidate"], findings, f"the candidate cannot be staged: {e}", split)
    want = [t for t in v.recorded.get("tests", []) if not public or _selected(t, v.spec.verify.public)]
    if public and not v.recorded:  # a workspace copy (./feedback): every public test that ran must pass
        want = _feedback_cases(seen["tests"], v.spec.verify.public)
    records = test_records(want, seen["tests"], seen["tests_detail"])
    tol = Tolerances(atol=v.spec.verify.atol, rtol=v.spec.verify.rtol)
    for probe, ref in () if public else v.recorded.get("probes", {}).items():
        out, why = seen["probes"].get(probe, (None, "not run"))
        records.append(probe_record(probe, ref, out, why, tol))
    labels = (
        [f["kind"] for f in findings]
        + (["build_failure"] if seen["build"] else [])
        + (["execution_failure"] if seen["tests"] is None else [])
        + (["tests_failed"] if any(r["check"] == "test" and not r["pass"] for r in records) else [])
        + (["probe_mismatch"] if any(r["check"] == "probe" and not r["pass"] for r in records) else [])
    )
    shown = seen["tests_detail"] if public and labels else ""  # ./feedback shows pytest's own account
    if seen["tests"] is None and (why := seen["tests_detail"].rpartition("\n")[2]).startswith(FORGED):
        shown = why  # said in every split: it is the verifier's finding, not the hidden tests' output
    return verdict(task_id, records, labels, findings, seen["build"] or shown, split, similarity)


def _feedback_cases(outcomes: dict[str, str] | None, public: tuple[str, ...]) -> list[str]:
    """What ./feedback checks in a workspace copy (no recorded outcomes): every public test that ran; when none
    ran (all skipped, pytest stopped before collecting, a public file gone) the skipped ones or else the public
    entries themselves, so that an empty run is a failure with a reason, never a pass of 0/0."""
    ran = [t for t, o in (outcomes or {}).items() if o != "skipped"]
    return ran or list(outcomes or ()) or list(public)


def device_skipped(task_id: str, why: str) -> RevivalVerdict:
    """A task this machine cannot run (`[requires] device`, swr.kinds.revival.device): `pass` null, label
    skipped_no_device, no record. Neither a pass nor a fail: `swr results` counts it apart from the pass rates."""
    return RevivalVerdict.model_validate(
        {
            "kind": "revival",
            "task": task_id,
            "pass": None,
            "label": SKIPPED,
            "labels": [SKIPPED],
            "score": "0/0",
            "records": [],
            "anticheat": [],
            "detail": why,
        }
    )


def no_public_tests(task_id: str, candidate: Path, pins: dict[str, str]) -> RevivalVerdict:
    """./feedback of a task with no public test: nothing to run, so no pass and no failure (`pass` null, label
    no_public_tests) -- but a missing candidate or anti-cheat's findings (a pinned-back dependency) still fail."""
    if not candidate.is_dir() or not any(candidate.iterdir()):
        return verdict(task_id, [], ["missing_candidate"], [], f"{candidate} is missing or empty", "public")
    findings = anticheat.inspect(candidate, {}, pins)
    if findings:
        return verdict(task_id, [], [f["kind"] for f in findings], findings, NO_PUBLIC_NOTE, "public")
    return RevivalVerdict.model_validate(
        {
            "kind": "revival",
            "task": task_id,
            "pass": None,
            "label": NO_PUBLIC_TESTS,
            "labels": [],
            "score": "0/0",
            "records": [],
            "anticheat": [],
            "detail": NO_PUBLIC_NOTE,
            "split": "public",
        }
    )


def _selected(test_id: str, public: tuple[str, ...]) -> bool:
    return any(test_id == p or test_id.startswith(p + "::") or test_id.startswith(p.rstrip("/") + "/") for p in public)


def test_records(want: list[str], outcomes: dict[str, str] | None, detail: str) -> list[dict[str, Any]]:
    """One record per test that passed natively: it must pass again."""
    out = []
    for t in want:
        got = outcomes.get(t, "not run") if outcomes is not None else "not run"
        why = got if outcomes is not None else f"not run: {detail[-300:]}"
        out.append({"case": t, "check": "test", "pass": got == "passed", "detail": why})
    return out


def probe_record(probe: str, ref: Any, out: Any, why: str, tol: Tolerances) -> dict[str, Any]:
    if out is None:
        return {"case": probe, "check": "probe", "pass": False, "detail": why[-TAIL:]}
    cmp = compare(ref, out, tol)
    first = cmp.mismatches[0].to_json() if cmp.mismatches else {}
    detail = "" if cmp.ok else f"{cmp.label}: {cmp.total - cmp.matched} of {cmp.total} leaves differ; first {first}"
    return {"case": probe, "check": "probe", "pass": cmp.ok, "detail": detail[:TAIL]}


def verdict(
    task_id: str,
    records: list[dict[str, Any]],
    labels: list[str],
    findings: list[dict[str, Any]],
    detail: str,
    split: str = "all",
    similarity: dict[str, Any] | None = None,
) -> RevivalVerdict:
    """The verdict of these records; with no record and no label it is `nothing_checked`: a verdict that
    checked nothing neither passes nor calls itself "pass". `similarity`: a deleted-module rebuild's measures
    against the original (swr.kinds.revival.copied), kept on every verdict that measured them (the contamination
    control reports them per run)."""
    labels = [lab for lab in LABEL_ORDER if lab in labels] or ([] if records else ["nothing_checked"])
    ok = sum(r["pass"] for r in records)
    doc = {
        "kind": "revival",
        "task": task_id,
        "pass": bool(records) and not labels,
        "label": labels[0] if labels else "pass",
        "labels": labels,
        "score": f"{ok}/{len(records)}",
        "records": records,
        "anticheat": findings,
        "detail": detail[-TAIL:],
    }
    if similarity is not None:
        doc["similarity"] = similarity
    return RevivalVerdict.model_validate({**doc, "split": "public"} if split == "public" else doc)
