"""The ground floor's tree copy and tree hash (issue 24): one ignore list, one walk. The pinned hashes are the
values the code computed before the hashers were unified: every hash swr writes (release.json's
`workflow_hash` and tree hash, task fingerprints kept in job stores, the Harbor wheel cache key) must keep
its value."""

from __future__ import annotations

import hashlib
from pathlib import Path

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
    assert _files(src) - _files(dst) == {"mod.pyc", "__pycache__/run.cpython-311.pyc", ".git/HEAD",
                                         ".pytest_cache/v", ".mypy_cache/m", "pkg.egg-info/PKG-INFO"}
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


SRC = Path(__file__).resolve().parents[1] / "src" / "swr"


def _modules_naming(*needles: str) -> set[str]:
    return {p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py")
            if any(n in p.read_text() for n in needles)}


def test_one_cgroup_module() -> None:
    """Every cgroup operation (cgroupfs paths, joins, limits, counters) lives in swr.sandbox.cgroups."""
    assert _modules_naming("/sys/fs/cgroup", "cgroup.procs", "pids.max", "memory.max",
                           "memory.limit_in_bytes", "subtree_control") == {"sandbox/cgroups.py"}


def test_one_tree_copy() -> None:
    """Every tree copy goes through swr.core.trees (or the untrusted-tree export of swr.sandbox.tree)."""
    assert _modules_naming("copytree(", "ignore_patterns(") == {"core/trees.py"}
