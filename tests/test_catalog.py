"""The shipped catalog: its breadth, and every task built with every gate holding.

The build itself grades the wrapped reference on each task's hidden split (gate 6) and the replay
controls (gate 7); here those recorded results are read back for every task and the controls are
recomputed from the files. tests/test_harness.py runs the oracle again through `swr run` on a seeded
sample of tasks per domain (on every task under `make test-full`)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import CATALOG, CATALOG_VARIANTS, CATALOG_WORKFLOWS

from swr.assemble import discover
from swr.core.release_dir import task_dir
from swr.kinds.workflow.gates import GATES, replay_controls
from swr.kinds.workflow.grading import grade
from swr.kinds.workflow.spec import DOMAINS, load_spec
from swr.kinds.workflow.task import load_workflow_task

SPECS = [load_spec(d) for d in discover([CATALOG])]
BUILT = [load_spec(d) for d in CATALOG_WORKFLOWS]  # the catalog fixture's sample (every workflow: make test-full)
TASK_IDS = [f"{s.name}-v{v}" for s in BUILT for v in range(1, CATALOG_VARIANTS + 1)]


def test_catalog_breadth() -> None:
    """The SWR paper's scale (issue 26): ≥ 500 workflows from ≥ 46 families over all six domains, ≥ 4 families per
    domain, ≥ 8 workflows per family, real requirements."""
    families = {(s.domain, s.family) for s in SPECS}
    assert len({f for _, f in families}) == len(families), "a family lives in one domain"
    assert len(families) >= 46 and len(SPECS) >= 500, (len(families), len(SPECS))
    per_domain = Counter(d for d, _ in families)
    assert set(per_domain) == set(DOMAINS) and min(per_domain.values()) >= 4, per_domain
    per_family = Counter(s.family for s in SPECS)
    assert min(per_family.values()) >= 8, [f for f, n in per_family.items() if n < 8]
    assert all(s.requires.pip or s.requires.apt for s in SPECS), "each workflow wraps a real package or tool"
    for s in SPECS:
        assert s.directory.parts[-3:-1] == (s.domain, s.family), s.directory


PAPER_OUTPUT_TYPES = (  # the SWR paper's §3 besides JSON and text
    "images",
    "audio",
    "scientific data",
    "code",
    "biological sequences",
    "geometry",
    "markup",
    "packet captures",
    "configuration files",
)


@pytest.mark.full
def test_the_whole_catalog_has_tasks_of_each_of_the_papers_output_types(catalog_release: Path) -> None:
    """Issue 26 acceptance 2, on the whole catalog (`make test-full`): every output type the paper counts."""
    from swr.report.composition import composition_stats

    counts = composition_stats(catalog_release)["output_types"]
    assert all(counts[t] > 0 for t in PAPER_OUTPUT_TYPES), counts


def test_instructions_say_what_every_field_means() -> None:
    """Agents can act on the summary, the inputs' meanings and the outputs' meanings."""
    for s in SPECS:
        assert len(s.summary.split()) >= 8, s.name
        assert all(i.description for i in s.inputs.values()), s.name
        top = {p: f for p, f in s.outputs.fields.items() if "." not in p}  # nested ones may only set tolerances
        assert top and all(f.description for f in top.values()), s.name


def test_release_holds_every_sampled_task(catalog_release: Path) -> None:
    rel = json.loads((catalog_release / "release.json").read_text())
    assert rel["tasks"] == sorted(TASK_IDS)
    assert [w["name"] for w in rel["workflows"] if w["status"] != "ok"] == []


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_every_gate_holds(task_id: str, catalog_release: Path, sandbox, tmp_path: Path) -> None:
    task = load_workflow_task(task_dir(catalog_release, task_id))
    assert len(task.public) == 5 and len(task.hidden) == 3
    gates = task.gates
    assert set(gates) == set(GATES) and all(g.passed for g in gates.values())
    assert gates["oracle_passes"].r_hid == 1.0

    missing = grade(task, tmp_path / "empty", sandbox)
    assert not missing.passed and missing.label == "missing_candidate"

    controls = replay_controls(task.reference_spec(), task.public, task.hidden)
    assert set(controls) == {"modal", "nearest", "best_public"}
    assert not any(c["pass"] for c in controls.values())
