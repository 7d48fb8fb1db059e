"""Podman only: what has no bubblewrap counterpart. Every hostile candidate runs on podman too, in
tests/test_sandbox_hostile.py (parametrized over backends).

No mocks and no skips: the CI installs podman (`make sysdeps`: apt-get install podman runc); where
podman is missing or cannot start a container, every test here fails saying so.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import INSTALL, assert_nothing_left, sandbox_named
from hostile_scripts import ESCAPES_EXPECTED, assert_x32_killed, escapes_py

from swr.sandbox import WORKDIR, Job, Limits, Mount, Sandbox, get_sandbox, run, seccomp


@pytest.fixture
def podman() -> Iterator[Sandbox]:
    """The podman backend; afterwards its runs left no container or per-run cgroup behind."""
    sb = sandbox_named("podman")
    yield sb
    assert_nothing_left(sb)


def test_podman_command_line_carries_the_design_flags(podman, tmp_path):
    argv = podman.argv(Job([sys.executable, "-c", "pass"], Mount(tmp_path, WORKDIR, "overlay")))
    line = " ".join(argv)
    for flag in (
        "--network none",
        "--read-only",
        "--pids-limit 256",
        "--memory",
        "--cap-drop ALL",
        "--security-opt no-new-privileges",
        "--user 65534",
        "--rm",
        "--ulimit nofile=1024:1024",
    ):
        assert flag in line, flag
    assert "65534:0:" not in line, line  # the sandbox user (65534) is never mapped to host root
    vols = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-v", "--volume")]
    (work,) = [v for v in vols if v.split(":")[1] == WORKDIR]
    src, opts = work.split(":")[0], work.split(":")[2:]
    # the candidate's own directory is never bound writable: a copy-on-write volume, or a private copy
    assert opts == ["O"] or (not Path(src).is_relative_to(tmp_path) and opts == []), work
    assert not [v for v in vols if v.startswith(f"{tmp_path}:") and v.split(":")[2:] not in (["O"], ["ro"])], vols


def test_podman_overhead_against_bwrap(podman, tmp_path):
    """Per-run cost of a trivial job (informational bound: podman stays under 5 s a run here)."""
    job = Job([sys.executable, "-c", "pass"], Mount(tmp_path, WORKDIR, "overlay"), Limits(time_s=30))
    times = {}
    for name, sb in (("podman", podman), ("bwrap", get_sandbox("bwrap"))):
        run(sb, job, b"")  # warm
        t0 = time.monotonic()
        for _ in range(3):
            assert run(sb, job, b"").ok
        times[name] = (time.monotonic() - t0) / 3
    print(f"per-run wall: podman {times['podman']:.3f} s, bwrap {times['bwrap']:.3f} s")
    assert times["podman"] < 5


def test_podman_is_installed_where_ci_expects_it():
    """Fails (not skips) with the install line when podman is missing."""
    res = subprocess.run(["podman", "--version"], capture_output=True, text=True, check=False)
    assert res.returncode == 0, f"podman missing: CI must run `{INSTALL['podman']}`"


PERMISSIVE = json.dumps({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": []}).encode()
USERNS = (
    "import ctypes, errno; libc = ctypes.CDLL(None, use_errno=True); "
    "print('made' if libc.unshare(0x10000000) == 0 else errno.errorcode[ctypes.get_errno()])"
)


def _seccomp_opt(argv: list[str]) -> str:
    (opt,) = [b for a, b in zip(argv, argv[1:]) if a == "--security-opt" and b.startswith("seccomp=")]
    return opt.removeprefix("seccomp=")


def test_a_planted_profile_does_not_turn_the_filter_off(podman, tmp_path):
    """Issue 22: the profile was written to $TMPDIR/swr-seccomp-<hash of its content>.json, a name anyone
    can compute, and used as found. A local user who plants a permissive profile at every such name
    first must not get a run without the filter; the profile podman reads is a sealed memfd of this
    process, which no one else can name, open or change."""
    tmp = Path(tempfile.gettempdir())
    base = json.loads(seccomp.CONTAINERS_PROFILE.read_text())
    digest = hashlib.sha256(json.dumps(seccomp.oci_profile(base), sort_keys=True).encode()).hexdigest()
    guesses = {tmp / f"swr-seccomp-{digest[:16]}.json", *tmp.glob("swr-seccomp-*.json")}
    saved = {p: p.read_bytes() for p in guesses if p.is_file()}
    try:
        for p in guesses:
            p.write_bytes(PERMISSIVE)
            p.chmod(0o644)
        job = Job([sys.executable, "-c", USERNS], Mount(tmp_path, WORKDIR, "overlay"))
        res = run(podman, job, b"")
        assert res.ok and res.stdout.strip() == b"EPERM", (res.stdout, res.stderr[-500:])
    finally:  # at once: processes of an older swr read these
        for p in guesses:
            if p in saved:
                p.write_bytes(saved[p])
            else:
                p.unlink(missing_ok=True)
    path = _seccomp_opt(podman.argv(dataclasses.replace(job, workdir=Mount(tmp_path, WORKDIR, "ro"))))
    assert path.startswith(f"/proc/{os.getpid()}/fd/"), path
    assert Path(path).read_bytes() == seccomp.oci_profile_bytes()
    assert os.readlink(path).startswith("/memfd:swr-seccomp-oci ")
    fd = os.open(path, os.O_WRONLY)
    try:
        with pytest.raises(PermissionError):  # sealed: not even this process can change it
            os.write(fd, PERMISSIVE)
    finally:
        os.close(fd)


def test_the_profile_descriptor_is_checked_before_each_use(podman, tmp_path):
    """Code that closes descriptors it does not own must not leave podman reading whatever file took the
    profile's number: it is checked (a memfd of that name, sealed, this process's, its hash) before use."""
    path = seccomp.oci_profile_path()
    fd = int(path.rsplit("/", 1)[1])
    (tmp_path / "decoy.json").write_bytes(PERMISSIVE)
    opened = os.open(tmp_path / "decoy.json", os.O_RDONLY)
    decoy = os.dup2(opened, fd)  # the profile's descriptor closed, its number now another file's
    os.close(opened)
    try:
        assert Path(path).read_bytes() == PERMISSIVE
        again = _seccomp_opt(podman.argv(Job([sys.executable, "-c", "pass"], Mount(tmp_path, WORKDIR, "ro"))))
        assert again != path and Path(again).read_bytes() == seccomp.oci_profile_bytes()
        res = run(podman, Job([sys.executable, "-c", USERNS], Mount(tmp_path, WORKDIR, "overlay")), b"")
        assert res.ok and res.stdout.strip() == b"EPERM", (res.stdout, res.stderr[-500:])
    finally:
        os.close(decoy)


def test_without_the_containers_profile_the_same_calls_are_refused(podman, tmp_path, monkeypatch):
    """Where /usr/share/containers/seccomp.json is absent (a docker host), the profile allows by default
    and refuses by rule: every escape of ESCAPES still gets the errno it gets under bubblewrap."""
    monkeypatch.setattr(seccomp, "CONTAINERS_PROFILE", tmp_path / "absent.json")
    seccomp.oci_profile_bytes.cache_clear()
    try:
        assert json.loads(seccomp.oci_profile_bytes())["defaultAction"] == "SCMP_ACT_ALLOW"
        script = escapes_py() + "print(json.dumps(REPORT))\n"
        res = run(podman, Job([sys.executable, "-c", script], Mount(tmp_path, WORKDIR, "overlay")), b'{"a": 1, "b": 2}')
        assert res.ok, res.stderr[-2000:]
        rep = json.loads(res.stdout)
        rep.pop("i386_vsock")
        assert_x32_killed(rep.pop("x32_vsock"))
        assert rep == ESCAPES_EXPECTED, rep
    finally:
        monkeypatch.undo()
        seccomp.oci_profile_bytes.cache_clear()
