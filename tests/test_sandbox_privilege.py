"""The sandbox user is never host root, on every backend (issue: a candidate wrote host sysctls as root).

bwrap started by root with `--unshare-user --uid 65534` mapped the candidate to host uid 0, so DAC
checks passed against root: /proc/sys was writable, root-only /proc files were readable, and the root
user's keyring was shared by every run. Each test runs a real candidate through `swr.kinds.workflow.grading.execute`
(the code path of `swr grade`) and checks the host side, since a nested user namespace may still show
uid 0 inside. The same checks inside a `swr run -a command` agent are at the end.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest
from conftest import write_candidate

from swr.harness.agents import Budget
from swr.harness.run import JobConfig, run_job
from swr.kinds.taskfile import Anticheat
from swr.kinds.workflow.grading import execute
from swr.sandbox import WORKDIR, Job, Limits, Mount, Sandbox, run
from swr.sandbox.base import SANDBOX_UID

SYSCTLS = (
    "/proc/sys/kernel/core_pattern",
    "/proc/sys/vm/overcommit_memory",
    "/proc/sys/vm/drop_caches",
    "/proc/sys/kernel/hostname",
)
ROOT_ONLY = ("/proc/slabinfo", "/proc/kpageflags", "/proc/timer_list", "/proc/vmallocinfo", "/proc/kallsyms")

PROBE = """
import ctypes, errno, json, os, sys
out = {"write": {}, "read": {}, "syscalls": {}}
for p in %(sysctls)r:
    try:
        os.close(os.open(p, os.O_WRONLY))
        out["write"][p] = "opened"
    except OSError as e:
        out["write"][p] = errno.errorcode.get(e.errno, str(e.errno))
for p in %(root_only)r:
    try:
        with open(p, "rb") as f:
            data = f.read(4096)
        # kallsyms is world-readable but shows no addresses to an unprivileged reader
        masked = not data or (p.endswith("kallsyms") and data.startswith(b"0000000000000000"))
        out["read"][p] = "masked" if masked else "read"  # podman binds /dev/null over some
    except OSError as e:
        out["read"][p] = errno.errorcode.get(e.errno, str(e.errno))
libc = ctypes.CDLL(None, use_errno=True)
for name, nr in (("keyctl", 250), ("add_key", 248), ("io_uring_setup", 425), ("bpf", 321),
                 ("perf_event_open", 298), ("kexec_load", 246), ("ptrace", 101), ("unshare", 272)):
    ctypes.set_errno(0)
    rc = libc.syscall(nr, 0, 0, 0, 0, 0)
    out["syscalls"][name] = "ok" if rc >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")
with open(os.path.join(os.environ["SWR_ARTIFACTS"], "mine.txt"), "w") as f:
    f.write("x")
with open("made-in-workdir.txt", "w") as f:
    f.write("x")
json.dump(out, sys.stdout)
"""

KEYS = """
import ctypes, errno, json, platform, sys
libc = ctypes.CDLL(None, use_errno=True)
ADD_KEY, REQUEST_KEY = {"x86_64": (248, 249), "aarch64": (217, 218)}[platform.machine()]
KEY_SPEC_USER_KEYRING = -4
"""
KEY_WRITER = (
    KEYS
    + """
rc = libc.syscall(ADD_KEY, b"user", b"swr-leak", b"hidden-inputs", 13, KEY_SPEC_USER_KEYRING)
json.dump({"add_key": rc if rc >= 0 else errno.errorcode.get(ctypes.get_errno())}, sys.stdout)
"""
)
KEY_READER = (
    KEYS
    + """
rc = libc.syscall(REQUEST_KEY, b"user", b"swr-leak", None, KEY_SPEC_USER_KEYRING)
json.dump({"found": rc >= 0, "errno": errno.errorcode.get(ctypes.get_errno())}, sys.stdout)
"""
)


def probe(task, sandbox: Sandbox, tmp_path: Path, script: str, name: str) -> tuple[dict, Path]:
    cand = write_candidate(tmp_path / name, script, shebang=sys.executable)
    ex = execute(task, cand, task.hidden[0].scenario, sandbox, tmp_path / f"files-{name}")
    assert ex.returncode == 0 and ex.limit is None, (ex.returncode, ex.limit, ex.stderr[-800:])
    return json.loads(ex.stdout), tmp_path / f"files-{name}"


def test_candidate_cannot_reach_host_kernel_settings(linear_task, backend, tmp_path):
    """/proc/sys stays shut, root-only /proc files stay unreadable, the interfaces that are not
    namespaced are refused; its artifacts still come out."""
    out, files = probe(linear_task, backend, tmp_path, PROBE % {"sysctls": SYSCTLS, "root_only": ROOT_ONLY}, "p")
    assert (files / "mine.txt").read_text() == "x"
    for path, result in out["write"].items():
        assert result in ("EACCES", "EROFS", "EPERM", "ENOENT"), (path, result)
    for path, result in out["read"].items():
        assert result in ("EACCES", "EPERM", "ENOENT", "masked"), (path, result)
    for name, result in out["syscalls"].items():
        assert result in ("EPERM", "ENOSYS", "EACCES"), (name, result)
    assert not (tmp_path / "p" / "made-in-workdir.txt").exists()  # its own directory is a copy


def test_one_run_cannot_leave_a_key_for_the_next(linear_task, backend, tmp_path):
    """The user keyring is per host uid, not per namespace: one grade's hidden inputs stored there were
    readable by a later grade. Now no run can add a key, and none finds another's."""
    wrote, _ = probe(linear_task, backend, tmp_path, KEY_WRITER, "writer")
    assert wrote["add_key"] in ("EPERM", "ENOSYS", "EACCES"), wrote
    read, _ = probe(linear_task, backend, tmp_path, KEY_READER, "reader")
    assert read["found"] is False, read


