"""A release of all three built-in kinds from one `swr build` (issue 24, acceptance 2): the assembler builds each
registered kind's sources into one release.json (workflows and their gates block, engines, revivals), and
`swr tasks`, `swr image build` and the baselines take every task through the kinds protocol."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import CATALOG, ROOT, swr

from swr.core.layout import ReleasePaths
from swr.harness.baselines import baseline_rows
from swr.sandbox import get_sandbox

WORKFLOW = CATALOG / "data-document" / "duckdb" / "sales-window-sql"
ENGINE = ROOT / "engines" / "mes"  # the cheapest engine to build and audit
REVIVAL = ROOT / "revivals" / "periodictable-numpy2"
TASKS = {"sales-window-sql-v1": "workflow", "mes": "engine", "periodictable-numpy2": "revival"}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One catalog workflow (one variant), one engine and one revival in one source tree, one build."""
    base = tmp_path_factory.mktemp("mixed")
    for d in (WORKFLOW, ENGINE, REVIVAL):
        shutil.copytree(d, base / "src" / d.name)
    res = swr("build", str(base / "src"), "--out", str(base / "rel"), "--variants", "1", "--jobs", "2", timeout=2400)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return base / "rel"


def test_one_build_writes_each_kinds_part_of_release_json(mixed: Path) -> None:
    summary = json.loads(ReleasePaths(mixed).summary.read_text())
    assert summary["tasks"] == sorted(TASKS)
    assert [(w["name"], w["status"]) for w in summary["workflows"]] == [("sales-window-sql", "ok")]
    assert [(e["name"], e["kind"]) for e in summary["engines"]] == [("mes", "engine")]
    assert [(r["name"], r["kind"]) for r in summary["revivals"]] == [("periodictable-numpy2", "revival")]
    assert (summary["gates"]["workflows_built"], summary["gates"]["workflows_failed"]) == (1, 0)


def test_tasks_images_and_baselines_take_every_kind(mixed: Path, local_base: str) -> None:
    """`swr image build` of the workflow task starts from the local base: on a fresh machine it is bootstrapped
    first, whichever test file runs first (a fresh clone failed here when test_images had not run yet)."""
    res = swr("tasks", str(mixed), "--json")
    assert res.returncode == 0, res.stderr
    rows = {r["id"]: r for r in json.loads(res.stdout)}
    assert {t: r["kind"] for t, r in rows.items()} == TASKS
    assert rows["sales-window-sql-v1"]["gates"] == "7/7" and rows["mes"]["gates"] == "-"
    assert all(r["public"] > 0 and r["hidden"] > 0 for r in rows.values())
    res = swr("image", "build", str(mixed), timeout=1800)
    assert res.returncode == 0, res.stderr
    images = dict(line.split("\t") for line in res.stdout.splitlines())
    assert images["mes"] == images["periodictable-numpy2"] == "host"
    assert images["sales-window-sql-v1"].startswith("localhost/swr-env:")  # its pinned pip environment
    base = {r["task"]: r for r in baseline_rows(mixed, get_sandbox("bwrap"), 2)}
    assert {t: (r["oracle"], r["nop"]) for t, r in base.items()} == {t: (True, False) for t in TASKS}
    assert not any(r[k] for r in base.values() for k in ("modal", "nearest", "best_public"))


def test_audits_ask_each_task_whether_they_apply(mixed: Path) -> None:
    """`swr audit adequacy` once crashed on importing swr.kinds (a cycle through the engine task); each audit's
    not_applicable entries now come from the task's kind."""
    res = swr("audit", "adequacy", str(mixed), "--json", timeout=1800)
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    assert [(e["engine"], e["rules_killed"] == e["rules_declared"]) for e in got["engines"]] == [("mes", True)]
    assert {n["task"]: n["kind"] for n in got["not_applicable"]} == {
        "sales-window-sql-v1": "workflow",
        "periodictable-numpy2": "revival",
    }
    res = swr("audit", "lint", str(mixed), "--json")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    assert [n["task"] for n in got["not_applicable"]] == ["periodictable-numpy2"]  # the engine is probed instead
    assert [p["task"] for p in got["self_report_probes"]] == ["mes"]


def test_harbor_counts_each_kinds_hidden_cases(mixed: Path, tmp_path: Path) -> None:
    """An engine's hidden cases are JSON files, not directories: Harbor's metadata once counted 0 of them, so its
    verifier's timeout left no time for the cases."""
    import tomllib

    res = swr("export", "harbor", str(mixed), "--out", str(tmp_path / "h"), "--json")
    assert res.returncode == 0, res.stderr
    meta = {t: tomllib.loads((tmp_path / "h" / t / "task.toml").read_text()) for t in TASKS}
    hidden = len(list((ReleasePaths(mixed).task("mes").root / "private" / "hidden").glob("*.json")))
    assert hidden > 0 and meta["mes"]["metadata"]["hidden_cases"] == hidden
    per_case = meta["mes"]["metadata"]["swr_limits"]["time_s_per_case"]
    assert meta["mes"]["verifier"]["timeout_sec"] == 600.0 + per_case * hidden
    assert meta["sales-window-sql-v1"]["metadata"]["hidden_cases"] == 3  # --hidden 3 scenarios
    assert meta["periodictable-numpy2"]["metadata"]["hidden_cases"] == 1  # the suite counts as one


def test_composition_statistics_take_every_kind(mixed: Path) -> None:
    """`swr tasks --stats`: each kind answers KindTask.composition; the revival has no parameters and no output
    document, so it counts in no field statistic."""
    res = swr("tasks", str(mixed), "--stats", "--json")
    assert res.returncode == 0, res.stderr
    stats = json.loads(res.stdout)
    rows = {r["task"]: r for r in stats["rows"]}
    assert {t: r["kind"] for t, r in rows.items()} == TASKS
    assert rows["periodictable-numpy2"]["parameters"] == [] and rows["periodictable-numpy2"]["checkable_fields"] is None
    assert rows["sales-window-sql-v1"]["parameters"] and rows["sales-window-sql-v1"]["checkable_fields"] > 0
    assert rows["mes"]["parameters"] and rows["mes"]["checkable_fields"] > 0
    assert stats["checkable_fields"]["tasks"] == 2
