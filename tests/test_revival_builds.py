"""The revival contract beyond pip (issue 25): an environment's Debian packages (`apt`), its `build` steps run in
the project inside the sandbox, and `debian:` sources. The cheap checks run on tests/fixtures/revival/cext, a tiny
`build` revival whose build_ext.py compiles a C extension with the sandbox's own C compiler: it builds natively
(Python 3.12), does not build in the target (3.13 removed PyEval_CallObject), and its port builds there.

The venvs (pytest pins) are made once under swr's cache; the native recording is kept there by content."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import http.server
import io
import json
import re
import shutil
import subprocess
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, build_revival_alone, swr
from conftest import grade_revival as _grade
from conftest import revival_oracle as _oracle

from swr import kinds
from swr.core.errors import SwrError
from swr.core.hashing import content_hash
from swr.kinds.revival import envs
from swr.kinds.revival.build import original_tests, recording_key, recordings_dir
from swr.kinds.revival.grading import Verifier, build_step
from swr.kinds.revival.source import original
from swr.kinds.revival.spec import APT, Env, RevivalSpec, Verify, load_revival
from swr.kinds.revival.task import RevivalTask
from swr.sandbox import Sandbox
from swr.sandbox.capped import hand_over

CEXT = ROOT / "tests" / "fixtures" / "revival" / "cext"
TASK = "cext-call"
STEP = "python build_ext.py"


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("cext")
    res = swr("build", str(CEXT), "--out", "rel", cwd=base, timeout=1200)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return base / "rel"


@pytest.fixture(scope="module")
def task(release: Path) -> RevivalTask:
    t = kinds.load(release / "tasks" / TASK)
    assert isinstance(t, RevivalTask)
    return t


def test_the_build_steps_compile_natively_and_hold_the_gates(task: RevivalTask) -> None:
    """The original compiled by its native `build` (3.12) passes; the workspace does not compile in the target
    (3.13: PyEval_CallObject is gone, an implicit declaration is an error there); the port compiles and passes."""
    record = json.loads(task.paths.build_record.read_text())
    recorded = json.loads(task.paths.recorded.read_text())
    assert record["native_tests"] == len(recorded["tests"]) == 5
    assert recorded["probes"]["probes/fast.py"]["dot"] == 30.0  # sum of (i/2)*((9-i)/2) for i < 10: computed in C
    assert record["nop"]["pass"] is False and record["nop"]["labels"][0] == "build_failure"
    assert record["reference"] == {"pass": True, "score": "6/6", "labels": []}
    assert record["feedback"]["pass"] is True
    assert task.meta.feedback.build == (STEP,) and task.meta.target.apt == ("gcc", "libc6-dev")
    assert f"`{STEP}`" in task.paths.instruction.read_text()
    assert not list(task.project.rglob("*.so"))


def test_the_native_recording_is_kept_by_content(task: RevivalTask, tmp_path: Path) -> None:
    """The recording is cached under a key of the native environment with its build steps, the original, its
    tests and probes: what the build recorded is in swr's cache, and a different build step is another key."""
    spec = load_revival(CEXT)
    orig = original(spec, tmp_path / "orig")
    tests = original_tests(orig, spec, tmp_path / "tests")
    v = Verifier(spec, tests, CEXT / "probes", envs.ensure(spec.native), native=True)
    kept = recordings_dir() / f"{recording_key(v, orig)}.json"
    assert json.loads(kept.read_text()) == json.loads(task.paths.recorded.read_text())
    other = dataclasses.replace(
        v,
        spec=spec.model_copy(update={"native": spec.native.model_copy(update={"build": ("python build_ext.py -O2",)})}),
    )
    assert recording_key(other, orig) != recording_key(v, orig)
    assert recording_key(dataclasses.replace(v, native=False), orig) != recording_key(v, orig)  # the target's env


def test_apt_is_part_of_the_environment_key() -> None:
    """Debian packages key the venv (an env without them keeps its old key, so no cached venv is remade);
    build steps do not (they change the project, not the venv)."""
    plain = Env(python="3.12", pip=("pytest==8.3.3",))
    _, version = envs.interpreter("3.12")
    assert envs.env_key(plain, version) == content_hash({"python": version, "pip": ["pytest==8.3.3"]})[:20]
    with_apt = plain.model_copy(update={"apt": ("gcc",)})
    assert envs.env_key(with_apt, version) != envs.env_key(plain, version)
    assert envs.env_key(plain.model_copy(update={"build": ("make",)}), version) == envs.env_key(plain, version)


