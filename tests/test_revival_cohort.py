"""The post-cutoff cohort and the contamination table (issue 25): revival.toml's `created` (the project's creation or
first release), the three shipped post-cutoff tasks (hebrewcal, geom3py, lunar-vn: first released in 2026, their
most-imported module deleted, their own tests hidden), the cohort every revival task answers for
`--cohort contamination` (original, obfuscated, post-cutoff), and `swr results`/`swr report` reproducing the paper's
contamination table on oracle and nop jobs over a slice of the shipped revivals release, with each obfuscated pair's
line similarity to its original read from what the release recorded when the variant was built."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, release_slice, revival_oracle, swr

from swr import kinds
from swr.core.layout import REVIVAL_TOML, TaskPaths
from swr.harness.run import JobConfig, run_job
from swr.kinds.revival.build_file import read_build_file
from swr.kinds.revival.spec import POST_CUTOFF, load_revival
from swr.kinds.revival.task import MODULE_REF, RevivalTask
from swr.kinds.taskfile import read_task_file

POST = {"hebrewcal-gregorian": "2026-06-07", "geom3py-vector": "2026-07-29", "lunar-vn-core": "2026-02-07"}
PLAIN = "toolz-itertoolz"  # the shipped task with an obfuscated variant


def test_the_post_cutoff_date_is_stated_once_and_after_the_models_cutoffs() -> None:
    assert POST_CUTOFF == kinds.POST_CUTOFF == dt.date(2026, 1, 1)


@pytest.mark.parametrize("name", sorted(POST))
def test_each_post_cutoff_task_records_a_creation_date_after_the_cutoff(name: str) -> None:
    """The spec keeps `created` (PyPI's first upload of the project); the task is a deleted-module one whose own
    tests are hidden, with public ones for ./feedback and a probe."""
    spec = load_revival(ROOT / "revivals" / name)
    assert spec.created == dt.date.fromisoformat(POST[name]) and spec.created >= POST_CUTOFF
    assert spec.created <= spec.released and spec.kind == "deleted-module"
    assert spec.verify.hidden and spec.verify.public and spec.verify.probes
    assert spec.anticheat.forbidden_packages and spec.pypi is not None


def test_created_is_optional_and_a_bad_one_is_one_line(tmp_path: Path) -> None:
    src = (ROOT / "revivals" / PLAIN / REVIVAL_TOML).read_text()
    shutil.copytree(ROOT / "revivals" / PLAIN, tmp_path / "ok")
    assert load_revival(tmp_path / "ok").created is None  # a task without it: no post-cutoff claim
    bad = tmp_path / "bad"
    shutil.copytree(ROOT / "revivals" / PLAIN, bad)
    (bad / REVIVAL_TOML).write_text(src.replace("released = 2024-10-04", 'released = 2024-10-04\ncreated = "soon"'))
    res = swr("revive", "make", str(bad), "--out", str(tmp_path / "t"))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "revival.toml" in res.stderr and "created" in res.stderr


@pytest.fixture(scope="session")
def variant(revival_release: Path) -> str:
    """The id of the obfuscated variant the release built from toolz-itertoolz."""
    (found,) = [
        t.name
        for t in (revival_release / "tasks").iterdir()
        if (b := read_build_file(TaskPaths(t).build_record)) is not None and b.obfuscated_from == PLAIN
    ]
    return found


@pytest.fixture(scope="session")
def release(revival_release: Path, variant: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return release_slice(revival_release, (PLAIN, variant, *sorted(POST)), tmp_path_factory.mktemp("cohort") / "rel")


def test_the_cohort_of_each_task_is_its_kinds_answer(release: Path, variant: str, linear_release: Path) -> None:
    """original, obfuscated, post-cutoff; `created` reaches task.toml only where the spec has it (the other
    tasks' task.toml stays as it was); a workflow task has no contamination cohort."""
    tasks = release / "tasks"
    assert kinds.cohort(tasks / PLAIN, "contamination") == "original"
    assert kinds.cohort(tasks / variant, "contamination") == "obfuscated"
    for name, day in POST.items():
        assert kinds.cohort(tasks / name, "contamination") == "post-cutoff"
        meta = read_task_file(tasks / name)
        assert (
            str(getattr(meta, "created", None)) == day
            and f'created = "{day}"' in (tasks / name / "task.toml").read_text()
        )
    assert "created" not in (tasks / PLAIN / "task.toml").read_text()
    workflow = next((linear_release / "tasks").iterdir())
    assert kinds.cohort(workflow, "contamination") == kinds.NOT_APPLICABLE
    assert kinds.contamination(workflow) is None and kinds.contamination(tasks / PLAIN) is None


@pytest.fixture(scope="session")
def jobs(release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An oracle job and a nop job over the slice (real grading in the sandbox)."""
    jobs_dir = tmp_path_factory.mktemp("jobs")
    for agent in ("oracle", "nop"):
        recs = run_job(JobConfig(release=release, agent=agent, job=agent, jobs_dir=jobs_dir))
        assert len(recs) == 5 and all(r.status == "done" for r in recs), [(r.task, r.error) for r in recs]
    return jobs_dir


def _results(job: str, jobs_dir: Path) -> dict:
    res = swr("results", job, "--jobs-dir", str(jobs_dir), "--json", "--cohort", "contamination")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_the_contamination_table_of_oracle_and_nop_jobs(jobs: Path, release: Path, variant: str) -> None:
    """The oracle passes every cohort and nop none (every starting workspace fails); the pair's similarity is the
    one the variant's build recorded (its module against the original, plain and with canonical identifiers)."""
    recorded = read_build_file(TaskPaths(release / "tasks" / variant).build_record)
    assert recorded is not None and recorded.identifiability is not None
    sim = recorded.identifiability.similarity_to_original
    assert 0 < sim.ratio < sim.ratio_canonical <= 1  # renaming hides names, not the code's shape
    for job, rate in (("oracle", 1.0), ("nop", 0.0)):
        doc = _results(job, jobs)
        assert doc["cohorts"]["contamination"] == {
            "obfuscated": {"tasks": 1, "runs": 1, "passed": int(rate), "pass_at_1": rate},
            "original": {"tasks": 1, "runs": 1, "passed": int(rate), "pass_at_1": rate},
            "post-cutoff": {"tasks": 3, "runs": 3, "passed": 3 * int(rate), "pass_at_1": rate},
        }
        assert doc["contamination"] == {
            "post_cutoff": "2026-01-01",
            "pairs": [
                {
                    "obfuscated": variant,
                    "original": PLAIN,
                    "ratio": sim.ratio,
                    "ratio_canonical": sim.ratio_canonical,
                    "coverage": sim.coverage,
                    "coverage_canonical": sim.coverage_canonical,
                    "pass_at_1": rate,
                    "original_pass_at_1": rate,
                }
            ],
        }
    table = swr("results", "oracle", "--jobs-dir", str(jobs), "--cohort", "contamination")
    assert table.returncode == 0, table.stderr
    text = " ".join(table.stdout.split())
    assert "oracle by contamination" in text and "post-cutoff" in text and "created on or after 2026-01-01" in text
    assert f"{sim.ratio:.2f}" in text and f"{sim.ratio_canonical:.2f}" in text


def test_the_report_shows_the_contamination_table(jobs: Path, tmp_path: Path) -> None:
    from test_report import cells, dom

    from swr.core.layout import ReportPaths

    out = tmp_path / "report"
    res = swr("report", "oracle", "nop", "--jobs-dir", str(jobs), "--out", str(out))
    assert res.returncode == 0, res.stderr
    doc = dom(ReportPaths(out).index)
    rows = cells(doc, "contamination-table")
    assert ["nop", "post-cutoff", "3", "3", "0", "0.0%"] in rows and [
        "oracle",
        "post-cutoff",
        "3",
        "3",
        "3",
        "100.0%",
    ] in rows
    assert len(cells(doc, "contamination-pairs")) == 2  # one pair per job


# One task in the default suite (the quickest to grade); the other two, minutes each on both backends, in make test-full.
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.full) if n != "lunar-vn-core" else n for n in sorted(POST)]
)
def test_a_post_cutoff_rebuild_loading_the_original_from_anywhere_fails(
    revival_release: Path, backend: Any, name: str, tmp_path: Path
) -> None:
    """The anti-cheat of the other deleted-module tasks holds for the new ones, on both backends: a module that
    looks for the original on every readable path (installed copies, archives, other Pythons) finds none."""
    from test_revival_originals import loader_candidate

    task = kinds.load(revival_release / "tasks" / name)
    got = task.grade(loader_candidate(task, tmp_path / "cand"), backend)  # type: ignore[attr-defined]
    assert not got.passed and got.score.startswith("0/"), got.score


@pytest.mark.parametrize("name", sorted(POST))
def test_a_post_cutoff_task_copied_verbatim_fails_as_copied_original(
    revival_release: Path, name: str, tmp_path: Path
) -> None:
    """The original module written back by a candidate passes every test and probe and fails on the
    copied_original finding (the oracle agent's runs of the same text pass: the contamination table's oracle job)."""
    task = kinds.load(revival_release / "tasks" / name)
    assert isinstance(task, RevivalTask)
    cand = revival_oracle(task, tmp_path / "cand")
    ref = task.reference_dir / MODULE_REF
    (rel,) = [f.relative_to(ref) for f in ref.rglob("*.py")]
    (cand / rel).write_text((ref / rel).read_text() + "\n")  # a candidate's file: the original again
    res = swr("grade", str(task.root), str(cand), "--json", timeout=900)
    got = json.loads(res.stdout)
    n = got["score"].split("/")[1]
    assert res.returncode == 1 and got["labels"] == ["copied_original"] and got["score"] == f"{n}/{n}", got["labels"]
