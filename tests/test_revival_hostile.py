"""Hostile revival candidates, graded for real on both sandbox backends: nothing the candidate controls is a
destination on the host, its build writes into a kernel-capped directory, and the target venv is read-only to
every run. The tasks are made here (a local spec, a venv with no pins made from a pyenv interpreter, no PyPI),
so that each attack is the whole candidate and its effect on the host is measured directly."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import tempfile
import threading
from pathlib import Path

import pytest

from swr.kinds.revival import envs
from swr.kinds.revival.anticheat import inspect
from swr.kinds.revival.grading import BUILD_LIMITS, Verifier, grade_revival
from swr.kinds.revival.spec import Env, RevivalSpec, Verify
from swr.sandbox import Sandbox
from swr.sandbox.capped import BLOCK, SLACK, hand_over

PROBE = "probes/look.py"


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> envs.Venv:
    """A target venv made as envs.ensure makes one (no pins), then handed to the sandbox user: only its
    read-only mount, not its ownership, stands between a run and its files."""
    prefix, version = envs.interpreter("3.12")
    root = tmp_path_factory.mktemp("venv") / "v"
    envs._build(prefix, root, ())
    hand_over(root)
    return envs.Venv(root, prefix, version)


def verifier(
    tmp: Path, venv: envs.Venv, kind: str, hidden: str, probe: str | None = None, recorded: dict | None = None
) -> Verifier:
    """A local task's verifier: one hidden test file (its original under tmp/tests) and at most one probe."""
    tests, probes = tmp / "tests", tmp / "probes"
    (tests / hidden).parent.mkdir(parents=True)
    (tests / hidden).write_text("def test_hidden():\n    assert True\n")
    probes.mkdir()
    if probe:
        (probes / "look.py").write_text(probe)
    steps = ("python setup.py build_ext --inplace",) if kind == "build" else ()  # a build task's build (setup.py)
    spec = RevivalSpec(
        name="hostile",
        kind=kind,
        domain="software-formal-systems",
        summary="A hostile candidate.",
        source="local",
        released=dt.date(2020, 1, 1),
        native=Env(python="3.12", build=steps),
        target=Env(python="3.12", build=steps),
        verify=Verify(hidden=(hidden,), probes=(PROBE,) if probe else (), timeout_s=120),
        directory=tmp,
    )
    return Verifier(spec, tests, probes, venv, recorded or {})


def listing(root: Path) -> dict[str, tuple[int, int, int, str]]:
    """Every entry under root (not following links) with its mode, owner, size and content hash."""
    out = {}
    for d, dirs, files in os.walk(root):
        for name in dirs + files:
            p = Path(d) / name
            st = p.lstat()
            data = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_symlink() else ""
            out[str(p.relative_to(root))] = (st.st_mode, st.st_uid, st.st_size, data)
    return out


# ------------------------------------------------------------------ links in the candidate

LOOK = """import json, os
path = {hidden!r}
links = [p for p in (path, os.path.dirname(path)) if os.path.islink(p)]
print(json.dumps({{"text": open(path).read(), "links": links}}))
"""