def test_a_failing_build_step_is_a_build_failure_with_its_tail(task: RevivalTask, tmp_path: Path) -> None:
    """A candidate whose build step fails: label build_failure, the step named, and its output's tail."""
    cand = _oracle(task, tmp_path / "c")
    script = cand / "build_ext.py"
    script.write_text(
        "import sys\nsys.stderr.write('warming up\\n' * 500 + 'swr-marker: the linker gave up')\nsys.exit(3)\n"
    )
    v = _grade(task, cand)
    assert not v.passed and v.labels[0] == "build_failure", v.labels
    assert v.detail.endswith("swr-marker: the linker gave up\nbuild step 1 `python build_ext.py` failed (exit code 3)")


@functools.cache
def _steps_spec() -> RevivalSpec:
    return load_revival(CEXT)


def _verifier(steps: tuple[str, ...], tmp: Path) -> Verifier:
    spec = _steps_spec()
    spec = spec.model_copy(update={"target": spec.target.model_copy(update={"build": steps})})
    return Verifier(spec, tmp / "tests", tmp / "probes", envs.ensure(spec.target))


def _project(tmp: Path) -> Path:
    proj = tmp / "project"
    proj.mkdir()
    hand_over(proj)
    return proj


def test_build_steps_run_in_the_sandbox_in_the_venv(backend: Sandbox, tmp_path: Path) -> None:
    """A step runs in the project, writable, with the environment's python first on PATH; the next step sees
    what the last wrote."""
    proj = _project(tmp_path)
    v = _verifier(
        (
            'test "$(command -v python)" = "$VIRTUAL_ENV/bin/python"',
            'python -c \'import sys; open("made.txt", "w").write(sys.version)\'',
            "grep -q 3.13 made.txt",
        ),
        tmp_path,
    )
    assert build_step(v, proj, backend) is None
    assert (proj / "made.txt").read_text().startswith("3.13")


def test_a_build_step_has_no_network(backend: Sandbox, tmp_path: Path) -> None:
    proj = _project(tmp_path)
    step = "python -c \"import socket; socket.create_connection(('1.1.1.1', 80), timeout=10)\""
    v = _verifier(("true", step, "touch after.txt"), tmp_path)
    why = build_step(v, proj, backend)
    assert (
        why is not None
        and "Network is unreachable" in why
        and why.endswith(f"build step 2 `{step}` failed (exit code 1)")
    )
    assert not (proj / "after.txt").exists()  # the steps stop at the first failure


def test_a_build_step_cannot_write_outside_the_project(backend: Sandbox, tmp_path: Path) -> None:
    """The venv, the interpreter and the probes are readable in the sandbox and read-only: a step that writes
    there fails and the host's files are untouched."""
    proj = _project(tmp_path)
    v = _verifier(("true",), tmp_path)
    for target in (v.venv.root / "escaped", v.venv.prefix / "escaped"):
        bad = dataclasses.replace(
            v,
            spec=v.spec.model_copy(update={"target": v.spec.target.model_copy(update={"build": (f"touch {target}",)})}),
        )
        why = build_step(bad, proj, backend)
        assert why is not None and "build step 1" in why and not target.exists(), why


def test_a_missing_apt_package_is_one_line_exit_2(tmp_path: Path) -> None:
    for which in ("native", "target"):
        folder = tmp_path / which
        shutil.copytree(CEXT, folder)
        text = (folder / "revival.toml").read_text()
        head, _, rest = text.partition(f"[{which}]")
        rest = rest.replace('apt = ["gcc", "libc6-dev"]', 'apt = ["gcc", "swr-no-such-package=1.0*"]', 1)
        (folder / "revival.toml").write_text(head + f"[{which}]" + rest)
        res = swr("build", str(folder), "--out", str(tmp_path / f"out-{which}"), cwd=tmp_path)
        assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and str(folder / "revival.toml") in lines[0] and f"`{which}.apt`" in lines[0]
        assert "apt-get install -y swr-no-such-package" in lines[0], lines[0]
        assert not (tmp_path / f"out-{which}" / "tasks" / TASK).exists()


