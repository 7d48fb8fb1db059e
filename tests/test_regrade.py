"""The defect register and `swr regrade` (ReviveBench §8): runs recorded under a release with planted verifier
defects, re-scored with the fixed verifiers; a fix that changes what the agent was shown asks for a re-run."""

from __future__ import annotations

import json
import shutil
import sqlite3
import tomllib
from pathlib import Path

import pytest
import tomli_w
from conftest import FIXTURES, copy_tree, swr

from swr.assemble import BuildOptions, build
from swr.audit.defects import carry_defects, read_toml
from swr.core.errors import SwrError
from swr.core.layout import DB_FILE
from swr.core.release_dir import task_dir
from swr.harness.fingerprint import public_hash
from swr.harness.store import Store
from swr.kinds.workflow.cache import ExecutionCache

TASKS = ("good-linear-v1", "good-linear-v2", "good-linear-v3")
# The candidate's error in y per task: v1 wrong by 0.5, v2 right to 1e-7 (a float32-grade answer), v3 wrong.
AGENT = """id=$(sed -n 's/^id = "\\(.*\\)"$/\\1/p' task.toml)
case "$id" in *-v2) d=1e-7 ;; *) d=0.5 ;; esac
mkdir -p solution && echo "$d" > solution/delta
cat > solution/run <<'EOF'
#!/usr/bin/env python3
import json, sys
s = json.load(sys.stdin)
d = float(open("delta").read())
print(json.dumps({"y": 2 * s["a"] + s["b"] + d, "z": [s["a"], s["b"]]}))
EOF
chmod +x solution/run"""


def set_tolerance(release: Path, task: str, atol: float, rtol: float) -> None:
    """Change a task's verifier only: task.toml's tolerances."""
    path = task_dir(release, task) / "task.toml"
    meta = tomllib.loads(path.read_text())
    meta["tolerances"] |= {"atol": atol, "rtol": rtol}
    path.write_text(tomli_w.dumps(meta))


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`defective`: v1's tolerance is too loose (a wrong y passes), v2's too tight (a right one fails), v3 as
    built. `fixed`: tolerances fixed, nothing public changed. `respec`: fixed, and v3's public examples changed."""
    base = tmp_path_factory.mktemp("regrade")
    opts = BuildOptions(variants=3, public=3, hidden=3, jobs=2, cache=ExecutionCache(base / "cache"))
    results = build([FIXTURES / "good-linear"], base / "built", opts)
    assert not results[0].failure, results[0].failure
    defective = copy_tree(base / "built", base / "defective")
    set_tolerance(defective, "good-linear-v1", 1.0, 0.0)
    set_tolerance(defective, "good-linear-v2", 1e-12, 0.0)
    fixed = copy_tree(base / "built", base / "fixed")
    for t in TASKS:
        set_tolerance(fixed, t, 1e-6, 0.0)
    respec = copy_tree(fixed, base / "respec")
    out = task_dir(respec, "good-linear-v3") / "public" / "examples" / "0" / "output.json"
    out.write_text(json.dumps({**json.loads(out.read_text()), "y": 123.0}))
    return {"defective": defective, "fixed": fixed, "respec": respec}


