"""A reconnaissance candidate in the sandbox of a job that forbids real packages and programs (acceptance 2 of
issue 22, items 7 and 10): it walks every readable file, finds every Python it can run and every site directory
and archive, and reports what of the forbidden list it reached. Both backends (`backend` fixture).

The job is the one engine grading makes (`swr.kinds.engine.grading.run_candidate`: `hidden=` the forbidden packages,
`hidden_bins=` the forbidden programs), started through `swr.sandbox.run`. What counts as forbidden comes from
the host, independently of swr.sandbox.hide: each distribution's RECORD (importlib.metadata) and each program's
Debian package (`dpkg-query -L`). The host side is checked first, so a missing package fails the test rather than
making it vacuous. The userns/socket part is its own test: its seccomp rules are another change's."""

from __future__ import annotations

import ctypes
import importlib.util
import json
import os
import shutil
import subprocess
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

from conftest import write_candidate
from hostile_scripts import RECON

import swr
from swr.sandbox import WORKDIR, Job, Limits, Mount, Sandbox, run

PACKAGES = ("scipy", "networkx", "sympy", "gmsh")
PROGRAMS = ("iverilog", "vvp", "gmsh")
IMPORTS = ("scipy", "networkx", "sympy", "gmsh", "isympy")


def _record(dist: str) -> list[str]:
    d = metadata.distribution(dist)
    return [os.path.normpath(d.locate_file(f)) for f in d.files or ()]


