"""`copied_original` (issue 23 §2): a deleted-module revival rebuilt by copying the original fails its run, and
no exporter takes it. On the shipped toolz-itertoolz task, graded for real (bwrap): a verbatim copy, a copy
with its local names renamed, docstrings and comments gone and the code reformatted (caught with canonical
identifiers), and a copy moved into another file, reordered and padded, each pass every hidden test and probe
and still fail with the finding; the task's own reference (the oracle agent) passes with no finding; a
scripted agent's copying run is recorded as failed and `swr export sft` exports nothing of it."""

from __future__ import annotations

import ast
import json
import random
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, swr
from test_agents import Scripted

from swr import kinds
from swr.export.harbor_judge import reward_of
from swr.export.sft import export_sft
from swr.harness.run import JobConfig, run_job
from swr.kinds.revival.task import RevivalTask
from swr.kinds.verdict import parse_verdict
from swr.sandbox import get_sandbox

PLAIN = "toolz-itertoolz"
MODULE = "toolz/itertoolz.py"
# deleted-module tasks with an honest rebuild in their revival folder's reference/: the module's path in each
REBUILT = {PLAIN: MODULE, "more-itertools-recipes": "more_itertools/recipes.py"}


@pytest.fixture(scope="module")
def task(revival_release: Path) -> RevivalTask:
    t = kinds.load(revival_release / "tasks" / PLAIN)
    assert isinstance(t, RevivalTask)
    return t


def _original(task: RevivalTask) -> str:
    return (task.reference_dir / "module" / MODULE).read_text()


def _candidate(task: RevivalTask, dest: Path, files: dict[str, str]) -> Path:
    shutil.copytree(task.project, dest, symlinks=True)
    for rel, text in files.items():
        (dest / rel).write_text(text)
    return dest


class _Locals(ast.NodeTransformer):
    """Every name a function assigns (not its parameters: callers pass them by keyword) renamed, the same way
    throughout the function; docstrings dropped."""

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        params = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
        stored = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        names = {n: f"v{i}_{n[::-1]}" for i, n in enumerate(sorted(stored - params))}
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id in names:
                n.id = names[n.id]
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            node.body = node.body[1:] or [ast.Pass()]
        return self.generic_visit(node)


def renamed(text: str) -> str:
    """The original with its local names renamed, no docstring or comment, reformatted by ast.unparse."""
    return ast.unparse(_Locals().visit(ast.parse(text))) + "\n"


def _grade_cli(task: RevivalTask, cand: Path) -> tuple[int, dict]:
    res = swr("grade", str(task.root), str(cand), "--json", timeout=900)
    return res.returncode, json.loads(res.stdout)


def test_a_verbatim_copy_passes_every_test_and_fails_as_copied_original(task: RevivalTask, tmp_path: Path) -> None:
    code, v = _grade_cli(task, _candidate(task, tmp_path / "c", {MODULE: _original(task)}))
    n = v["score"].split("/")[1]
    assert code == 1 and not v["pass"] and v["labels"] == ["copied_original"], v["labels"]
    assert v["score"] == f"{n}/{n}"  # the tests and probes pass: only the finding fails it
    (f,) = v["anticheat"]
    assert f["kind"] == "copied_original" and f["ratio"] == f["ratio_canonical"] == 1.0 and f["score"] == 1.0
    assert f["threshold"] == v["similarity"]["threshold"] >= 0.8
    reward = reward_of(parse_verdict(v))  # what an exported Harbor task's judge writes for it
    assert reward.reward == 0.0 and reward.anti_shortcut == 0.0 and reward.semantic == 1.0


def test_a_renamed_reformatted_copy_is_caught_with_canonical_identifiers(task: RevivalTask, tmp_path: Path) -> None:
    text = renamed(_original(task))
    assert "#" not in text and text != _original(task)
    code, v = _grade_cli(task, _candidate(task, tmp_path / "c", {MODULE: text}))
    n = v["score"].split("/")[1]
    assert code == 1 and v["labels"] == ["copied_original"] and v["score"] == f"{n}/{n}", (v["labels"], v["score"])
    sim = v["similarity"]
    assert sim["ratio"] < sim["threshold"] <= sim["ratio_canonical"], sim  # plain lines no longer match