@pytest.fixture(scope="module")
def jobs(releases: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two jobs recorded with `swr run` on the defective release: the command agent above, and the oracle."""
    d = tmp_path_factory.mktemp("jobs")
    for job, agent in (
        ("cand", ["-a", "command", "--ak", f"command={AGENT}", "--ak", "network=false"]),
        ("orc", ["-a", "oracle"]),
    ):
        r = swr("run", str(releases["defective"]), *agent, "--job", job, "--jobs-dir", str(d), "-n", "2")
        assert r.returncode == 0, r.stderr[-3000:]
    return d


def regrade(jobs: Path, job: str, release: Path) -> dict:
    r = swr("regrade", job, "--release", str(release), "--jobs-dir", str(jobs), "--json", "-n", "2")
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def by_task(res: dict) -> dict[str, dict]:
    return {row["task"]: row for row in res["runs"]}


def test_the_planted_defects_decided_the_recorded_runs(jobs: Path) -> None:
    """The premise: under the defective verifiers the wrong v1 passed and the right v2 failed."""
    res = json.loads(swr("results", "cand", "--jobs-dir", str(jobs), "--json").stdout)
    assert res["runs"] == 3 and res["passed"] == 1
    runs = {r.task: r for r in Store(jobs).runs("cand")}
    assert runs["good-linear-v1"].passed and not runs["good-linear-v2"].passed and not runs["good-linear-v3"].passed
    assert all(r.public_hash for r in runs.values())  # recorded per run


def test_regrade_flips_exactly_the_affected_verdicts_and_keeps_everything(
    jobs: Path, releases: dict[str, Path]
) -> None:
    before = swr("results", "cand", "--jobs-dir", str(jobs), "--json").stdout
    res = regrade(jobs, "cand", releases["fixed"])
    rows = by_task(res)
    assert rows["good-linear-v1"] | {"key": ""} == {
        "task": "good-linear-v1",
        "attempt": 1,
        "key": "",
        "status": "regraded",
        "old_pass": True,
        "old_label": "pass",
        "new_pass": False,
        "new_label": "numeric_mismatch",
        "changed": True,
        "flipped": True,
        "reason": "",
    }
    assert (rows["good-linear-v2"]["old_pass"], rows["good-linear-v2"]["new_pass"]) == (False, True)
    assert rows["good-linear-v3"]["status"] == "regraded" and not rows["good-linear-v3"]["changed"]
    assert (res["changed"], res["fail_to_pass"], res["pass_to_fail"], res["needs_rerun"]) == (2, 1, 1, 0)
    # the oracle's verdicts do not move
    orc = regrade(jobs, "orc", releases["fixed"])
    assert orc["regraded"] == 3 and orc["changed"] == 0 and orc["passed_after"] == 3
    # stored apart: `swr results` counts each run once, with its own recorded verdict
    assert swr("results", "cand", "--jobs-dir", str(jobs), "--json").stdout == before
    stored = Store(jobs).regrades("cand", res["release_hash"])
    assert {(g.status, g.passed) for g in stored} == {("regraded", False), ("regraded", True)} and len(stored) == 3
    table = swr("regrade", "cand", "--release", str(releases["fixed"]), "--jobs-dir", str(jobs))
    assert table.returncode == 0 and "CHANGED" in table.stdout and "numeric_mismatch" in table.stdout


def test_a_fix_that_changes_the_public_examples_asks_for_a_rerun(jobs: Path, releases: dict[str, Path]) -> None:
    res = regrade(jobs, "cand", releases["respec"])
    rows = by_task(res)
    assert rows["good-linear-v3"]["status"] == "needs_rerun" and rows["good-linear-v3"]["new_pass"] is None
    assert "public" in rows["good-linear-v3"]["reason"]
    assert rows["good-linear-v1"]["flipped"] and rows["good-linear-v2"]["flipped"]
    assert res["needs_rerun"] == 1 and res["regraded"] == 2
    # both regrades are kept, one set per fixed release
    assert len(Store(jobs).regrades("cand")) >= 6


def test_the_fingerprint_sees_the_public_part_only(releases: dict[str, Path]) -> None:
    d, f, r = (task_dir(releases[n], "good-linear-v3") for n in ("defective", "fixed", "respec"))
    assert public_hash(d) == public_hash(f) != public_hash(r)
    (f.parent.parent / "scratch").mkdir(exist_ok=True)
    copy = copy_tree(f, f.parent.parent / "scratch" / "v3")
    (copy / "instruction.md").write_text((copy / "instruction.md").read_text() + "\nOne more sentence.\n")
    assert public_hash(copy) != public_hash(f)
    shutil.rmtree(f.parent.parent / "scratch")


def test_runs_recorded_before_the_fingerprint_column_are_regraded_through_their_release(
    jobs: Path, releases: dict[str, Path], tmp_path: Path
) -> None:
    """An older record (no public_hash) is matched through the job's own release, still byte-identical."""
    old = copy_tree(jobs, tmp_path / "jobs")
    db = sqlite3.connect(old / DB_FILE)
    db.execute("UPDATE runs SET public_hash = NULL")
    db.commit()
    db.close()
    rows = by_task(regrade(old, "cand", releases["respec"]))
    assert rows["good-linear-v3"]["status"] == "needs_rerun" and rows["good-linear-v1"]["flipped"]


def test_an_old_database_gains_the_public_hash_column(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / DB_FILE)
    db.executescript("""CREATE TABLE jobs (name TEXT PRIMARY KEY, config TEXT NOT NULL, created REAL NOT NULL,
      updated REAL NOT NULL);
    CREATE TABLE runs (key TEXT PRIMARY KEY, job TEXT NOT NULL, task TEXT NOT NULL, task_hash TEXT NOT NULL,
      family TEXT, domain TEXT, agent TEXT NOT NULL, model TEXT, attempt INTEGER NOT NULL, status TEXT NOT NULL,
      passed INTEGER, label TEXT, labels TEXT, verdict TEXT, turns INTEGER, input_tokens INTEGER,
      output_tokens INTEGER, cost REAL, wall_s REAL, cheats TEXT, error TEXT, tries INTEGER NOT NULL DEFAULT 1,
      finished REAL NOT NULL);
    INSERT INTO runs (key, job, task, task_hash, agent, attempt, status, passed, label, labels, finished)
      VALUES ('k', 'j', 't', 'h', 'nop', 1, 'done', 0, 'missing_candidate', '["missing_candidate"]', 0);""")
    db.close()
    store = Store(tmp_path)
    [r] = store.runs("j")
    assert (r.key, r.label, r.public_hash) == ("k", "missing_candidate", None)
    r.public_hash = "abc"
    store.put_run(r)
    assert store.runs("j")[0].public_hash == "abc"
    r.job = "j2"  # rekeyed by job: a second job's record of the same key is its own
    store.put_run(r)
    assert [x.job for x in store.runs("j")] == ["j"] and [x.job for x in store.runs("j2")] == ["j2"]
    store.close()
    Store(tmp_path).close()  # a second open finds the column there


def test_regrade_errors_are_one_line(jobs: Path, releases: dict[str, Path], tmp_path: Path) -> None:
    r = swr("regrade", "nosuch", "--release", str(releases["fixed"]), "--jobs-dir", str(jobs))
    assert r.returncode == 2 and "no job named 'nosuch'" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = swr("regrade", "cand", "--release", str(tmp_path), "--jobs-dir", str(jobs))
    assert r.returncode == 2 and "release.json" in r.stderr and len(r.stderr.strip().splitlines()) == 1


# --------------------------------------------------------------------- the defect register


def test_defect_register_round_trip(releases: dict[str, Path], tmp_path: Path) -> None:
    rel = copy_tree(releases["fixed"], tmp_path / "rel")
    add = ("audit", "defect", "add", str(rel))
    r = swr(
        *add,
        "--task",
        "good-linear-v1",
        "--kind",
        "false_accept",
        "--signal",
        "review",
        "--severity",
        "high",
        "--summary",
        "atol 1.0 lets y off by 0.5 pass",
        "--recorded",
        "2026-01-02",
    )
    assert r.returncode == 0 and r.stdout.strip() == "D001", r.stderr
    r = swr(
        *add,
        "--task",
        "fixtures/good-linear",
        "--kind",
        "false_reject",
        "--signal",
        "achievability",
        "--summary",
        "atol 1e-12 below float precision",
        "--fix",
        "atol 1e-6",
        "--test",
        "tests/test_regrade.py::test_regrade_flips_exactly_the_affected_verdicts_and_keeps_everything",
        "--recorded",
        "2026-01-03",
    )
    assert r.stdout.strip() == "D002", r.stderr
    r = swr(
        "audit",
        "defect",
        "fix",
        str(rel),
        "D001",
        "--fix",
        "atol 1e-6",
        "--test",
        "tests/x.py::t",
        "--commit",
        "784d7be",
    )
    assert r.returncode == 0 and r.stdout.strip() == "D001", r.stderr
    listed = json.loads(swr("audit", "defect", "list", str(rel), "--json").stdout)
    assert listed == [
        {
            "id": "D001",
            "task": "good-linear-v1",
            "kind": "false_accept",
            "severity": "high",
            "signal": "review",
            "summary": "atol 1.0 lets y off by 0.5 pass",
            "fix": "atol 1e-6",
            "test": "tests/x.py::t",
            "commit": "784d7be",
            "status": "fixed",
            "recorded": "2026-01-02",
        },
        {
            "id": "D002",
            "task": "fixtures/good-linear",
            "kind": "false_reject",
            "severity": "medium",
            "signal": "achievability",
            "summary": "atol 1e-12 below float precision",
            "fix": "atol 1e-6",
            "test": "tests/test_regrade.py::test_regrade_flips_exactly_the_affected_verdicts_and_keeps_everything",
            "commit": "",
            "status": "fixed",
            "recorded": "2026-01-03",
        },
    ]
    table = swr("audit", "defect", "list", str(rel))
    assert table.returncode == 0 and "D002" in table.stdout and "2 recorded, 0 open" in table.stdout


@pytest.mark.parametrize(
    "args, field",
    [
        (("--task", "good-linear-v1", "--kind", "false_positive", "--signal", "review"), "--kind"),
        (("--task", "good-linear-v1", "--kind", "false_accept", "--signal", "hunch"), "--signal"),
        (("--task", "no-such-workflow", "--kind", "false_accept", "--signal", "review"), "--task"),
        (
            ("--task", "good-linear-v1", "--kind", "false_accept", "--signal", "review", "--recorded", "May 1"),
            "--recorded",
        ),
    ],
)
def test_bad_defect_options_are_one_line_naming_the_option(
    releases: dict[str, Path], tmp_path: Path, args: tuple[str, ...], field: str
) -> None:
    rel = copy_tree(releases["fixed"], tmp_path / "rel")
    r = swr("audit", "defect", "add", str(rel), *args, "--summary", "s")
    assert r.returncode == 2 and field in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (rel / "defects.json").exists()


DEFECT = {
    "id": "C1",
    "task": "fixtures/good-linear",
    "kind": "false_accept",
    "severity": "high",
    "signal": "review",
    "summary": "loose",
    "fix": "tight",
    "test": "tests/t.py::t",
    "status": "fixed",
    "recorded": "2026-01-01",
}


def test_carry_defects_keeps_the_entries_of_built_workflows_and_engines(tmp_path: Path) -> None:
    catalog, engines, rel = tmp_path / "catalog.toml", tmp_path / "engines.toml", tmp_path / "rel"
    rel.mkdir()
    catalog.write_text(
        tomli_w.dumps(
            {
                "defect": [
                    DEFECT,
                    DEFECT | {"id": "C2", "task": "cosmology-distances"},
                    DEFECT | {"id": "C3", "task": "good-linear-v2"},
                ]
            }
        )
    )
    engines.write_text(tomli_w.dumps({"defect": [DEFECT | {"id": "E1", "task": "erp-core"}]}))
    carried = carry_defects([catalog, engines, tmp_path / "absent.toml"], rel, {"good-linear", "erp-core"})
    assert [d.id for d in carried] == ["C1", "C3", "E1"]
    assert [d["id"] for d in json.loads((rel / "defects.json").read_text())] == ["C1", "C3", "E1"]
    again = tmp_path / "rel2"
    again.mkdir()
    carry_defects([catalog, engines], again, {"good-linear", "erp-core"})
    assert (again / "defects.json").read_bytes() == (rel / "defects.json").read_bytes()


@pytest.mark.parametrize(
    "entry, field",
    [
        (DEFECT | {"kind": "false_positive"}, "defect[0].kind"),
        (DEFECT | {"status": "fixed", "fix": ""}, "defect[0]"),
        ({k: v for k, v in DEFECT.items() if k != "summary"}, "defect[0].summary"),
        (DEFECT | {"recorded": "yesterday"}, "defect[0].recorded"),
        (DEFECT | {"colour": "red"}, "defect[0].colour"),
        (DEFECT | {"commit": "main"}, "defect[0].commit"),
        (DEFECT | {"status": "open", "fix": "", "commit": "784d7be"}, "defect[0]"),
    ],
)
def test_a_malformed_defects_toml_is_one_line_naming_file_and_field(tmp_path: Path, entry: dict, field: str) -> None:
    path = tmp_path / "defects.toml"
    path.write_text(tomli_w.dumps({"defect": [entry]}))
    with pytest.raises(SwrError) as e:
        carry_defects([path], tmp_path, {"good-linear"})
    assert str(path) in str(e.value) and f"`{field}" in str(e.value) and "\n" not in str(e.value)
    r = swr("audit", "defect", "check", str(path))
    assert r.returncode == 2 and str(path) in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (tmp_path / "defects.json").exists()


def test_duplicate_ids_and_bad_toml_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "defects.toml"
    path.write_text(tomli_w.dumps({"defect": [DEFECT, DEFECT]}))
    with pytest.raises(SwrError, match=r"defect\[1\].id.*duplicate id 'C1'"):
        read_toml(path)
    path.write_text("[[defect]\n")
    r = swr("audit", "defect", "check", str(path))
    assert r.returncode == 2 and "invalid TOML" in r.stderr and len(r.stderr.strip().splitlines()) == 1