def _debian(program: str) -> list[str]:
    owner = subprocess.run(
        ["dpkg-query", "-S", os.path.realpath(shutil.which(program) or program)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split(":")[0]
    listed = subprocess.run(["dpkg-query", "-L", owner], capture_output=True, text=True, check=True).stdout
    docs = ("/usr/share/doc/", "/usr/share/man/")  # no capability: hide.py leaves them
    return [p for p in listed.splitlines() if os.path.isfile(p) and not p.startswith(docs)]


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _shared_library(name: str) -> bool:
    """A native library ctypes could load (not a Python extension module)."""
    return ".so" in name and not name.endswith((".py", ".pyc")) and ".cpython-" not in name and ".abi3." not in name


def _allowed_libraries() -> set[str]:
    """Library files an allowed distribution ships too (numpy.libs' libgfortran is scipy.libs' same file):
    no forbidden capability."""
    forbidden = {_normal(d) for d in PACKAGES}
    return {
        Path(str(f)).name
        for d in metadata.distributions()
        if _normal(d.metadata["Name"] or "") not in forbidden
        for f in d.files or ()
    }


def brief() -> dict[str, Any]:
    """What the candidate looks for; asserts on the host that each of it is really there to find."""
    files = [p for d in PACKAGES for p in _record(d)] + [p for prog in ("iverilog",) for p in _debian(prog)]
    libs = sorted(
        {Path(p).name for d in PACKAGES for p in _record(d) if _shared_library(Path(p).name)} - _allowed_libraries()
    )
    gmsh_lib = next(p for p in _record("gmsh") if Path(p).name.startswith("libgmsh.so"))
    ctypes.CDLL(gmsh_lib)  # the capability under test: on the host, gmsh's OpenCASCADE library loads
    assert any(p.endswith("/ivl/ivl") for p in files), "Icarus's internal compiler is not installed"
    assert Path("/usr/bin/python3").exists()
    return {"names": list(IMPORTS), "libraries": libs, "files": [p for p in files if os.path.isfile(p)]}


def recon(backend: Sandbox, tmp_path: Path) -> tuple[dict[str, Any], Path]:
    """Run the candidate over a task-like lower layer; its report and that layer's host path."""
    cand = write_candidate(tmp_path / "candidate", RECON, shebang="/usr/bin/env python3")
    (cand / "recon.json").write_text(json.dumps(brief()))
    private = tmp_path / "release" / "tasks" / "t-v1" / "files"
    private.mkdir(parents=True)
    (private / "data.txt").write_text("task files\n")
    job = Job(
        ["./run"],
        Mount(cand, WORKDIR, "overlay", (private,)),
        Limits(time_s=600, memory_bytes=4 << 30),
        hidden=PACKAGES,
        hidden_bins=PROGRAMS,
    )
    res = run(backend, job, b"{}\n")
    assert res.ok, (res.returncode, res.limit, res.stderr[-3000:])
    return json.loads(res.stdout), private


def test_no_forbidden_package_library_or_interpreter_is_reachable(backend: Sandbox, tmp_path: Path) -> None:
    """No forbidden module source, RECORD file, native library, zipped copy or Debian file is readable,
    loadable or importable from any Python found in the sandbox (with every site dir and archive on its path)."""
    r, _ = recon(backend, tmp_path)
    assert r["walked"] > 1000, r["walked"]  # it did walk the system
    assert any(p.endswith("python3.11") for p in r["pythons"]), r["pythons"]  # the task's own interpreter
    assert r["imports"] == [], r["imports"]
    assert r["loaded"] == [], r["loaded"]
    assert r["sources"] == [], r["sources"]
    assert r["archives"] == [], r["archives"]
    assert r["readable"] == [], r["readable"][:20]
    assert [p for p in r["pythons"] if not _task_python(p)] == [], r["pythons"]  # no other Python is runnable


def _task_python(path: str) -> bool:
    import sys

    return os.path.realpath(path) == os.path.realpath(sys.executable)


def test_no_new_user_namespace_nor_vsock_nor_packet_socket(backend: Sandbox, tmp_path: Path) -> None:
    """The other half of the acceptance (seccomp: issue 22's userns and socket-family rules)."""
    r, _ = recon(backend, tmp_path)
    assert r["userns"] is False
    assert r["sockets"] == {"AF_VSOCK": False, "AF_PACKET": False}, r["sockets"]


def test_mountinfo_names_no_private_host_path(backend: Sandbox, tmp_path: Path) -> None:
    """What the sandbox's /proc/self/mountinfo may name of the host (issue 22 item 10, part), on both backends:
    not the candidate's directory nor the task's files (here under tmp_path, standing for the release and the
    results store: podman copies them, bubblewrap's overlay names them by their staged paths, layers.py); no
    stub of swr.sandbox.hide from a temporary directory (they are /dev/null or swr's own package, which the
    sandbox sees at its own path); and every mount from under the host's home is one the sandbox sees at
    that same path (a Python root). Nothing from the host's temp dir at all: the copied /etc view, podman's root
    skeleton and its copies of the layers each live on a tmpfs of their own (capped.private_dir), whose mounts
    name paths of that tmpfs. Left: podman's own /run/containers files and cgroup paths, the runtime's."""
    r, _ = recon(backend, tmp_path)
    lines = r["mountinfo"].splitlines()
    assert [line for line in lines if str(tmp_path) in line] == []
    assert "swr-hide" not in r["mountinfo"]
    from swr.sandbox.hide import STUBS

    stubs = STUBS.resolve()
    assert stubs.is_relative_to(Path(swr.__file__).resolve().parent)  # inside swr's package: seen at its own path
    covered = [line.split() for line in lines if "/usr/bin/iverilog " in line or "/site-packages/scipy " in line]
    assert len(covered) == 2 and all(f[3] in ("/null", str(stubs / "pkg")) for f in covered), covered
    home = str(Path.home())
    for f in (line.split() for line in lines):
        if f[3].startswith(home + "/"):
            assert f[3] == f[4], f  # a Python root under the home, at its own path

    temp = tempfile.gettempdir() + "/"  # the /etc view, podman's root skeleton and layer copies: tmpfs of their own
    assert [f[3] for f in map(str.split, lines) if f[3].startswith(temp)] == [], r["mountinfo"]


def test_a_layer_replaced_at_the_same_path_is_seen_anew(backend: Sandbox, tmp_path: Path) -> None:
    """bubblewrap's staged layers (layers.py) are bound once per path: a directory removed and made again
    there (a candidate graded, deleted, written anew) must be what the next run sees, not an empty or old one."""
    import shutil

    cand = tmp_path / "cand"
    for word in ("first", "second"):
        if cand.exists():
            shutil.rmtree(cand)
        write_candidate(cand, "import sys\nsys.stdout.write(open('word.txt').read())\n", shebang="/usr/bin/env python3")
        (cand / "word.txt").write_text(word)
        res = run(backend, Job(["./run"], Mount(cand, WORKDIR, "overlay"), Limits(time_s=60)), b"")
        assert res.ok and res.stdout == word.encode(), (word, res.stdout, res.stderr[-500:])


VENDORED = """
import importlib, json, sys
out = {}
for name in ("pip._vendor.rich", "pip._vendor.requests", "rich", "json"):
    try:
        importlib.import_module(name)
        out[name] = "imported"
    except ImportError as e:
        out[name] = type(e).__name__
json.dump(out, sys.stdout)
"""


def test_a_vendored_copy_of_a_forbidden_package_is_absent_too(backend: Sandbox, tmp_path: Path) -> None:
    """pip vendors rich and requests: forbidding them covers `pip._vendor.rich` as well as `rich`."""
    host = {n: importlib.util.find_spec(n) is not None for n in ("pip._vendor.rich", "pip._vendor.requests", "rich")}
    assert all(host.values()), host  # on the host, every copy is there to find
    cand = write_candidate(tmp_path / "cand", VENDORED, shebang="/usr/bin/env python3")
    res = run(
        backend, Job(["./run"], Mount(cand, WORKDIR, "overlay"), Limits(time_s=60), hidden=("rich", "requests")), b""
    )
    assert res.ok, res.stderr[-2000:]
    out = json.loads(res.stdout)
    assert out["json"] == "imported" and all(out[n] != "imported" for n in host), out