def test_the_obfuscated_variants_module_submitted_to_the_plain_task_is_caught(
    task: RevivalTask, revival_release: Path, tmp_path: Path
) -> None:
    """The original under the obfuscation's names, shuffled and unparsed: nothing of its plain lines is left,
    its shape is."""
    var = next(
        kinds.load(d)
        for d in (revival_release / "tasks").iterdir()
        if (d / "task.toml").is_file() and kinds.load(d).meta.obfuscated
    )
    module = var.reference_dir / "module" / (var.spec.module.replace(".", "/") + ".py")
    v = task.grade(_candidate(task, tmp_path / "c", {MODULE: module.read_text()}), get_sandbox("bwrap"))
    sim = v.similarity
    assert v.labels[0] == "copied_original" and sim["ratio"] < 0.2 and sim["coverage_canonical"] >= sim["threshold"]


def test_a_copy_kept_as_data_and_executed_by_the_module_is_caught(task: RevivalTask, tmp_path: Path) -> None:
    """The module execs a data file (not a `*.py`) holding the original: a copy under any name is compared."""
    loader = "import pathlib\nexec(pathlib.Path(__file__).with_name('tables.dat').read_text())\n"
    cand = _candidate(task, tmp_path / "c", {"toolz/tables.dat": _original(task), MODULE: loader})
    v = task.grade(cand, get_sandbox("bwrap"))
    n = v.score.split("/")[1]
    assert v.labels == ["copied_original"] and v.score == f"{n}/{n}", (v.labels, v.score)


def test_a_copy_moved_reordered_and_padded_is_still_caught(task: RevivalTask, tmp_path: Path) -> None:
    """The module re-exports a file holding the original's definitions in another order, after as much
    unrelated code again: the paper's ratio falls, the definition-wise coverage does not."""
    tree = ast.parse(_original(task))
    head = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]
    rest = [s for s in tree.body if not isinstance(s, (ast.Import, ast.ImportFrom))]
    random.Random(5).shuffle(rest)
    defs = [s for s in rest if isinstance(s, (ast.FunctionDef, ast.ClassDef))]
    others = [s for s in rest if s not in defs]
    filler = "".join(f"def pad{i}(a, b):\n    c = [a] * {i}\n    return c, b + {i}\n\n" for i in range(300))
    body = (
        ast.unparse(ast.Module(body=[*head, *others], type_ignores=[]))
        + "\n\n"
        + filler
        + ast.unparse(ast.Module(body=defs, type_ignores=[]))
        + "\n"
    )
    body = body.replace("__all__ = (", "__all__ = ('pad0', ", 1)
    cand = _candidate(
        task,
        tmp_path / "c",
        {"toolz/_impl.py": body, MODULE: "from toolz._impl import *\nfrom toolz._impl import __all__\n"},
    )
    v = task.grade(cand, get_sandbox("bwrap"))
    sim = v.similarity
    assert "copied_original" in v.labels and sim["ratio"] < 0.6 <= sim["threshold"] <= sim["coverage"], sim


def test_the_oracle_agent_passes_without_a_finding_and_nop_is_not_flagged(
    revival_release: Path, tmp_path: Path
) -> None:
    """The oracle writes the task's honest rebuild (private/reference/rebuild): measured, far below the
    threshold. nop changes nothing: nothing of the original is found."""
    task = kinds.load(revival_release / "tasks" / PLAIN)
    assert (task.reference_dir / "rebuild" / MODULE).is_file()
    for agent in ("oracle", "nop"):
        (r,) = run_job(JobConfig(release=revival_release, agent=agent, jobs_dir=tmp_path / "jobs", include=(PLAIN,)))
        assert not any(f.get("kind") == "copied_original" for f in r.verdict.anticheat), r.verdict.anticheat
        sim = r.verdict.similarity
        assert r.passed is (agent == "oracle") and 0 <= sim["score"] < sim["threshold"] - 0.3, sim
        assert (sim["score"] > 0) is (agent == "oracle")