def test_apt_pins_are_checked_against_the_installed_version() -> None:
    gcc = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "gcc"], capture_output=True, text=True).stdout
    assert gcc, "gcc is a Debian package here (make sysdeps)"
    assert envs.missing_apt(Env(python="3.12", apt=("gcc", f"gcc={gcc}", f"gcc={gcc[:3]}*"))) == []
    assert envs.missing_apt(Env(python="3.12", apt=("gcc=0.1*",))) == ["gcc=0.1*"]


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ('apt = ["gcc", "libc6-dev"]', 'apt = ["gcc; rm -rf /"]'),
        ('build = ["python build_ext.py"]', 'build = [" "]'),
        ('build = ["python build_ext.py"]\n\n[verify]', "\n[verify]"),
        ('source = "local"', 'source = "debian:tinyproj"'),
    ],
)
def test_bad_new_fields_are_one_line(tmp_path: Path, edit: str, field: str) -> None:
    folder = tmp_path / "f"
    shutil.copytree(CEXT, folder)
    text = (folder / "revival.toml").read_text()
    assert edit in text
    (folder / "revival.toml").write_text(text.replace(edit, field, 1))
    with pytest.raises(SwrError) as e:
        load_revival(folder)
    assert str(folder / "revival.toml") in str(e.value) and "\n" not in str(e.value)


# ------------------------------------------------------------------ debian: sources


@pytest.fixture
def debian_mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, str]]:
    """A Debian pool served over HTTP on localhost (SWR_DEBIAN_MIRROR): tinyproj 1.0's .orig.tar.xz."""
    pool = tmp_path / "mirror" / "pool" / "main" / "t" / "tinyproj"
    pool.mkdir(parents=True)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as t:
        data = b"print('tiny')\n"
        info = tarfile.TarInfo("tinyproj-1.0/tiny.py")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    (pool / "tinyproj_1.0.orig.tar.xz").write_bytes(buf.getvalue())
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path / "mirror"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("SWR_DEBIAN_MIRROR", f"http://127.0.0.1:{server.server_address[1]}/")
    monkeypatch.setenv("SWR_CACHE", str(tmp_path / "cache"))
    yield tmp_path, hashlib.sha256(buf.getvalue()).hexdigest()
    server.shutdown()


def _debian_spec(directory: Path, source: str, sha256: str | None) -> RevivalSpec:
    return RevivalSpec(
        name="tiny",
        kind="dependency-rot",
        domain="software-formal-systems",
        summary="A Debian-sourced project.",
        source=source,
        sha256=sha256,
        released=dt.date(2019, 1, 1),
        native=Env(python="3.12"),
        target=Env(python="3.12"),
        verify=Verify(hidden=("tiny.py",)),
        directory=directory,
    )


def test_a_debian_source_is_the_upstream_orig_tarball(debian_mirror: tuple[Path, str]) -> None:
    """`debian:SRC=[EPOCH:]UPSTREAM-REVISION` fetches pool/main/<p>/SRC/SRC_UPSTREAM.orig.tar.*, checks its
    sha256, keeps it in the cache and unpacks its top directory; a wrong sha256 is refused in one line."""
    tmp, sha = debian_mirror
    spec = _debian_spec(tmp, "debian:tinyproj=1:1.0-2", sha)
    assert spec.debian == ("tinyproj", "1:1.0-2")
    got = original(spec, tmp / "orig")
    assert (got / "tiny.py").read_text() == "print('tiny')\n"
    assert list((tmp / "cache" / "revival-sdists" / sha).glob("tinyproj_1.0.orig.tar.xz"))
    with pytest.raises(SwrError, match=r"tinyproj_1.0.orig.tar.xz has sha256 .* the spec says 0{64}"):
        original(_debian_spec(tmp, "debian:tinyproj=1.0-1", "0" * 64), tmp / "orig2")
    with pytest.raises(SwrError, match=r"no tinyproj_2.0.orig.tar.\* in .*HTTP 404"):
        original(_debian_spec(tmp, "debian:tinyproj=2.0-1", "1" * 64), tmp / "orig3")
    with pytest.raises(ValueError, match="needs `sha256`"):
        _debian_spec(tmp, "debian:tinyproj=1.0-1", None)


