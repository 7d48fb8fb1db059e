"""The ground floor's tree copy and tree hash (issue 24): one ignore list, one walk. The pinned hashes are the
values the code computed before the hashers were unified: every hash swr writes (release.json's
`workflow_hash` and tree hash, task fingerprints kept in job stores, the Harbor wheel cache key) must keep
its value."""

from __future__ import annotations

import hashlib
from pathlib import Path

import swr
from swr.core.hashing import hash_files, tree_hash
from swr.core.trees import BUILD_OUTPUTS, JUNK, KEEP_ALL, copy_tree
from swr.harness.fingerprint import public_hash
from swr.kinds.workflow.spec import hash_tree


def make_tree(root: Path) -> Path:
    """A small tree with every kind of entry the ignore sets treat differently."""
    files = {
        "task.toml": 'id = "t"\nkind = "workflow"\nworkflow_hash = "abc"\n',
        "instruction.md": "Do it.\n",
        "workflow.toml": "name = 'w'\n",
        "run.py": "print(1)\n",
        "mod.pyc": b"\x00bytecode",
        "__pycache__/run.cpython-311.pyc": b"\x01",
        ".git/HEAD": "ref: x\n",
        ".pytest_cache/v": "1",
        ".mypy_cache/m": "2",
        "sub/data.csv": "a,b\n1,2\n",
        "sub/deeper/z.txt": "z",
        "public/schema.json": "{}",
        "public/files/in.txt": "input",
        "private/secret.txt": "s",
    }
    for rel, body in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(body if isinstance(body, bytes) else body.encode())
    return root


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_workflow_hash_keeps_its_value(tmp_path: Path) -> None:
    """release.json's `workflow_hash` (computed by spec.hash_tree before it was routed through core)."""
    assert hash_tree(make_tree(tmp_path)) == "b9d0d6a1d984ad4b7f1aa47b1b421b9dae16d4138bb6ef1e40cb66090cf950b8"


def test_tree_hash_and_hash_files_keep_their_values(tmp_path: Path) -> None:
    """The release tree hash, and hash_files with a base other than the top (the Harbor wheel key's form)."""
    root = make_tree(tmp_path)
    assert tree_hash(root) == "edb56b77c0e9b57f755f002fdced3b81a4b030c516aac03f8da07d2166b25df3"
    h = hashlib.sha256(b"x")
    hash_files(h, root / "sub", root)
    assert h.hexdigest() == "dcae9d19d01c350943b67f3b6430030741244e20cb24858b6bf9d1e840d51c5d"


def test_public_fingerprint_keeps_its_value(tmp_path: Path) -> None:
    """The fingerprint job stores keep (`swr regrade` matches runs by it)."""
    assert public_hash(make_tree(tmp_path)) == "7c97c681b5ff76da56b9b55d59d586b8dd8ec235a3b08a56813ebd4fb4777cff"


def test_workflow_hash_covers_what_a_copy_keeps(tmp_path: Path) -> None:
    """One ignore list for both: the hash of a workflow equals the hash of its JUNK-less copy, and what the
    copy drops is exactly JUNK."""
    src = make_tree(tmp_path / "src")
    (src / "pkg.egg-info").mkdir()
    (src / "pkg.egg-info" / "PKG-INFO").write_text("x")
    dst = copy_tree(src, tmp_path / "dst")
    assert _files(src) - _files(dst) == {
        "mod.pyc",
        "__pycache__/run.cpython-311.pyc",
        ".git/HEAD",
        ".pytest_cache/v",
        ".mypy_cache/m",
        "pkg.egg-info/PKG-INFO",
    }
    assert hash_tree(src) == hash_tree(dst) == tree_hash(dst)


def test_copy_tree_named_sets(tmp_path: Path) -> None:
    src = make_tree(tmp_path / "src")
    (src / "build").mkdir()
    (src / "build" / "lib.py").write_text("")
    (src / "link").symlink_to("run.py")
    exact = copy_tree(src, tmp_path / "exact", ignore=KEEP_ALL, symlinks=True)
    assert _files(exact) == _files(src) and (exact / "link").is_symlink()
    outs = copy_tree(src, tmp_path / "outs", ignore=JUNK | BUILD_OUTPUTS)
    assert "build/lib.py" not in _files(outs) and "run.py" in _files(outs) and not (outs / "link").is_symlink()
    copy_tree(src / "sub", exact / "sub", merge=True)  # merge into an existing tree
    assert (exact / "sub" / "data.csv").is_file()