@pytest.mark.parametrize("task_id", sorted(REBUILT))
def test_the_calibration_is_recorded_and_honest_code_scores_below_it(revival_release: Path, task_id: str) -> None:
    """build.json holds the threshold and the honest values it was chosen from (the revival folder's honest
    rebuild, and the project's own other modules: its authors' code that copies nothing of the module), each
    below it by the margin; the build graded the honest rebuild as an agent's and it passed with no finding."""
    task = kinds.load(revival_release / "tasks" / task_id)
    record = json.loads(task.paths.build_record.read_text())
    cal = record["similarity"]
    assert cal["threshold"] >= 0.8 and cal["original"]["score"] == 1.0
    honest = cal["honest"]
    assert set(honest) == {"reference rebuild", "project's other modules"}, honest
    assert all(v["score"] + cal["margin"] <= cal["threshold"] for v in honest.values()), honest
    assert record["rebuild"]["pass"] and record["rebuild"]["labels"] == []


@pytest.mark.parametrize("task_id", sorted(REBUILT))
def test_the_honest_rebuild_passes_with_no_finding(revival_release: Path, task_id: str, tmp_path: Path) -> None:
    """The module rebuilt without the original's text (revivals/<task>/reference), graded through `swr grade`
    as any candidate: every test and probe pass, no finding, its similarity well below the threshold."""
    task = kinds.load(revival_release / "tasks" / task_id)
    module = REBUILT[task_id]
    rebuild = ROOT / "revivals" / task_id / "reference" / module
    code, v = _grade_cli(task, _candidate(task, tmp_path / "c", {module: rebuild.read_text()}))
    assert code == 0 and v["pass"] and v["labels"] == [] and v["anticheat"] == [], v["labels"]
    assert v["similarity"]["score"] + 0.1 <= v["similarity"]["threshold"], v["similarity"]


def test_reordering_and_padding_do_not_lower_coverage() -> None:
    from swr.kinds.revival.copied import measure

    a = "def f(x):\n    y = x + 1\n    return y * 2\n\n\ndef g(s):\n    for c in s:\n        yield c.upper()\n"
    swapped = "def g(s):\n    for c in s:\n        yield c.upper()\n\n\ndef f(x):\n    y = x + 1\n    return y * 2\n"
    pad = "".join(f"def h{i}(q):\n    return q - {i}\n" for i in range(40))
    m = measure([a], [pad + swapped])
    assert m["coverage"] == m["coverage_canonical"] == 1.0 and m["ratio"] < 0.3
    other = "def f(x):\n    return sum(range(x))\n\n\ndef g(s):\n    return ''.join(reversed(s))\n"
    assert measure([a], [other])["score"] < 0.5


def test_a_copying_agents_run_fails_and_export_sft_takes_nothing_of_it(
    task: RevivalTask, revival_release: Path, tmp_path: Path
) -> None:
    """A scripted model writes the original into the workspace: the run is recorded as failed with the
    finding, and `swr export sft` has no verified trajectory (it says why)."""
    script = [
        [("write_file", {"path": f"solution/{MODULE}", "content": _original(task)})],
        [("bash", {"command": "./feedback --json"})],
        [("finish", {})],
    ]
    srv = Scripted(script)
    try:
        (r,) = run_job(
            JobConfig(
                release=revival_release,
                agent="openai",
                model="m",
                job="copy",
                jobs_dir=tmp_path / "jobs",
                concurrency=1,
                retries=0,
                include=(PLAIN,),
                agent_options={"base_url": srv.url},
            )
        )
    finally:
        srv.close()
    assert not r.passed and r.label == "copied_original", (r.label, r.error)
    assert r.verdict.score.split("/")[0] == r.verdict.score.split("/")[1]
    res = swr("export", "sft", "copy", "--jobs-dir", str(tmp_path / "jobs"), "--out", str(tmp_path / "c.jsonl"))
    assert res.returncode == 2 and "copied_original: 1" in res.stderr, res.stderr
    assert not (tmp_path / "c.jsonl").exists()
    with pytest.raises(Exception, match="copied_original: 1"):
        export_sft(tmp_path / "jobs", ["copy"], tmp_path / "d.jsonl")