def test_an_sdist_pip_cannot_prepare_comes_from_the_index_json_by_sha256(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pykdtree 1.3.1's setup.py asks for numpy at setup time, so the native pip cannot download it: the file with
    the spec's sha256 is taken from PyPI's JSON API instead (served here on localhost), never another file."""
    from swr.kinds.revival import source

    data = b"an sdist"
    sha = hashlib.sha256(data).hexdigest()
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "tiny-1.0.tar.gz").write_bytes(data)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    (tmp_path / "tiny").mkdir()
    listing = {"filename": "tiny-1.0.tar.gz", "url": f"{base}/files/tiny-1.0.tar.gz", "digests": {"sha256": sha}}
    (tmp_path / "tiny" / "json").write_text(json.dumps({"releases": {"1.0": [listing]}}))
    monkeypatch.setattr(source, "PYPI_JSON", base)
    monkeypatch.setenv("SWR_CACHE", str(tmp_path / "cache"))
    try:
        got = source.pypi_file("tiny", "1.0", sha)
        assert got is not None and got.read_bytes() == data and got.parent.name == sha
        assert source.pypi_file("tiny", "1.0", "0" * 64) is None  # no file of that hash: nothing is taken
        assert source.pypi_file("tiny", "2.0", sha) is None
    finally:
        server.shutdown()


# ------------------------------------------------------------------ the Makefile installs every revival's apt


def test_every_revivals_apt_packages_are_in_the_makefile() -> None:
    listed = set(re.search(r"^REVIVAL_APT := (.*)$", (ROOT / "Makefile").read_text(), re.M).group(1).split())  # type: ignore[union-attr]
    folders = [p.parent for p in (ROOT / "revivals").glob("*/revival.toml")] + [CEXT]
    wanted = {}
    for folder in folders:
        spec = load_revival(folder, check_files=False)
        for env in (spec.native, spec.target):
            for a in env.apt:
                wanted[APT.match(a).group(1)] = folder.name  # type: ignore[union-attr]
    assert wanted, "no revival names a Debian package"
    assert {n: f for n, f in wanted.items() if n not in listed} == {}
    assert load_revival(ROOT / "revivals" / "bitarray-c-api").target.build == ("python setup.py build_ext --inplace",)


# ------------------------------------------------------------------ the C/C++ task: revivals/pykdtree-cython

KD = ROOT / "revivals" / "pykdtree-cython"
KD_TASK = "pykdtree-cython"


@pytest.fixture(scope="module")
def kd_task(tmp_path_factory: pytest.TempPathFactory) -> RevivalTask:
    """Only this task, built with `swr build` (its venvs and native recording come from swr's cache after the
    first time; the gates -- nop and reference builds in the target -- run every time)."""
    t = kinds.load(build_revival_alone(KD_TASK, tmp_path_factory) / "tasks" / KD_TASK)
    assert isinstance(t, RevivalTask)
    return t


@pytest.mark.full
def test_pykdtree_is_recorded_natively_on_the_era_stack(kd_task: RevivalTask) -> None:
    """Python 3.6, numpy 1.14, pytest 3.6 (June 2018): the original builds and its 14 tests and the probe pass."""
    spec = load_revival(KD)
    assert spec.native.python == "3.6" and spec.native.pins()["numpy"] == "1.14.5"
    record = json.loads(kd_task.paths.build_record.read_text())
    recorded = json.loads(kd_task.paths.recorded.read_text())
    assert record["native_tests"] == len(recorded["tests"]) == 14
    probe = recorded["probes"]["probes/query.py"]
    assert probe["line"]["idx"] == [[10, 11], [0, 1], [49, 48]] and probe["errors"] == [None, "ValueError"]
    assert probe["float64_leaf1"]["idx_sum"] == probe["float64_leaf64"]["idx_sum"]  # leaf size changes no answer
    assert record["reference"] == {"pass": True, "score": "15/15", "labels": []}


@pytest.mark.full
def test_pykdtree_workspace_does_not_compile_on_312(kd_task: RevivalTask) -> None:
    """The Cython 0.27.3 wrapper includes longintrepr.h, which Python 3.11 moved out of the public headers."""
    assert "Generated by Cython 0.27.3" in (kd_task.project / "pykdtree" / "kdtree.c").read_text()[:200]
    assert not (kd_task.project / "pykdtree" / "test_tree.py").exists()
    v = _grade(kd_task, kd_task.project)
    assert not v.passed and v.labels[0] == "build_failure" and "longintrepr.h" in v.detail, v.detail[-600:]


@pytest.mark.full
def test_pykdtree_port_builds_and_reproduces_a_half_port_does_not(kd_task: RevivalTask, tmp_path: Path) -> None:
    """The port (kdtree.pyx generated again by the target's Cython) passes every test and the probe; the .pyx
    alone, beside a setup.py that still compiles the stale kdtree.c, fails to build as the workspace does."""
    good = _grade(kd_task, _oracle(kd_task, tmp_path / "good"))
    assert good.passed and good.score == "15/15", (good.labels, good.detail[-600:])
    half = _oracle(kd_task, tmp_path / "half")
    shutil.copyfile(kd_task.project / "setup.py", half / "setup.py")
    v = _grade(kd_task, half)
    assert not v.passed and v.labels[0] == "build_failure" and "longintrepr.h" in v.detail, v.labels