@pytest.mark.parametrize(
    "hidden, link",
    [
        ("tests/test_hidden.py", "tests"),  # the tests' directory is a link to a host directory
        ("pkg/sub/tests/test_hidden.py", "pkg/sub"),  # a deeper ancestor of the hidden test is
        ("tests/test_hidden.py", "tests/test_hidden.py"),  # the test file itself is a link to a host file
    ],
)
def test_a_link_in_the_candidate_does_not_carry_the_hidden_tests_onto_the_host(
    backend: Sandbox, venv: envs.Venv, tmp_path: Path, hidden: str, link: str
) -> None:
    """The candidate's `tests` (or an ancestor of a hidden test, or the file) links to a host directory that
    stands for the task's shared venv: grading lays the original tests into its own scratch copy, never
    through the link, so the host directory is untouched; the probe sees the original test, in a real
    directory."""
    host = tmp_path / "host"
    host.mkdir()
    (host / "test_hidden.py").write_text("planted = 1\n")
    before = listing(host)
    want = {"text": "def test_hidden():\n    assert True\n", "links": []}
    v = verifier(
        tmp_path / "task",
        venv,
        "dependency-rot",
        hidden,
        LOOK.format(hidden=hidden),
        {"tests": [], "probes": {PROBE: want}},
    )
    cand = tmp_path / "cand"
    (cand / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(host / "test_hidden.py" if link.endswith(".py") else host, cand / link)
    (cand / "README").write_text("a candidate\n")
    verdict = grade_revival(v, "hostile", cand, backend)
    assert listing(host) == before, "grading wrote into a host directory the candidate linked to"
    assert os.path.islink(cand / link)  # the candidate itself is left as it was
    (probe,) = [r for r in verdict.records if r.check == "probe"]
    assert probe.passed, probe.detail


def test_a_candidate_that_is_a_link_is_missing(backend: Sandbox, venv: envs.Venv, tmp_path: Path) -> None:
    """A candidate directory that is itself a link is not followed into: nothing to grade."""
    v = verifier(tmp_path / "task", venv, "dependency-rot", "tests/test_hidden.py")
    real = tmp_path / "real"
    real.mkdir()
    (real / "README").write_text("x\n")
    os.symlink(real, tmp_path / "cand")
    verdict = grade_revival(v, "hostile", tmp_path / "cand", backend)
    assert verdict.labels == ["missing_candidate"] and "not a directory" in verdict.detail, verdict


def pin_back(fifo: Path) -> None:
    """A pin-back written into a FIFO as soon as someone opens it for reading (lost if they closed it
    unread: tree.read_at opens without blocking, sees a FIFO and closes it)."""
    fd = os.open(fifo, os.O_WRONLY)
    try:
        os.write(fd, b"numpy<1\n")
    except BrokenPipeError:
        pass
    finally:
        os.close(fd)


def test_anticheat_reads_no_file_through_a_link_and_no_fifo(tmp_path: Path) -> None:
    """Anti-cheat reads the candidate on the host: a requirements directory linked to a host directory is
    not listed, a FIFO is never read nor waited on (a blocking reader would hang grading until someone
    writes: here a thread that writes a pin-back once it is opened), a public test behind a linked directory
    is missing, not the host file's hash."""
    host = tmp_path / "host"
    host.mkdir()
    (host / "pins.txt").write_text("numpy<1\n")
    (host / "test_pub.py").write_text("x = 1\n")
    cand = tmp_path / "cand"
    cand.mkdir()
    os.symlink(host, cand / "requirements")
    os.symlink(host, cand / "tests")
    fifo = cand / "requirements-dev.txt"
    os.mkfifo(fifo)
    writer = threading.Thread(target=pin_back, args=(fifo,), daemon=True)
    writer.start()  # blocks until the FIFO is opened for reading
    want = hashlib.sha256(b"x = 1\n").hexdigest()
    try:
        found = inspect(cand, {"tests/test_pub.py": want}, {"numpy": "2.0.0"})
    finally:
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # releases the writer if nobody opened it
        writer.join()
        os.close(fd)
    assert found == [{"kind": "tests_modified", "file": "tests/test_pub.py", "detail": "missing"}], found


# ------------------------------------------------------------------ the build's disk

FILL = """import os, sys
st = os.statvfs(".")
print("CAPACITY", st.f_blocks * st.f_frsize, st.f_files, file=sys.stderr, flush=True)
if {what!r} == "bytes":  # 2 GiB, in files each below the per-file limit
    for i in range(8):
        fd = os.open("big%d" % i, os.O_WRONLY | os.O_CREAT, 0o644)
        os.posix_fallocate(fd, 0, 256 << 20)
        os.close(fd)
else:  # a million files
    for i in range(10 ** 6):
        if i % 1000 == 0:
            os.mkdir("d%d" % (i // 1000))
        open("d%d/%d" % (i // 1000, i), "w").close()
"""


class HostDisk:
    """The peak growth of the host file system holding the temporary directories (where a build's scratch
    directory lives when it is not capped), sampled while a block runs."""

    def __init__(self) -> None:
        self.path = tempfile.gettempdir()
        self.base = self.used()
        self.peak = (0, 0)
        self.stop = threading.Event()

    def used(self) -> tuple[int, int]:
        st = os.statvfs(self.path)
        return (st.f_blocks - st.f_bfree) * st.f_frsize, st.f_files - st.f_ffree

    def sample(self) -> None:
        while not self.stop.wait(0.005):
            now = self.used()
            self.peak = tuple(max(p, n - b) for p, n, b in zip(self.peak, now, self.base))  # type: ignore[assignment]

    def __enter__(self) -> HostDisk:
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


@pytest.mark.parametrize("what", ["bytes", "files"])
def test_a_build_that_floods_its_directory_stops_at_the_kernels_cap(
    backend: Sandbox, venv: envs.Venv, tmp_path: Path, what: str
) -> None:
    """A setup.py that writes 2 GiB (fallocate) or makes a million files: its directory is a tmpfs capped at
    the build's disk limit, in bytes and in files, so the writes fail there (ENOSPC) and the build fails as
    build_failure, saying the directory is full, by itself (no timeout); the host's disk never grew by the
    cap, in bytes or in inodes."""
    v = verifier(tmp_path / "task", venv, "build", "tests/test_hidden.py")
    cand = tmp_path / "cand"
    cand.mkdir()
    (cand / "setup.py").write_text(FILL.format(what=what))
    with HostDisk() as disk:
        verdict = grade_revival(v, "hostile", cand, backend)
    cap, detail = BUILD_LIMITS.disk_bytes, verdict.detail
    assert verdict.labels[0] == "build_failure", verdict.labels
    # (a quarter of the cap in files: the noise of other processes on this host stays far below it)
    assert disk.peak[0] < cap and disk.peak[1] < cap // BLOCK // 4, f"the host's disk grew by {disk.peak}"
    size, files = map(int, re.search(r"CAPACITY (\d+) (\d+)", detail).groups())  # type: ignore[union-attr]
    assert size <= cap + SLACK and files <= cap // BLOCK + 256, (size, files)
    assert "the build directory is full" in detail and "timeout" not in detail, detail[-800:]


# ------------------------------------------------------------------ the target venv

WRITE_VENV = """import json, os, sys
venv = {venv!r}
site = [os.path.join(d, "site-packages") for d in os.listdir(os.path.join(venv, "lib"))][0]
tries = {{
    "new file": lambda: open(os.path.join(venv, "lib", site, "planted.py"), "w").write("x = 1\\n"),
    "overwrite": lambda: open(os.path.join(venv, "pyvenv.cfg"), "a").write("planted = 1\\n"),
    "mkdir": lambda: os.mkdir(os.path.join(venv, "planted")),
    "chmod": lambda: os.chmod(os.path.join(venv, "pyvenv.cfg"), 0o777),
    "unlink": lambda: os.unlink(os.path.join(venv, "pyvenv.cfg")),
    "rename": lambda: os.rename(os.path.join(venv, "bin"), os.path.join(venv, "bin2")),
}}
wrote = []
for name, act in tries.items():
    try:
        act()
        wrote.append(name)
    except OSError:
        pass
"""


def test_the_target_venv_is_read_only_to_the_build_and_every_run(
    backend: Sandbox, venv: envs.Venv, tmp_path: Path
) -> None:
    """A build task's setup.py and its probe each try to add, change, re-mode, remove and rename files of the
    target venv (owned by the sandbox user here, so only the read-only mount refuses): every try fails, the
    build and the probe say so, and the venv is byte for byte as it was."""
    before = listing(venv.root)
    code = WRITE_VENV.format(venv=str(venv.root))
    probe = code + "print(json.dumps({'wrote': wrote}))\n"
    v = verifier(
        tmp_path / "task", venv, "build", "tests/test_hidden.py", probe, {"tests": [], "probes": {PROBE: {"wrote": []}}}
    )
    cand = tmp_path / "cand"
    cand.mkdir()
    (cand / "setup.py").write_text(code + "sys.exit('wrote into the venv: %s' % wrote if wrote else 0)\n")
    verdict = grade_revival(v, "hostile", cand, backend)
    assert "build_failure" not in verdict.labels, verdict.detail[-800:]
    (rec,) = [r for r in verdict.records if r.check == "probe"]
    assert rec.passed, rec.detail
    assert listing(venv.root) == before
