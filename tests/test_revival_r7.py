"""Revival tasks in the harness and the reports, on the shipped revival (more-itertools 10.2.0, recipes deleted):
`./feedback` inside an agent's sandbox runs the public tests in the task's target venv (mounted read-only for
it), `swr results --cohort/--cutoff` splits pass rates plain vs obfuscated and before vs after a release date
(other kinds: "n/a"), `swr audit achievability` grades revival tasks (oracle 1, nop 0) and every other audit
lists them as not applicable with a reason."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import release_slice, swr

from swr import kinds
from swr.audit.freeze import families
from swr.core.errors import SwrError
from swr.harness import workspace
from swr.harness.run import JobConfig, run_dir, run_job
from swr.kinds.revival.task import MODULE_REF, REBUILD_REF, RevivalTask
from swr.sandbox import get_sandbox

TASK = "more-itertools-recipes"
RECIPES = Path("more_itertools") / "recipes.py"
# The agent's command: ./feedback on the broken project, the module restored, ./feedback again.
SCRIPT = """./feedback --json > "$SWR_LOGS/before.json" 2> "$SWR_LOGS/before.err"
cat > solution/more_itertools/recipes.py <<'SWR_R7_EOF'
{module}SWR_R7_EOF
./feedback --json > "$SWR_LOGS/after.json" 2> "$SWR_LOGS/after.err"
echo done
"""


@pytest.fixture(scope="session")
def release(revival_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return release_slice(revival_release, (TASK,), tmp_path_factory.mktemp("slice") / "rel")


@pytest.fixture(scope="session")
def task(release: Path) -> RevivalTask:
    t = kinds.load(release / "tasks" / TASK)
    assert isinstance(t, RevivalTask)
    return t


@pytest.fixture(scope="session")
def command_run(release: Path, task: RevivalTask, tmp_path_factory: pytest.TempPathFactory) -> tuple[JobConfig, Path]:
    """One real `swr run -a command` whose command calls ./feedback before and after restoring the module."""
    module = (task.reference_dir / MODULE_REF / RECIPES).read_text()
    assert "SWR_R7_EOF" not in module
    cfg = JobConfig(
        release=release,
        agent="command",
        jobs_dir=tmp_path_factory.mktemp("jobs"),
        concurrency=1,
        agent_options={"command": SCRIPT.format(module=module), "network": False},
    )
    recs = run_job(cfg)
    assert len(recs) == 1 and recs[0].status == "done", (recs[0].error, recs[0].verdict)
    return cfg, run_dir(cfg, recs[0].key).logs


def test_feedback_in_the_agents_sandbox_runs_the_public_tests_in_the_target_venv(
    command_run: tuple[JobConfig, Path],
) -> None:
    """Without the target venv and interpreter mounted (and found) in the agent's sandbox, ./feedback cannot
    run: a missing interpreter or spec, exit 2, and no verdict at all."""
    logs = command_run[1]
    before_err, after_err = ((logs / f"{n}.err").read_text() for n in ("before", "after"))
    assert before_err == "" and after_err == "", (before_err, after_err)
    before = json.loads((logs / "before.json").read_text())
    after = json.loads((logs / "after.json").read_text())
    # the broken project: the public test file cannot even be collected, and pytest's account says why
    assert before["kind"] == "revival" and before["split"] == "public" and not before["pass"]
    assert before["labels"] == ["tests_failed"] and before["score"] == "0/1"
    assert before["records"] == [
        {"case": "collect:tests/test_more.py", "check": "test", "pass": False, "detail": "error"}
    ]
    assert "recipes" in before["detail"], before["detail"][-500:]
    # restored: every public test ran in the target venv and passed; no hidden test or probe was run
    assert after["pass"] and after["labels"] == [] and len(after["records"]) > 300, after["labels"]
    assert all(r["case"].startswith("tests/test_more.py::") and r["check"] == "test" for r in after["records"])
    k, n = after["score"].split("/")
    assert k == n == str(len(after["records"]))


def test_the_run_that_restored_the_module_by_copying_it_fails_with_its_score(
    command_run: tuple[JobConfig, Path],
) -> None:
    """The command writes the original recipes.py back: every hidden test and probe passes (its score says so)
    and the run fails as a copied_original (issue 23 §2: it passed 627/627 before)."""
    cfg = command_run[0]
    res = swr("results", cfg.name, "--jobs-dir", str(cfg.jobs_dir), "--json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    k, n = doc["scores"][TASK].split("/")
    assert doc["passed"] == 0 and k == n and int(n) > 500, doc["scores"]
    (r,) = run_job(cfg)  # the recorded run, read back (the job resumes)
    assert r.label == "copied_original" and r.verdict.similarity["ratio"] == 1.0, r.label


def test_agent_sandbox_mounts_only_for_revival_tasks(task: RevivalTask, linear_release: Path) -> None:
    mounts, env = task.agent_sandbox()
    venv = task.verifier().venv
    assert {m.dst for m in mounts} == {str(venv.root), str(venv.prefix)} and {m.mode for m in mounts} == {"ro"}
    assert set(env) == {"PYENV_ROOT", "SWR_CACHE"}
    other = kinds.load(next((linear_release / "tasks").iterdir()))
    assert other.agent_sandbox() == ((), {})


def test_a_workspace_copy_grades_only_the_public_split(task: RevivalTask, tmp_path: Path) -> None:
    """The workspace holds no private half: ./feedback works from task.toml, a full grade is refused."""
    ws = workspace.create(task, tmp_path / "ws")
    copy = kinds.load(ws.root)
    with pytest.raises(SwrError, match="revival.toml"):
        copy.grade(ws.solution, get_sandbox("bwrap"), split="all")
    v = copy.grade(ws.solution, get_sandbox("bwrap"), split="public")
    assert not v.passed and v.records[0].case == "collect:tests/test_more.py"


def _results(job: str, jobs_dir: Path, *args: str) -> dict:
    res = swr("results", job, "--jobs-dir", str(jobs_dir), "--json", *args)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_results_by_cohort(release: Path, linear_release: Path, tmp_path: Path) -> None:
    """A release of a plain revival task, an obfuscated twin whose reference is gone (its oracle fails) and a
    workflow task: the oracle's pass rates split plain / obfuscated / n/a and before / on-or-after a cutoff."""
    mixed = shutil.copytree(release, tmp_path / "mixed", symlinks=True)
    twin = shutil.copytree(mixed / "tasks" / TASK, mixed / "tasks" / f"{TASK}-obf", symlinks=True)
    toml = (twin / "task.toml").read_text()
    assert "obfuscated = false" in toml and f'id = "{TASK}"' in toml
    (twin / "task.toml").write_text(
        toml.replace("obfuscated = false", "obfuscated = true").replace(f'id = "{TASK}"', f'id = "{TASK}-obf"')
    )
    for ref in (MODULE_REF, REBUILD_REF):  # no original and no honest rebuild: nothing for its oracle to write
        shutil.rmtree(twin / "private" / "reference" / ref)
    workflow = next((linear_release / "tasks").iterdir())
    shutil.copytree(workflow, mixed / "tasks" / workflow.name, symlinks=True)
    jobs = tmp_path / "jobs"
    run_job(JobConfig(release=mixed, agent="oracle", job="oracle", jobs_dir=jobs, include=(f"{TASK}*", workflow.name)))
    doc = _results("oracle", jobs, "--cohort", "obfuscated", "--cutoff", "2024-01-08")
    assert doc["passed"] == 2 and doc["runs"] == 3
    assert doc["cohorts"]["obfuscated"] == {
        "n/a": {"tasks": 1, "runs": 1, "passed": 1, "pass_at_1": 1.0},
        "obfuscated": {"tasks": 1, "runs": 1, "passed": 0, "pass_at_1": 0.0},
        "plain": {"tasks": 1, "runs": 1, "passed": 1, "pass_at_1": 1.0},
    }
    assert set(doc["cohorts"]["released"]) == {"n/a", "released >= 2024-01-08"}  # released on the cutoff
    later = _results("oracle", jobs, "--cutoff", "2024-01-09")
    assert list(later["cohorts"]) == ["released"] and later["cutoff"] == "2024-01-09"
    assert later["cohorts"]["released"]["released < 2024-01-09"] == {
        "tasks": 2,
        "runs": 2,
        "passed": 1,
        "pass_at_1": 0.5,
    }
    table = swr("results", "oracle", "--jobs-dir", str(jobs), "--cohort", "obfuscated")
    assert table.returncode == 0 and "oracle by obfuscated" in table.stdout and "plain" in table.stdout


