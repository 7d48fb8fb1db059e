"""Release builds: reproducibility, seeds, disjointness, resume after kill -9, and bad workflows."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import CATALOG, CATALOG_VARIANTS, CATALOG_WORKFLOWS, FIXTURES, SWR, copy_tree, swr

from swr.assemble import BuildOptions, build
from swr.core.hashing import content_hash, tree_hash
from swr.core.release_dir import list_tasks, load_release, task_dir
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.task import load_workflow_task, write_task


def files_of(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def one_workflow_per_domain() -> list[Path]:
    """A cross-section of the catalog fixture: its first workflow of each domain (tasks never depend on siblings)."""
    first: dict[str, Path] = {}
    for d in CATALOG_WORKFLOWS:
        first.setdefault(d.relative_to(CATALOG).parts[0], d)
    return sorted(first.values())


def test_catalog_builds_byte_identically_from_a_cold_cache(catalog_release: Path, tmp_path: Path) -> None:
    """Every task of a cold rebuild of a cross-section equals the same task in the full catalog build."""
    subset = one_workflow_per_domain()
    opts = BuildOptions(variants=CATALOG_VARIANTS, jobs=2, cache=ExecutionCache(tmp_path / "cold-cache"))
    results = build(subset, tmp_path / "again", opts)
    assert all(not r.failure for r in results) and len(results) == 6
    tasks = [t.name for t in list_tasks(tmp_path / "again")]
    assert len(tasks) == 6 * CATALOG_VARIANTS
    for tid in tasks:
        assert files_of(tmp_path / "again" / "tasks" / tid) == files_of(catalog_release / "tasks" / tid)
    rel = load_release(catalog_release)
    assert rel.content_hash == tree_hash(catalog_release / "tasks")


def test_write_task_hands_back_the_task_load_task_reads(linear_release: Path, tmp_path: Path) -> None:
    """The build's final gates grade the Task write_task returns: it must equal the one read back from disk,
    scenario keys in the files' (sorted) order, the order a candidate receives them in."""
    src = load_workflow_task(task_dir(linear_release, "good-linear-v1"))
    unsorted = [dataclasses.replace(e, scenario=dict(reversed(e.scenario.items()))) for e in src.public]
    assert any(list(e.scenario) != sorted(e.scenario) for e in unsorted)
    written = write_task(tmp_path / "t", src.meta, "instruction", {}, unsorted, src.hidden, src.reference_dir, [])
    again = load_workflow_task(tmp_path / "t")
    assert written == again
    assert [list(e.scenario) for e in written.public] == [list(e.scenario) for e in again.public]


def test_another_seed_gives_other_scenarios(linear_release: Path, tmp_path: Path) -> None:
    opts = BuildOptions(variants=2, public=3, hidden=3, seed=1, cache=ExecutionCache(tmp_path / "c"))
    build([FIXTURES / "good-linear"], tmp_path / "seed1", opts)
    a = {
        content_hash(ex.scenario)
        for r in list_tasks(linear_release)
        for ex in load_workflow_task(r).public + load_workflow_task(r).hidden
    }
    b = {
        content_hash(ex.scenario)
        for r in list_tasks(tmp_path / "seed1")
        for ex in load_workflow_task(r).public + load_workflow_task(r).hidden
    }
    assert len(a) == len(b) == 12 and not a & b
    assert load_release(tmp_path / "seed1").content_hash != load_release(linear_release).content_hash


def test_hidden_scenarios_are_disjoint_from_every_sibling(catalog_release: Path) -> None:
    by_workflow: dict[str, list] = {}
    for root in list_tasks(catalog_release):
        t = load_workflow_task(root)
        by_workflow.setdefault(t.meta.workflow, []).append(t)
    assert by_workflow
    for tasks in by_workflow.values():
        for t in tasks:
            own_public = {content_hash(e.scenario) for e in t.public}
            hidden = {content_hash(e.scenario) for e in t.hidden}
            assert len(hidden) == len(t.hidden) and not hidden & own_public
            for s in tasks:
                if s is not t:
                    assert not hidden & {content_hash(e.scenario) for e in s.public + s.hidden}


def test_workflow_added_does_not_change_the_others(linear_release: Path, tmp_path: Path) -> None:
    opts = BuildOptions(variants=2, public=3, hidden=3, cache=ExecutionCache(tmp_path / "c"))
    build([FIXTURES / "good-linear", FIXTURES / "good-entry"], tmp_path / "both", opts)
    for tid in ("good-linear-v1", "good-linear-v2"):
        assert files_of(tmp_path / "both" / "tasks" / tid) == files_of(linear_release / "tasks" / tid)


