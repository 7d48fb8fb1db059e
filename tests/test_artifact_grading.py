"""Artifacts end to end: reference files travel with the release, candidates' files are judged by
domain comparators, and a name without a faithful file never passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, swr, write_candidate

from swr.assemble import BuildOptions, build
from swr.core.hashing import tree_hash
from swr.core.release_dir import task_dir
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.grading import grade, oracle_verdict
from swr.kinds.workflow.task import load_workflow_task

BOX = FIXTURES / "good-artifacts"

# A candidate that re-implements the fixture; EDIT is spliced in to make it wrong (or differently right).
CANDIDATE = """
import json, os, sys
import numpy as np
from boxlib import box
sc = json.load(sys.stdin)
art = os.environ["SWR_ARTIFACTS"]
tris = box(sc["width"], sc["height"], 1.0)
rows = [(i, sc["width"] * i * i + sc["height"]) for i in range(sc["rows"])]
mesh_name, table_name = "box.stl", "curve.csv"
{edit}
def write_obj(path, tris):
    verts, faces = [], []
    for t in tris:
        idx = []
        for v in t:
            verts.append(v); idx.append(len(verts))
        faces.append(idx)
    with open(path, "w") as f:
        f.writelines("v %r %r %r\\n" % tuple(map(float, v)) for v in verts)
        f.writelines("f %d %d %d\\n" % tuple(i) for i in faces)
if mesh_name.endswith(".obj"):
    write_obj(os.path.join(art, mesh_name), tris)
elif mesh_name:
    from boxlib import write_stl
    write_stl(os.path.join(art, mesh_name), tris)
if table_name:
    with open(os.path.join(art, table_name), "w") as f:
        f.write("x,y\\n" + "".join("%d,%r\\n" % r for r in rows))
print(json.dumps({{"mesh": mesh_name, "table": table_name}}))
"""


def candidate(tmp: Path, edit: str = "") -> Path:
    """The fixture's own geometry code travels with the candidate (the sandbox hides the host's tests)."""
    tmp.mkdir(parents=True)
    (tmp / "boxlib.py").write_text((BOX / "run.py").read_text())
    return write_candidate(tmp, CANDIDATE.format(edit=edit))


@pytest.fixture(scope="module")
def box_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("box")
    results = build(
        [BOX],
        base / "release",
        BuildOptions(variants=2, public=3, hidden=3, jobs=2, cache=ExecutionCache(base / "cache")),
    )
    assert not results[0].failure, results[0].failure
    return base / "release"


@pytest.fixture(scope="module")
def box_task(box_release: Path):
    return load_workflow_task(task_dir(box_release, "box-artifacts-v1"))


def test_reference_files_lie_next_to_each_output(box_task) -> None:
    for ex in [*box_task.public, *box_task.hidden]:
        assert sorted(p.name for p in ex.files.iterdir()) == ["box.stl", "curve.csv", "output.json", "scenario.json"]
        assert ex.output == {"mesh": "box.stl", "table": "curve.csv"}
    schema = json.loads((box_task.root / "public" / "schema.json").read_text())
    assert schema["artifacts"] == {"mesh": "mesh", "table": "table"}
    assert "file (mesh)" in (box_task.root / "instruction.md").read_text()


def test_gates_hold_and_replay_controls_fail_on_files(box_task) -> None:
    gates = box_task.gates
    assert all(g.passed for g in gates.values())
    assert all(not c.passed for c in gates["replay_controls_fail"].controls.values())


def test_oracle_passes(box_task, sandbox) -> None:
    v = oracle_verdict(box_task, sandbox)
    assert v.passed, v


@pytest.mark.parametrize(
    "edit",
    [
        "",  # the same files, written by other code
        "mesh_name = 'box.obj'; tris = tris[::-1]",  # OBJ, reversed facet order, unshared vertices
        "rows = [(x, float('%.15e' % y)) for x, y in rows]; table_name = 'table.csv'",  # re-spelt numbers
    ],
)
def test_equivalent_files_pass(box_task, sandbox, tmp_path: Path, edit: str) -> None:
    v = grade(box_task, candidate(tmp_path / "c", edit), sandbox)
    assert v.passed, v.scenarios[0].mismatches


@pytest.mark.parametrize(
    "edit, field",
    [
        ("tris = tris * 1.02", "mesh"),  # scaled by 2 %
        ("tris = tris[1:]", "mesh"),  # a deleted facet
        ("rows = rows[:-1]", "table"),  # a truncated table
        ("rows = [(x, y * 1.01) for x, y in rows]", "table"),
        ("tris = tris + np.array([0.0, 0.0, 0.05])", "mesh"),  # moved by 1 % of its size
    ],
)
def test_wrong_files_fail_as_artifact_mismatch(box_task, sandbox, tmp_path: Path, edit: str, field: str) -> None:
    v = grade(box_task, candidate(tmp_path / "c", edit), sandbox)
    assert not v.passed
    assert v.label == "artifact_mismatch", v
    assert {m["path"] for s in v.scenarios for m in s.mismatches} == {field}


def test_a_named_file_that_was_not_written_fails(box_task, sandbox, tmp_path: Path) -> None:
    script = "import json; print(json.dumps({'mesh': 'box.stl', 'table': 'curve.csv'}))\n"
    v = grade(box_task, write_candidate(tmp_path / "c", script), sandbox)
    assert not v.passed and {s.label for s in v.scenarios} == {"artifact_mismatch"}
    assert "no regular file 'box.stl'" in v.scenarios[0].mismatches[0]["got"]


@pytest.mark.parametrize("target", ["/etc/passwd", "../../box.stl", "/sandbox/work/run"])
def test_links_out_of_the_artifact_directory_are_not_followed(box_task, sandbox, tmp_path: Path, target: str) -> None:
    """A symlink is never followed on the host: it could point at the reference's own file."""
    script = (
        f"import json, os\nart = os.environ['SWR_ARTIFACTS']\nos.symlink({target!r}, os.path.join(art, 'box.stl'))\n"
        "os.mkfifo(os.path.join(art, 'curve.csv'))\n"
        "print(json.dumps({'mesh': 'box.stl', 'table': 'curve.csv'}))\n"
    )
    v = grade(box_task, write_candidate(tmp_path / "c", script), sandbox)
    assert not v.passed and {s.label for s in v.scenarios} == {"artifact_mismatch"}