@pytest.mark.parametrize(
    "args, field",
    [
        (("--cutoff", "2024-13-01"), "--cutoff"),
        (("--cohort", "colour"), "--cohort"),
        (("--cohort", "released"), "--cutoff"),
    ],
)
def test_a_bad_cohort_option_is_one_line(
    command_run: tuple[JobConfig, Path], args: tuple[str, ...], field: str
) -> None:
    cfg = command_run[0]
    res = swr("results", cfg.name, "--jobs-dir", str(cfg.jobs_dir), *args)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and f"field `{field}`" in res.stderr


def _audit(*args: str) -> dict:
    res = swr("audit", *args, "--json")
    assert res.returncode in (0, 1), res.stderr
    return json.loads(res.stdout)


def test_achievability_grades_revival_tasks(release: Path) -> None:
    doc = _audit("achievability", str(release))
    (row,) = doc["tasks"]
    k, n = row["score"].split("/")
    assert row["kind"] == "revival" and row["oracle_pass"] and not row["nop_pass"] and k == n
    assert doc["not_applicable"] == [] and doc["unachievable"] == [] and doc["passed_by_nop"] == []


@pytest.mark.parametrize("audit", ["consensus", "lint", "mutation", "replay", "sensitivity"])
def test_other_audits_list_revival_tasks_as_not_applicable(release: Path, tmp_path: Path, audit: str) -> None:
    args = [str(tmp_path)] if audit == "consensus" else []
    doc = _audit(audit, str(release), *args)
    (na,) = doc["not_applicable"]
    assert na["task"] == TASK and na["kind"] == "revival"
    assert "does not cover" not in na["why"] and len(na["why"]) > 40  # a reason, not the default line