def _kill_build_midway(cmd: list[str], cache: Path, env: dict[str, str]) -> None:
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if len(list(cache.rglob("*.json"))) >= 30:
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


def test_kill_9_then_rerun_equals_uninterrupted_build(tmp_path: Path) -> None:
    workflows = [
        str(CATALOG / "software-formal-systems" / "networkx" / "graph-metrics"),
        str(FIXTURES / "good-linear"),
        str(FIXTURES / "good-artifacts"),
    ]

    def cmd(out: str) -> list[str]:
        return [SWR, "build", *workflows, "--out", str(tmp_path / out), "--variants", "3", "-n", "2"]

    env = {**os.environ, "SWR_CACHE": str(tmp_path / "cache")}
    _kill_build_midway(cmd("rel"), tmp_path / "cache", env)
    assert not (tmp_path / "rel" / "release.json").exists()
    done_before = len(list((tmp_path / "cache").rglob("*.json")))
    assert done_before >= 30
    subprocess.run(cmd("rel"), env=env, check=True, capture_output=True)
    clean_env = {**os.environ, "SWR_CACHE": str(tmp_path / "cache2")}
    subprocess.run(cmd("clean"), env=clean_env, check=True, capture_output=True)
    assert files_of(tmp_path / "rel") == files_of(tmp_path / "clean")
    assert not list(tmp_path.glob(".rel.*")), "the killed build's staging directory is gone"


@pytest.mark.parametrize(
    ("fixture", "words"),
    [
        ("bad-toml/missing-field", "field `summary`: is required but missing"),
        ("bad-toml/unknown-type", "field `inputs."),
        ("bad-toml/min-gt-max", "min ("),
        ("bad-toml/empty-choices", "`choices` must be a non-empty list"),
        ("bad-toml/syntax", "invalid TOML"),
        ("missing-command", "field `command`: program `definitely-not-a-real-program-xyz` not found"),
        ("crashes", "gate reference_succeeds"),
        ("nondeterministic", "gate deterministic: field `"),
        ("ignores-inputs", "gate intervention_sensitive"),
    ],
)
def test_bad_workflows_get_one_line_exit_2(fixture: str, words: str) -> None:
    res = swr("check", str(FIXTURES / fixture), "-n", "2")
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr
    assert words in lines[0]
    assert str(FIXTURES / fixture / "workflow.toml") in lines[0]


def test_build_keeps_good_workflows_when_one_fails(tmp_path: Path) -> None:
    good = copy_tree(FIXTURES / "good-linear", tmp_path / "src" / "good-linear")
    copy_tree(FIXTURES / "crashes", tmp_path / "src" / "crashes")
    res = swr("build", str(tmp_path / "src"), "--out", str(tmp_path / "rel"), "--variants", "1", "-n", "2")
    assert res.returncode == 2
    assert "crashes" in res.stderr and "gate reference_succeeds" in res.stderr and "Traceback" not in res.stderr
    progress = sorted(ln.split("] ", 1)[1] for ln in res.stderr.splitlines() if ln.startswith(("[1/2] ", "[2/2] ")))
    assert len(progress) == 2 and progress[1].startswith("fixtures/good-linear: 1 task (")  # stderr is a pipe here
    assert progress[0].startswith("fixtures/crashes: left out: gate reference_succeeds: the reference failed")
    rel = json.loads((tmp_path / "rel" / "release.json").read_text())
    assert rel["tasks"] == ["good-linear-v1"]
    failed = [w for w in rel["workflows"] if w["status"] == "failed"]
    assert [w["name"] for w in failed] == ["crashes"] and "reference_succeeds" in failed[0]["reason"]
    assert good.exists()


