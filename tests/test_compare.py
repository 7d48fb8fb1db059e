"""`swr results JOB JOB…`: model comparison. Real jobs of the OpenAI-compatible agent against scripted
endpoints (one model passes a task the other fails, both pass another, an unreachable endpoint is an
infrastructure failure), and the metrics' arithmetic on hand-made records in a real store."""

from __future__ import annotations

import json
import socket
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import swr
from test_agents import RIGHT, WRONG, Scripted

from swr.harness.matrix import compare_jobs, pearson, spearman
from swr.harness.run import JobConfig, run_job
from swr.harness.store import RunRecord, Store
from swr.kinds.verdict import parse_verdict

# ------------------------------------------------------------------ real jobs, through the CLI


def _script(*programs: str) -> list[Any]:
    """One run per program: write it as solution/run, then finish."""
    return [
        reply
        for p in programs
        for reply in ([("write_file", {"path": "solution/run", "content": p})], [("finish", {})])
    ]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def jobs(linear_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """model-a passes both variants; model-b fails v1 and passes v2, and its second job (another endpoint,
    pooled with the first) cannot reach its endpoint at all."""
    d = tmp_path_factory.mktemp("compare") / "jobs"
    a, b = Scripted(_script(RIGHT, RIGHT)), Scripted(_script(WRONG, RIGHT))
    try:
        for name, model, url, extra in (
            ("ja", "model-a", a.url, {"price_in": 2, "price_out": 10}),
            ("jb", "model-b", b.url, {}),
            ("jc", "model-b", f"http://127.0.0.1:{_closed_port()}/v1", {"max_retries": 0}),
        ):
            cfg = JobConfig(
                release=linear_release,
                agent="openai",
                model=model,
                job=name,
                jobs_dir=d,
                concurrency=1,
                retries=0,
                include=("good-linear-v1",) if name == "jc" else (),
                agent_options={"base_url": url, **extra},
            )
            run_job(cfg)
    finally:
        a.close()
        b.close()
    yield d


def _runs(d: Path, job: str) -> list[RunRecord]:
    store = Store(d)
    try:
        return store.runs(job)
    finally:
        store.close()


def test_the_scripted_jobs_did_what_the_comparison_relies_on(jobs: Path) -> None:
    assert [(r.task, r.passed) for r in _runs(jobs, "ja")] == [("good-linear-v1", True), ("good-linear-v2", True)]
    assert [(r.task, r.passed, r.label) for r in _runs(jobs, "jb")] == [
        ("good-linear-v1", False, "numeric_mismatch"),
        ("good-linear-v2", True, "pass"),
    ]
    (infra,) = _runs(jobs, "jc")
    assert infra.status == "infra_failure" and "APIConnectionError" in (infra.error or ""), infra.error


def _rows(stdout: str, first: str) -> list[list[str]]:
    """The cells of every table row starting with `first` (rich's box lines split on │)."""
    rows = [[c.strip() for c in line.strip("│ ").split("│")] for line in stdout.splitlines() if "│" in line]
    return [r for r in rows if r[0] == first]


def test_results_over_two_models_prints_the_matrix_and_per_model_rows(jobs: Path, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "220")
    res = swr("results", "jb", "ja", "jc", "--jobs-dir", str(jobs))
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "model x task" in out and "per model" in out
    (v1,) = _rows(out, "good-linear-v1")[:1]
    assert v1 == ["good-linear-v1", "pass", "fail (numeric_mismatch)"], out
    assert _rows(out, "good-linear-v2")[0] == ["good-linear-v2", "pass", "pass"]
    (a, a_effort), (b, b_effort) = _rows(out, "openai/model-a"), _rows(out, "openai/model-b")
    # model, runs, valid, infra, passes, first-attempt, pass@1 | model, jobs, turns, tokens, cost, agreement
    assert a == ["openai/model-a", "2", "2", "0", "2", "1.000", "1.000"] and a_effort[1] == "ja"
    assert b == ["openai/model-b", "3", "2", "1", "1", "0.333", "0.500"] and b_effort[1] == "jb, jc"
    assert a_effort[5] == "-" and 0.0 < float(b_effort[5]) < 1.0  # the failed run matched some hidden fields
    assert "non-discriminating" in out and _rows(out, "good-linear-v2")[-1] == ["good-linear-v2"]


def test_json_gives_the_same_numbers(jobs: Path, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "220")
    res = swr("results", "ja", "jb", "jc", "--jobs-dir", str(jobs), "--json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    table = swr("results", "ja", "jb", "jc", "--jobs-dir", str(jobs)).stdout
    assert doc["jobs"] == ["ja", "jb", "jc"] and doc["k"] == 1
    for m in doc["models"]:
        runs, effort = _rows(table, m["model"])
        assert runs[1:] == [
            str(m["runs"]),
            str(m["valid_runs"]),
            str(m["infra_failures"]),
            str(m["passes"]),
            f"{m['first_attempt_pass_rate']:.3f}",
            f"{m['pass_at_k']:.3f}",
        ]
        assert effort[2:5] == [f"{m['median_turns']:g}", f"{m['median_tokens']:g}", f"{m['total_cost']:.4f}"]
    a, b = doc["models"]
    recs = _runs(jobs, "ja")
    assert a["median_turns"] == 2 and a["median_tokens"] == statistics.median(
        r.input_tokens + r.output_tokens for r in recs
    )
    assert a["total_cost"] == pytest.approx(sum((r.input_tokens * 2 + r.output_tokens * 10) / 1e6 for r in recs))
    assert a["total_cost"] > 0 and b["total_cost"] == 0 and b["jobs"] == ["jb", "jc"] and b["agent"] == "openai"
    assert doc["matrix"]["good-linear-v1"]["openai/model-b"] == {
        "passed": False,
        "score": None,
        "label": "numeric_mismatch",
        "job": "jb",
        "run": _runs(jobs, "jb")[0].key,
    }
    assert doc["tasks"] == [
        {
            "task": f"good-linear-v{i}",
            "domain": "data-document",
            "family": "fixtures",
            "kind": "workflow",
            "successes": s,
        }
        for i, s in ((1, 1), (2, 2))
    ]
    assert doc["success_distribution"] == {"0": 0, "1": 1, "2": 1}
    assert doc["non_discriminating"] == ["good-linear-v2"]
    assert doc["family_turns_correlation"] == {"n": 1, "pearson": None, "spearman": None}
    again = swr("results", "jc", "jb", "ja", "--jobs-dir", str(jobs), "--json")
    assert again.stdout == res.stdout  # the order jobs are named in changes nothing


def test_one_job_keeps_its_summary_as_tables_and_its_json(jobs: Path, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "220")
    res = swr("results", "jb", "--jobs-dir", str(jobs))
    assert res.returncode == 0 and "model x task" not in res.stdout, res.stderr
    assert _rows(res.stdout, "2") and _rows(res.stdout, "2")[0][:3] == ["2", "1", "0.500"]
    assert _rows(res.stdout, "numeric_mismatch") == [["numeric_mismatch", "1"]]
    assert _rows(res.stdout, "data-document") == [["data-document", "2", "0.500"]]
    doc = json.loads(swr("results", "jb", "--jobs-dir", str(jobs), "--json").stdout)
    assert (doc["runs"], doc["passed"], doc["pass_at_1"], doc["labels"]) == (
        2,
        1,
        0.5,
        {"numeric_mismatch": 1, "pass": 1},
    )


@pytest.mark.parametrize(
    "args, needle",
    [
        (("ja", "nope"), "'nope'"),
        (("ja", "jb", "-k", "2"), "field `-k`"),
        (("ja", "jb", "--cohort", "obfuscated"), "field `--cohort`"),
    ],
)
def test_bad_requests_are_one_line(jobs: Path, args: tuple[str, ...], needle: str) -> None:
    res = swr("results", *args, "--jobs-dir", str(jobs))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and needle in res.stderr, res.stderr
    if "nope" in args:
        assert str(jobs) in res.stderr  # names the store it looked in


# ------------------------------------------------------------------ the arithmetic, on hand-made records


def _engine(score: str, passed: bool) -> dict[str, Any]:
    return {
        "kind": "engine",
        "task": "e1",
        "pass": passed,
        "score": score,
        "label": "pass" if passed else "tolerance",
        "labels": [] if passed else ["tolerance"],
        "failed_checks": [],
        "records": [],
        "cases": [],
    }


def _workflow(agreement: float, passed: bool, label: str = "numeric_mismatch") -> dict[str, Any]:
    return {
        "task": "w1",
        "pass": passed,
        "label": None if passed else label,
        "labels": [] if passed else [label],
        "r_hid": 1.0 if passed else 0.0,
        "r_pub": None,
        "field_agreement": agreement,
        "anti_shortcut": [],
        "scenarios": [],
    }


def _store(d: Path, jobs: dict[str, tuple[str, list[tuple[str, int, dict[str, Any] | None]]]]) -> None:
    """Jobs of the openai agent: {job: (model, [(task, attempt, record fields or None: no record)])}."""
    store = Store(d)
    try:
        for job, (model, runs) in jobs.items():
            planned = [[t, a, f"{job}-{t}-{a}"] for t, a, _ in runs]
            store.put_job(job, {"agent": "openai", "model": model, "release": str(d / "gone"), "planned": planned})
            for (t, a, fields), (_, _, key) in zip(runs, planned):
                if fields is not None:
                    store.put_run(
                        RunRecord(
                            key=key, job=job, task=t, task_hash="h", agent="openai", model=model, attempt=a, **fields
                        )
                    )
    finally:
        store.close()


def _done(verdict: dict[str, Any], turns: int, tokens: int, cost: float, family: str = "f") -> dict[str, Any]:
    return {
        "status": "done",
        "passed": verdict["pass"],
        "label": "pass" if verdict["pass"] else verdict["label"],
        "verdict": parse_verdict(verdict),
        "turns": turns,
        "input_tokens": tokens,
        "output_tokens": 1,
        "cost": cost,
        "family": family,
        "domain": "d",
    }


INFRA = {"status": "infra_failure", "error": "endpoint down"}
MISSING = _workflow(0.0, False, "missing_candidate")


def test_per_model_accounting_on_known_records(tmp_path: Path) -> None:
    _store(
        tmp_path,
        {
            "ja": (
                "m1",
                [
                    ("e1", 1, _done(_engine("2/4", False), 10, 109, 0.5)),
                    ("e1", 2, _done(_engine("4/4", True), 4, 54, 0.25)),
                    ("w1", 1, _done(_workflow(0.75, False), 20, 219, 1.0)),
                    ("w1", 2, _done(MISSING, 30, 329, 2.0)),
                ],
            ),
            "jb": ("m2", [("e1", 1, _done(_engine("3/4", False), 6, 9, 0.0)), ("w1", 1, INFRA)]),
            "jc": ("m2", [("e1", 1, None), ("w1", 1, _done(_workflow(1.0, True), 8, 9, 0.0))]),
        },
    )
    doc = compare_jobs(tmp_path, ["jc", "ja", "jb"], None)
    m1, m2 = doc["models"]
    assert doc["k"] == 2 and [m1["model"], m2["model"]] == ["openai/m1", "openai/m2"]
    assert {
        k: m1[k]
        for k in (
            "runs",
            "valid_runs",
            "infra_failures",
            "passes",
            "first_attempt_pass_rate",
            "pass_at_k",
            "median_turns",
            "median_tokens",
            "total_cost",
        )
    } == {
        "runs": 4,
        "valid_runs": 3,
        "infra_failures": 0,
        "passes": 1,
        "first_attempt_pass_rate": 0.0,
        "pass_at_k": 0.5,
        "median_turns": 15.0,
        "median_tokens": 165.0,
        "total_cost": 3.75,
    }
    assert m1["mean_failed_agreement"] == pytest.approx((0.5 + 0.75) / 2)  # the missing program is not scored
    assert {
        k: m2[k]
        for k in (
            "jobs",
            "runs",
            "valid_runs",
            "infra_failures",
            "passes",
            "first_attempt_pass_rate",
            "pass_at_k",
            "median_turns",
            "mean_failed_agreement",
        )
    } == {
        "jobs": ["jb", "jc"],
        "runs": 4,
        "valid_runs": 2,
        "infra_failures": 1,
        "passes": 1,
        "first_attempt_pass_rate": 0.25,
        "pass_at_k": 0.5,
        "median_turns": 7.0,
        "mean_failed_agreement": 0.75,
    }
    assert doc["matrix"]["e1"] == {
        "openai/m1": {"passed": True, "score": "4/4", "label": "pass", "run": "ja-e1-2", "job": "ja"},
        "openai/m2": {"passed": False, "score": "3/4", "label": "tolerance", "run": "jb-e1-1", "job": "jb"},
    }
    assert doc["matrix"]["w1"]["openai/m1"]["run"] == "ja-w1-1"  # the higher agreement of two failures
    assert [(t["task"], t["kind"], t["family"], t["successes"]) for t in doc["tasks"]] == [
        ("e1", "engine", "f", 1),
        ("w1", "workflow", "f", 1),
    ]  # no release left: read from the records
    assert doc["success_distribution"] == {"0": 0, "1": 2, "2": 0} and doc["non_discriminating"] == []
    one = compare_jobs(tmp_path, ["ja", "jb", "jc"], 1)
    assert [m["pass_at_k"] for m in one["models"]] == [0.25, 0.25]


def test_one_job_holding_two_models_is_a_comparison(tmp_path: Path) -> None:
    _store(tmp_path, {"mixed": ("m1", [("t", 1, _done(_workflow(1.0, True), 1, 1, 0)), ("t", 2, None)])})
    store = Store(tmp_path)
    try:
        failed = _done(_workflow(0.2, False), 1, 1, 0)
        store.put_run(
            RunRecord(
                key="mixed-t-2", job="mixed", task="t", task_hash="h", agent="openai", model="m2", attempt=2, **failed
            )
        )
    finally:
        store.close()
    res = swr("results", "mixed", "--jobs-dir", str(tmp_path), "--json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert [(m["model"], m["passes"], m["first_attempt_pass_rate"]) for m in doc["models"]] == [
        ("openai/m1", 1, 1.0),
        ("openai/m2", 0, 0.0),
    ]  # m2 made no attempt 1: nothing in its denominator
    assert doc["success_distribution"] == {"0": 0, "1": 1, "2": 0}


def test_a_missing_record_and_an_infra_failure_rank_below_a_failure(tmp_path: Path) -> None:
    _store(
        tmp_path,
        {
            "ja": ("m1", [("t", 1, None), ("t", 2, INFRA), ("t", 3, _done(_workflow(0.1, False), 1, 1, 0))]),
            "jb": ("m2", [("t", 1, None), ("t", 2, INFRA)]),
            "jc": ("m3", [("t", 1, None), ("u", 1, None)]),
        },
    )
    cells = compare_jobs(tmp_path, ["ja", "jb", "jc"], 1)["matrix"]
    assert cells["t"]["openai/m1"]["run"] == "ja-t-3" and cells["t"]["openai/m2"]["label"] == "infra_failure"
    assert cells["t"]["openai/m3"] == {"passed": False, "score": None, "label": "no_record", "run": None, "job": "jc"}
    assert cells["u"]["openai/m1"]["label"] == "not_planned"


def test_two_jobs_of_one_model_with_the_same_run_key_each_count_their_own_run(tmp_path: Path) -> None:
    """Runs are keyed by what they are, and each job owns its records: the same settings under a second job
    name plan the same key, and a record of the second job is never the first job's."""
    _store(tmp_path, {"a1": ("m1", [("t", 1, None)]), "b": ("m2", [("t", 1, _done(_workflow(0.5, False), 1, 1, 0))])})
    store = Store(tmp_path)
    try:
        store.put_job(
            "a2", {"agent": "openai", "model": "m1", "release": str(tmp_path), "planned": [["t", 1, "a1-t-1"]]}
        )
        store.put_run(
            RunRecord(
                key="a1-t-1",
                job="a2",
                task="t",
                task_hash="h",
                agent="openai",
                model="m1",
                attempt=1,
                **_done(_workflow(1.0, True), 3, 1, 0),
            )
        )
        assert store.runs("a1") == [] and [r.job for r in store.runs("a2")] == ["a2"]
    finally:
        store.close()
    doc = compare_jobs(tmp_path, ["a1", "a2", "b"], None)
    assert [(m["model"], m["runs"], m["records"], m["passes"], m["jobs"]) for m in doc["models"]] == [
        ("openai/m1", 2, 1, 1, ["a1", "a2"]),
        ("openai/m2", 1, 1, 0, ["b"]),
    ]
    assert doc["matrix"]["t"]["openai/m1"]["job"] == "a2" and doc["non_discriminating"] == []


def test_family_pass_rate_against_median_turns(tmp_path: Path) -> None:
    """Families A, B, C pass 2/2, 1/2, 0/2 runs with median turns 3, 15, 40; t1 is passed by both models."""

    def run(fam: str, ok: bool, turns: int) -> dict[str, Any]:
        return _done(_workflow(1.0 if ok else 0.5, ok), turns, 1, 0.0, family=fam)

    _store(
        tmp_path,
        {
            "x": ("p", [("t1", 1, run("A", True, 2)), ("t2", 1, run("B", True, 10)), ("t3", 1, run("C", False, 30))]),
            "y": ("q", [("t1", 1, run("A", True, 4)), ("t2", 1, run("B", False, 20)), ("t3", 1, run("C", False, 50))]),
        },
    )
    doc = compare_jobs(tmp_path, ["x", "y"], None)
    corr = doc["family_turns_correlation"]
    assert corr["n"] == 3 and corr["spearman"] == pytest.approx(-1.0)
    assert corr["pearson"] == pytest.approx(statistics.correlation([1.0, 0.5, 0.0], [3.0, 15.0, 40.0]))
    assert doc["non_discriminating"] == ["t1"] and doc["success_distribution"] == {"0": 1, "1": 1, "2": 1}


def test_correlations_need_three_points_and_variance() -> None:
    assert pearson([1, 2], [3, 4]) is None and spearman([1, 2], [4, 3]) is None
    assert pearson([1, 1, 1], [1, 2, 3]) is None and spearman([1, 2, 3], [5, 5, 5]) is None
    assert spearman([1, 1, 2], [1, 2, 3]) == pytest.approx(1.5 / 3**0.5)  # tied ranks share 1.5
    assert spearman([1, 2, 3, 4], [1, 4, 9, 100]) == pytest.approx(1.0)
    assert pearson([1, 2, 3, 4], [1, 4, 9, 100]) < 1.0


def test_correlations_pinned_values_and_no_warning_on_degenerate_input() -> None:
    """scipy's pearsonr/spearmanr give the hand-written coefficients' values (pinned here to 12 digits);
    the inputs scipy would answer with a warning and nan (a constant side, near-equal floats that do vary,
    unequal lengths) give None, or a number, silently."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pearson([1.0, 0.5, 0.0], [3.0, 15.0, 40.0]) == pytest.approx(-0.980039326448, abs=1e-12)
        assert spearman([0.2, 0.9, 0.4, 0.4, 0.7], [5.0, 1.0, 3.0, 4.0, 3.0]) == pytest.approx(
            -0.921052631579, abs=1e-12
        )
        assert spearman([3, 1, 2], [30, 10, 20]) == pytest.approx(1.0)
        for xs, ys in (
            ([0.1] * 3, [1.0, 2.0, 3.0]),
            ([1.0, 2.0, 3.0], [7.0] * 3),
            ([1, 2, 3], [1, 2]),
            ([], []),
            ([1.0], [2.0]),
        ):
            assert pearson(xs, ys) is None and spearman(xs, ys) is None
        r = pearson([1.0, 1.0 + 2**-52, 1.0], [1.0, 2.0, 3.0])  # varies by one ulp: a value, no warning
        assert r is not None and -1.0 <= r <= 1.0
