"""Every shipped task: the wrapped reference passes, no candidate fails, replay controls fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import CATALOG
from swr.build import discover
from swr.gates import GATES, replay_controls
from swr.grade import grade, oracle_verdict
from swr.release import load_task, task_dir
from swr.spec import DOMAINS, load_spec

SPECS = [load_spec(d) for d in discover([CATALOG])]
TASK_IDS = [f"{s.name}-v{v}" for s in SPECS for v in range(1, 7)]


def test_first_workflows_cover_every_domain_with_real_packages() -> None:
    assert {s.domain for s in SPECS} == set(DOMAINS)
    assert all(s.requires.pip for s in SPECS), "each catalog workflow wraps a real package"
    assert any(s.entry for s in SPECS) and any(s.command for s in SPECS)


def test_release_holds_every_shipped_task(catalog_release: Path) -> None:
    rel = json.loads((catalog_release / "release.json").read_text())
    assert rel["tasks"] == sorted(TASK_IDS)
    assert all(w["status"] == "ok" for w in rel["workflows"])


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_shipped_task(task_id: str, catalog_release: Path, sandbox, tmp_path: Path) -> None:
    task = load_task(task_dir(catalog_release, task_id))
    assert len(task.public) == 5 and len(task.hidden) == 3
    gates = task.gates
    assert set(gates) == set(GATES) and all(g["pass"] for g in gates.values())

    oracle = oracle_verdict(task, sandbox)
    assert oracle["pass"] and oracle["r_hid"] == 1.0 and oracle["r_pub"] == 1.0, oracle["label"]

    missing = grade(task, tmp_path / "empty", sandbox)
    assert not missing["pass"] and missing["label"] == "missing_candidate"

    controls = replay_controls(task.reference_spec(), task.public, task.hidden)
    assert set(controls) == {"modal", "nearest", "best_public"}
    assert not any(c["pass"] for c in controls.values())