AGENT = """set -e
python3 - <<'EOF'
import errno, json, os
res = {}
for p in %(sysctls)r:
    try:
        os.close(os.open(p, os.O_WRONLY))
        res[p] = "opened"
    except OSError as e:
        res[p] = errno.errorcode.get(e.errno, str(e.errno))
os.makedirs("solution", exist_ok=True)
with open("solution/probe.json", "w") as f:
    json.dump(res, f)
EOF
"""


def test_command_agent_cannot_write_host_sysctls(linear_release, tmp_path):
    """The same inside `swr run -a command` (its files' host owner: the read-write mount test below)."""
    cfg = JobConfig(
        release=linear_release,
        agent="command",
        job="priv",
        jobs_dir=tmp_path / "jobs",
        include=("good-linear-v1",),
        budget=Budget(time_limit_s=120),
        agent_options={"command": AGENT % {"sysctls": SYSCTLS}, "network": False},
    )
    (rec,) = run_job(cfg)
    assert rec.status == "done", rec.error
    kept = next((tmp_path / "jobs" / "priv" / "runs").glob("*/solution/probe.json"))
    for path, result in json.loads(kept.read_text()).items():
        assert result in ("EACCES", "EROFS", "EPERM"), (path, result)


def test_file_made_in_a_writable_mount_belongs_to_an_unprivileged_uid(backend, tmp_path):
    """Checked on the host: a nested user namespace may still show uid 0 inside after a correct fix."""
    work = tmp_path / "rw"
    work.mkdir()
    job = Job([sys.executable, "-c", "open('made.txt', 'w').write('x')"], Mount(work, WORKDIR, "rw"), Limits(time_s=30))
    res = run(backend, job, b"")
    assert res.ok, res.stderr[-800:]
    assert (work / "made.txt").lstat().st_uid == SANDBOX_UID


FALLOCATE = """
import json, os, sys
done = 0
for i in range(12):
    fd = os.open(os.path.join(os.environ["SWR_ARTIFACTS"], "f%d" % i), os.O_CREAT | os.O_WRONLY, 0o644)
    try:
        os.posix_fallocate(fd, 0, __EACH__)
        done += 1
        sys.stderr.write("allocated\\n")
        sys.stderr.flush()
    except OSError:
        pass
    finally:
        os.close(fd)
json.dump({"allocated": done}, sys.stdout)
"""


def test_fallocate_cannot_outrun_the_disk_cap(linear_task, backend, tmp_path):
    """Each file within the per-file cap, a dozen of them at once: the kernel stops the second, where a
    poll every 0.2 s let 11 GiB through. The breaching run's files are gone at once."""
    cap = 8 << 20
    task = dataclasses.replace(linear_task, limits=dataclasses.replace(linear_task.limits, disk_bytes=cap))
    cand = write_candidate(tmp_path / "falloc", FALLOCATE.replace("__EACH__", str(cap)), shebang=sys.executable)
    ex = execute(task, cand, task.hidden[0].scenario, backend, tmp_path / "files")
    assert ex.stderr.count(b"allocated") <= 1, (ex.stdout, ex.limit, ex.stderr[-500:])  # (the poll may kill it)
    assert ex.limit == "disk" and not any((tmp_path / "files").iterdir())


SNEAKY_IMPORT = """
import importlib, json, sys
try:
    mod = importlib.import_module("num" + "py")  # no regex over the source sees this
    json.dump({"imported": mod.__name__}, sys.stdout)
except ImportError as e:
    json.dump({"imported": None, "error": str(e)}, sys.stdout)
"""


@pytest.mark.parametrize("forbidden", [(), ("numpy",)])
def test_forbidden_package_cannot_be_imported(linear_task, backend, tmp_path, forbidden):
    """A task that forbids numpy: it is not importable in the candidate's sandbox, however it is named."""
    task = dataclasses.replace(
        linear_task,
        meta=linear_task.meta.model_copy(update={"anticheat": Anticheat(forbidden_packages=tuple(forbidden))}),
    )
    out, _ = probe(task, backend, tmp_path, SNEAKY_IMPORT, "sneaky")
    assert out["imported"] == (None if forbidden else "numpy"), out