def test_replaying_a_public_file_is_caught(box_task, sandbox, tmp_path: Path) -> None:
    """A candidate that ships a public example's files for every scenario is an anti-shortcut finding."""
    c = tmp_path / "c"
    c.mkdir()
    src = box_task.public[0].files
    for name in ("box.stl", "curve.csv"):
        (c / name).write_bytes((src / name).read_bytes())
    script = (
        "import json, os, shutil\nfor n in ('box.stl', 'curve.csv'):\n"
        "    shutil.copyfile(n, os.path.join(os.environ['SWR_ARTIFACTS'], n))\n"
        "print(json.dumps({'mesh': 'box.stl', 'table': 'curve.csv'}))\n"
    )
    v = grade(box_task, write_candidate(c, script), sandbox)
    assert not v.passed
    assert {"input_independent", "public_replay"} <= set(v.labels)


def test_nondeterministic_artifact_fails_the_determinism_gate(tmp_path: Path) -> None:
    r = swr(
        "build",
        str(FIXTURES / "nondeterministic-artifact"),
        "--variants",
        "1",
        "--out",
        str(tmp_path / "r"),
        "--no-cache",
    )
    assert "gate deterministic" in r.stdout + r.stderr and "report" in r.stdout + r.stderr


def test_warm_cache_rebuild_is_byte_identical_and_keeps_files(box_release: Path, tmp_path: Path) -> None:
    """The second build reads every execution, artifacts included, from the cache."""
    cache = ExecutionCache(box_release.parent / "cache")
    build([BOX], tmp_path / "again", BuildOptions(variants=2, public=3, hidden=3, jobs=2, cache=cache))
    assert tree_hash(tmp_path / "again") == tree_hash(box_release)


def test_an_unknown_comparator_option_is_named(tmp_path: Path) -> None:
    wf = tmp_path / "wf"
    wf.mkdir()
    (wf / "run.py").write_text((BOX / "run.py").read_text())
    (wf / "workflow.toml").write_text(
        (BOX / "workflow.toml")
        .read_text()
        .replace("artifact = { samples = 500 }", "artifact = { volatile = ['^solid'] }")
    )
    r = swr("build", str(wf), "--variants", "1", "--out", str(tmp_path / "r"), "--no-cache")
    text = r.stdout + r.stderr
    assert r.returncode != 0 and "unknown mesh option 'volatile'" in text