def test_freeze_and_bundles_leave_revival_tasks_out(release: Path, tmp_path: Path) -> None:
    by_family, na = families(release)
    assert by_family == {} and [(n["task"], n["kind"]) for n in na] == [(TASK, "revival")]
    doc = _audit("bundles", str(release), "--out", str(tmp_path / "b"))
    assert [(n["task"], n["kind"]) for n in doc["not_applicable"]] == [(TASK, "revival")]


def test_the_report_shows_a_revival_run_like_any_other(command_run: tuple[JobConfig, Path], tmp_path: Path) -> None:
    """`swr report` over the revival job: the task in the matrix with its score, the run's page with its
    trajectory and verdict, the release's task listed under its kind (issue 13: revival tasks go through the
    report like the other kinds)."""
    from test_report import cells, dom

    from swr.core.layout import ReportPaths

    cfg = command_run[0]
    out = tmp_path / "report"
    res = swr("report", cfg.name, "--jobs-dir", str(cfg.jobs_dir), "--out", str(out))
    assert res.returncode == 0, res.stderr
    doc = dom(ReportPaths(out).index)
    (row,) = cells(doc, "matrix-table")
    assert row[0] == TASK and any("/" in c for c in row[3:]), row  # its score; the run is a copied_original
    assert not any(c.startswith("pass") for c in row[3:]), row
    assert "by kind: revival 1" in " ".join(doc.xpath("string(//p[starts-with(., 'by kind')])").split())
    pages = list(ReportPaths(out).runs.glob("*.html"))
    assert len(pages) == 1 and TASK in pages[0].read_text() and "feedback" in pages[0].read_text()