SRC = Path(swr.__file__).resolve().parent  # the swr under test


def _modules_naming(*needles: str) -> set[str]:
    return {p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py") if any(n in p.read_text() for n in needles)}


def test_one_cgroup_module() -> None:
    """Every cgroup operation (cgroupfs paths, joins, limits, counters) lives in swr.sandbox.cgroups."""
    assert _modules_naming(
        "/sys/fs/cgroup", "cgroup.procs", "pids.max", "memory.max", "memory.limit_in_bytes", "subtree_control"
    ) == {"sandbox/cgroups.py"}


def test_one_tree_copy() -> None:
    """Every tree copy goes through swr.core.trees (or the untrusted-tree export of swr.sandbox.tree)."""
    assert _modules_naming("copytree(", "ignore_patterns(") == {"core/trees.py"}


def _sandbox_layout(tmp_path: Path) -> Path:
    """The scripts as the sandbox sees them: /sandbox/swr/{worker.py, forkserve.py, swr_warm_call.py}."""
    import shutil

    from swr.kinds.workflow.fork_pool import SERVER_DST, SERVER_SCRIPT
    from swr.kinds.workflow.reference import WORKER_DST, WORKER_SCRIPT
    from swr.kinds.workflow.warm_call import CALL_DST
    from swr.kinds.workflow.warm_pool import CALL_SCRIPT

    d = tmp_path / "sandbox-swr"
    d.mkdir()
    for src, dst in ((WORKER_SCRIPT, WORKER_DST), (SERVER_SCRIPT, SERVER_DST), (CALL_SCRIPT, CALL_DST)):
        assert Path(dst).parent == Path("/sandbox/swr")
        shutil.copyfile(src, d / Path(dst).name)
    return d


ENTRY = """
import sys
def main(s):
    print("chatter")
    if s.get("fail"):
        raise ValueError("refusing %r" % s["x"])
    return {"y": 2 * s["x"], "swr_loaded": "swr" in sys.modules}
"""


def test_warm_worker_reply_format_standalone(tmp_path: Path) -> None:
    """The worker script with the shared warm call beside it and nothing of swr importable: one reply per
    request, {"ok": true, "output": JSON text} or {"ok": false, "error": traceback tail}; prints on stderr."""
    import json
    import subprocess
    import sys

    scripts = _sandbox_layout(tmp_path)
    wf = tmp_path / "wf"
    wf.mkdir()
    (wf / "mod.py").write_text(ENTRY)
    reqs = [{"scenario": {"x": 2}, "artifacts": "0"}, {"scenario": {"x": 3, "fail": True}, "artifacts": "1"}]
    p = subprocess.run(
        [sys.executable, str(scripts / "worker.py"), "mod:main"],
        cwd=wf,
        input="".join(json.dumps(r) + "\n" for r in reqs),
        capture_output=True,
        text=True,
        env={"SWR_ARTIFACTS": str(tmp_path / "art")},
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    ok, bad = (json.loads(ln) for ln in p.stdout.splitlines())
    assert ok == {"ok": True, "output": json.dumps({"y": 4, "swr_loaded": False})}
    assert bad["ok"] is False and set(bad) == {"ok", "error"}
    assert bad["error"].startswith("Traceback") and bad["error"].rstrip().endswith("ValueError: refusing 3")
    assert p.stderr.count("chatter") == 2 and (tmp_path / "art" / "1").is_dir()


def test_fork_server_warm_reply_format_standalone(tmp_path: Path) -> None:
    """The fork server's warm call answers with the same call (warm_call.py): output JSON in base64 stdout,
    rc 0; a failure is rc 1 with the traceback tail as stderr."""
    import base64
    import json
    import subprocess
    import sys

    scripts = _sandbox_layout(tmp_path)
    wf = tmp_path / "wf"
    wf.mkdir()
    (wf / "mod.py").write_text(ENTRY)
    cfg = {"argv": ["mod.py"], "preload": [], "watch": [], "learn": False, "entry": "mod:main"}
    reqs = [{"warm": json.dumps(s), "time_s": 30, "stdout_bytes": 1000} for s in ({"x": 2}, {"x": 3, "fail": 1})]
    p = subprocess.run(
        [sys.executable, str(scripts / "forkserve.py"), json.dumps(cfg)],
        cwd=wf,
        input="".join(json.dumps(r) + "\n" for r in reqs),
        capture_output=True,
        text=True,
        timeout=60,
    )
    ready, ok, bad = (json.loads(ln) for ln in p.stdout.splitlines())
    assert ready["ready"] is True, p.stderr
    assert (ok["rc"], ok["limit"], ok["warm"]) == (0, None, True)
    assert json.loads(base64.b64decode(ok["stdout"])) == {"y": 4, "swr_loaded": False}
    assert bad["rc"] == 1 and bad["stdout"] == ""
    assert base64.b64decode(bad["stderr"]).decode().rstrip().endswith("ValueError: refusing 3")
    assert p.stderr.count("chatter") == 2


def test_one_leaf_walk_for_audits_and_artifact_fields(tmp_path: Path) -> None:
    """The audits' graded leaves, the self-report probe's numbers and the artifact fields are all the one
    walk (judge.leaves.walk): same leaves, same document order, ignored subtrees skipped; and a deep
    document does not exhaust the stack (the recursive walkers did)."""
    from swr.audit.oracle import leaves, map_leaves
    from swr.audit.selfreport import numeric_leaves, rewrite
    from swr.judge import Tolerances
    from swr.judge.artifacts.fields import Reference, artifact_leaves
    from swr.judge.leaves import walk

    doc = {"b": [1, 2.5, {"c": "plot.png", "d": True}], "a": {"skip": 3.0, "n": None}, "e": "plot.png"}
    tol = Tolerances(ignore=("a.skip",))
    assert list(leaves(doc, tol)) == [
        (("b", 0), 1),
        (("b", 1), 2.5),
        (("b", 2, "c"), "plot.png"),
        (("b", 2, "d"), True),
        (("a", "n"), None),
        (("e",), "plot.png"),
    ]
    assert list(numeric_leaves(doc)) == [(p, v) for p, v in walk(doc) if isinstance(v, (int, float))]
    assert map_leaves(doc, lambda p, v: "x", tol)["a"] == {"skip": 3.0, "n": "x"}
    assert rewrite(doc, lambda p, v: 0)["b"] == [0, 0, {"c": "plot.png", "d": 0}]
    (tmp_path / "plot.png").write_bytes(b"png")
    assert artifact_leaves(Reference(doc, tmp_path), tol) == [(("b", 2, "c"), "plot.png"), (("e",), "plot.png")]
    deep: object = 1.0
    for _ in range(1500):
        deep = [deep]
    assert list(leaves(deep, Tolerances())) == [((0,) * 1500, 1.0)]


def test_warm_calls_on_both_backends(backend, tmp_path: Path) -> None:
    """The shared warm call is mounted beside both scripts on either backend (once, though a fork server's
    job carries the worker's mounts): a warm worker, fresh fork-server children, then warm calls in that
    server answer; an entry that raises is reported by both the same way."""
    import json

    from test_workers import entry_workflow

    from swr.kinds.workflow.reference import Runner
    from swr.kinds.workflow.spec import load_spec

    d, _ = entry_workflow(tmp_path / "wf")
    r = Runner(load_spec(d), backend, workers=1, fork=True)
    try:
        calls = [json.loads(r.run({"a": 1.0}).stdout)["calls"] for _ in range(2)]
        assert calls == [1, 2]  # one warm worker, reused
        assert json.loads(r.run_oracle({"a": 1.0}).stdout)["calls"] == 1  # a fresh child of the oracle's server
        assert r.forks["oracle"] is not None
        assert [json.loads(r.run_second({"a": 1.0}).stdout)["calls"] for _ in range(2)] == [1, 2]  # that server, warm
        assert r.second is None  # served warm by the fork server, not by seed-1 workers
        for res in (r.run({"a": -2.5, "mode": "raise"}), r.run_second({"a": -2.5, "mode": "raise"})):
            assert res.returncode == 1 and res.stdout == b"" and b"ValueError: refusing a = -2.5" in res.stderr
    finally:
        r.close()
