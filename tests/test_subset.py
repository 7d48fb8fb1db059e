"""`swr subset`: a held-out subset stratified like SWR100 (largest-remainder shares per domain, families in
turn, one variant of each workflow before a second), and `swr run -i @FILE` reading the ids it writes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import swr

from swr.core.layout import ReleasePaths
from swr.export.subset import allocate, subset
from swr.harness.store import Store
from swr.kinds.taskfile import TaskLimits, dump_task_file
from swr.kinds.workflow.taskfile import TaskTolerances, WorkflowTaskFile

# domain -> family -> workflows; six variants each: 24, 12 and 6 tasks
LAYOUT = {
    "physical-engineering-simulation": {"f1": ["w1", "w2", "w3"], "f2": ["w4"]},
    "life-molecular-sciences": {"f3": ["w5", "w6"]},
    "earth-space-sciences": {"f4": ["w7"]},
}


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A release's task directories as `swr subset` reads them: each with its task.toml."""
    at = ReleasePaths(tmp_path_factory.mktemp("subset") / "release")
    for domain, families in LAYOUT.items():
        for family, workflows in families.items():
            for w in workflows:
                for k in range(1, 7):
                    meta = WorkflowTaskFile(
                        id=f"{w}-v{k}",
                        workflow=w,
                        family=family,
                        domain=domain,
                        variant=k,
                        workflow_hash="0" * 64,
                        limits=TaskLimits(time_s=10, memory_mb=512, pids=64, stdout_mb=8),
                        tolerances=TaskTolerances(atol=0, rtol=0),
                    )
                    toml = at.task(meta.id).toml
                    toml.parent.mkdir(parents=True)
                    toml.write_text(dump_task_file(meta))
    return at.root


def facts(ids: list[str]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """(per domain, per family, per workflow) counts of chosen ids."""
    where = {w: (d, f) for d, fams in LAYOUT.items() for f, ws in fams.items() for w in ws}
    workflows = Counter(i.rsplit("-v", 1)[0] for i in ids)
    domains: Counter[str] = Counter()
    families: Counter[str] = Counter()
    for w, n in workflows.items():
        domains[where[w][0]] += n
        families[where[w][1]] += n
    return domains, families, workflows


def test_domains_get_largest_remainder_shares_and_families_take_turns(release: Path) -> None:
    for seed in range(4):
        ids = subset(release, 10, seed)
        assert len(ids) == len(set(ids)) == 10 and ids == sorted(ids)
        domains, families, workflows = facts(ids)
        # exact shares 5.71, 2.86, 1.43: floors 5, 2, 1 and the two spare seats to the largest remainders
        assert domains == {
            "physical-engineering-simulation": 6,
            "life-molecular-sciences": 3,
            "earth-space-sciences": 1,
        }
        assert families == {"f1": 3, "f2": 3, "f3": 3, "f4": 1}
        assert all(workflows[w] == 1 for w in ("w1", "w2", "w3"))  # one variant of each workflow first
        assert sorted([workflows["w5"], workflows["w6"]]) == [1, 2]
    assert subset(release, 10, 0) != subset(release, 10, 1)  # the seed picks the variants


def test_a_whole_release_and_proportional_sizes() -> None:
    import random

    assert allocate({"a": 24, "b": 12, "c": 6}, 7, random.Random(0)) == {"a": 4, "b": 2, "c": 1}
    assert allocate({"a": 1, "b": 1, "c": 1}, 2, random.Random(0)) in (
        {"a": 1, "b": 1, "c": 0},
        {"a": 1, "b": 0, "c": 1},
        {"a": 0, "b": 1, "c": 1},
    )
    ties = {tuple(sorted(allocate({"a": 1, "b": 1, "c": 1}, 1, random.Random(s)).items())) for s in range(20)}
    assert len(ties) > 1  # ties are broken by the seed, not by name


def test_cli_writes_the_same_file_for_the_same_seed_and_errors_in_one_line(release: Path, tmp_path: Path) -> None:
    for name, seed in (("a", "5"), ("b", "5")):
        res = swr("subset", str(release), "--size", "42", "--out", str(tmp_path / name), "--seed", seed)
        assert res.returncode == 0, res.stderr
    a = (tmp_path / "a").read_text()
    assert a == (tmp_path / "b").read_text() and len(a.splitlines()) == 42  # all of it
    bad = swr("subset", str(release), "--size", "43", "--out", str(tmp_path / "c"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--size" in bad.stderr and "42 tasks" in bad.stderr
    bad = swr("subset", str(tmp_path), "--out", str(tmp_path / "c"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not a release" in bad.stderr
    assert not (tmp_path / "c").exists()


def test_swr_run_takes_task_ids_from_an_at_file(linear_release: Path, tmp_path: Path) -> None:
    (tmp_path / "ids").write_text("good-linear-v2  # the held-out one\n")
    res = swr(
        "run",
        str(linear_release),
        "-a",
        "nop",
        "-i",
        f"@{tmp_path / 'ids'}",
        "--jobs-dir",
        str(tmp_path / "jobs"),
        "--job",
        "held",
    )
    assert res.returncode == 0, res.stderr
    store = Store(tmp_path / "jobs")
    try:
        assert [r.task for r in store.runs("held")] == ["good-linear-v2"]
    finally:
        store.close()
    bad = swr(
        "run", str(linear_release), "-a", "nop", "-i", f"@{tmp_path / 'nope'}", "--jobs-dir", str(tmp_path / "jobs")
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--include" in bad.stderr, bad.stderr