def test_artifact_options_naming_what_some_scenarios_lack_drop_the_variant_not_the_build(tmp_path: Path) -> None:
    """The variables option names /extra, which only scenarios with extra = true write; the determinism gate compares
    a file with its byte-identical rerun and never reads the options, so the replay gate is the first to meet them.
    It used to end the whole build ("internal error: ArtifactConfigError"); the variant is dropped, saying why."""
    src = [FIXTURES / "optional-dataset", FIXTURES / "good-linear"]
    res = swr("build", *map(str, src), "--out", str(tmp_path / "rel"), "--variants", "2", "-n", "2", "--no-cache")
    assert res.returncode in (0, 2) and "internal error" not in res.stderr, res.stderr[-2000:]
    assert "replay_controls_fail: artifact options in [outputs.fields]: scidata option variables" in res.stderr
    assert "'/extra'" in res.stderr
    assert {"good-linear-v1", "good-linear-v2"} <= set(
        json.loads((tmp_path / "rel" / "release.json").read_text())["tasks"]
    )


def test_nondeterminism_message_names_field_and_values() -> None:
    res = swr("check", str(FIXTURES / "nondeterministic"), "-n", "2")
    line = res.stderr.strip()
    assert "differs between two runs of the same scenario" in line and " vs " in line
    assert "declare it in [outputs] ignore if it is volatile" in line


def test_a_variant_failing_a_gate_is_drawn_afresh_and_only_it_is_dropped(tmp_path: Path, monkeypatch) -> None:
    """A variant whose final gates fail is resampled (fresh scenarios, up to VARIANT_REDRAWS times) and only
    then dropped, alone: its siblings keep the tasks a clean build gives them."""
    import swr.assemble as b
    from swr.kinds.workflow.gates import GateFailure

    opts = BuildOptions(variants=3, public=3, hidden=3, cache=ExecutionCache(tmp_path / "c"))
    build([FIXTURES / "good-linear"], tmp_path / "clean", opts)
    real, tries = b.WorkflowBuild._final_gates, []

    def planted(fail_times: int):
        def gates(self: b.WorkflowBuild, task, slots):  # noqa: ANN001, ANN202
            if task.id.endswith("-v2") and len(tries) < fail_times:
                tries.append(task.id)
                return GateFailure("replay_controls_fail", "planted")
            return real(self, task, slots)

        return gates

    monkeypatch.setattr(b.WorkflowBuild, "_final_gates", planted(1))
    [res] = build([FIXTURES / "good-linear"], tmp_path / "once", opts)
    assert (
        res.failure is None and res.tasks == ["good-linear-v1", "good-linear-v2", "good-linear-v3"] and not res.dropped
    )
    clean, once = (files_of(tmp_path / r / "tasks") for r in ("clean", "once"))
    for v in ("v1", "v3"):
        assert {k: x for k, x in clean.items() if f"-{v}/" in k} == {k: x for k, x in once.items() if f"-{v}/" in k}
    scen = [k for k in once if "-v2/" in k and k.endswith("scenario.json")]
    assert scen and all(once[k] != clean[k] for k in scen)  # v2 was drawn afresh

    tries.clear()
    monkeypatch.setattr(b.WorkflowBuild, "_final_gates", planted(10))
    [res] = build([FIXTURES / "good-linear"], tmp_path / "never", opts)
    assert len(tries) == 1 + b.VARIANT_REDRAWS
    assert res.failure is None and res.tasks == ["good-linear-v1", "good-linear-v3"]
    [wf] = load_release(tmp_path / "never").workflows
    assert wf.status == "ok" and wf.dropped_variants == {"2": "gate replay_controls_fail: planted"}


def test_the_release_carries_the_defects_of_what_it_built(tmp_path: Path) -> None:
    """A catalog's defects.toml (found above the built paths) travels into the release's defects.json, only
    for what was built: a regrade or audit of that release knows which verifiers were fixed and how."""
    src = tmp_path / "cat" / "fixtures"
    copy_tree(FIXTURES / "good-linear", src / "good-linear")
    entry = (
        '[[defect]]\nid = "{id}"\ntask = "{task}"\nkind = "false_accept"\nseverity = "low"\nsignal = "review"\n'
        'summary = "s"\nfix = "f"\ntest = ""\nstatus = "fixed"\nrecorded = 2026-11-30\n\n'
    )
    (tmp_path / "cat" / "defects.toml").write_text(
        entry.format(id="X1", task="fixtures/good-linear")
        + entry.format(id="X2", task="fixtures/not-built")
        + entry.format(id="X3", task="*")
    )  # the shared judge's
    opts = BuildOptions(variants=1, public=3, hidden=3, cache=ExecutionCache(tmp_path / "c"))
    build([src / "good-linear"], tmp_path / "rel", opts)
    assert [d["id"] for d in json.loads((tmp_path / "rel" / "defects.json").read_text())] == ["X1", "X3"]
