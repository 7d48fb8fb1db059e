"""Coverage as "a different part of the software" (issue 26, swr.kinds.workflow.coverage): the build records
which functions of its package each workflow's reference executes (private/coverage.json, the same bytes in
every build), nothing (with the reason) for a reference that is not Python; two workflows of a family that
execute the same functions are one workflow, a `swr audit lint` error unless accepted with a why; `swr catalog
list` shows each family's coverage from a release, or measured on demand, and the two agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import swr

from swr.assemble import BuildOptions, build
from swr.audit.lint import lint_audit
from swr.core.release_dir import list_tasks
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.coverage import (
    MIN_FUNCTIONS,
    OVERLAP_MAX,
    CoverageFile,
    coverage_path,
    coverage_scenarios,
    family_coverage,
    jaccard,
    over,
    packages_of,
    read_coverage,
    record,
)
from swr.kinds.workflow.reference import Runner
from swr.kinds.workflow.spec import load_spec
from swr.sandbox import Sandbox

# The fixture family's package, a copy in each workflow's directory (the probe counts it by module name).
PACKAGE = (
    """
def _setup():
    return 2.0

SCALE = _setup()  # called at import: every workflow pays it alike, so it never counts


def shared(x):
    return x * SCALE


def solve_a(x):
    return a0(x)


def solve_c(x):
    return c0(x) ** 2


def never(x):
    return x
"""
    + "".join(f"\n\ndef {n}{i}(x):\n    return {n}{i + 1}(x) + 1.0\n" for n in "ac" for i in range(10))
    + "".join(f"\n\ndef {n}10(x):\n    return shared(x)\n" for n in "ac")
)
A_SET = sorted(["helperpkg:shared", "helperpkg:solve_a", *(f"helperpkg:a{i}" for i in range(11))])  # 13 functions
ENTRY = "import helperpkg\n\n\ndef main(s):\n    return {{'y': helperpkg.{func}(float(s['x']))}}\n"
SCRIPT = "import json, sys\nimport helperpkg\n\njson.dump({{'y': helperpkg.{func}(float(json.load(sys.stdin)['x']))}}, sys.stdout)\n"
TOML = """name = "{name}"
family = "fixtures-cov"
domain = "data-document"
summary = "y = f(x) through a small package."
{runner}
timeout_s = 20
[inputs.x]
type = "number"
min = 1.0
max = 50.0
[outputs]
atol = 1e-9
rtol = 1e-9
[coverage]
package = ["helperpkg"]
{extra}"""
WHY = "both workflows call solve_a on purpose: this test accepts their overlap with a why."
ACCEPT = f'[[lint.accept]]\ncheck = "coverage_overlap"\nfield = "cov-a2"\nwhy = "{WHY}"\n'


def workflow(root: Path, name: str, func: str, *, script: bool = False, extra: str = "") -> Path:
    d = root / "data-document" / "fixtures-cov" / name
    (d / "helperpkg").mkdir(parents=True)
    (d / "helperpkg" / "__init__.py").write_text(PACKAGE)
    if script:
        (d / "run.py").write_text(SCRIPT.format(func=func))
        runner = 'command = ["python3", "run.py"]'
    else:
        (d / "run.py").write_text(ENTRY.format(func=func))
        runner = 'entry = "run:main"'
    (d / "workflow.toml").write_text(TOML.format(name=name, runner=runner, extra=extra))
    return d


def opts(cache: Path | None = None) -> BuildOptions:
    return BuildOptions(variants=2, public=2, hidden=1, jobs=2, cache=ExecutionCache(cache, enabled=cache is not None))


@pytest.fixture(scope="module")
def family(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """cov-a (entry) and cov-a2 (a script) both call solve_a: one workflow twice; cov-c calls solve_c."""
    root = tmp_path_factory.mktemp("covcat") / "catalog"
    workflow(root, "cov-a", "solve_a")
    workflow(root, "cov-a2", "solve_a", script=True)
    workflow(root, "cov-c", "solve_c")
    return root


@pytest.fixture(scope="module")
def release(family: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("covrel") / "release"
    results = build([family], out, opts())
    assert not [r.failure for r in results if r.failure]
    return out


def by_workflow(release: Path) -> dict[str, list[bytes]]:
    found: dict[str, list[bytes]] = {}
    for root in list_tasks(release):
        found.setdefault(root.name.rsplit("-v", 1)[0], []).append(coverage_path(root).read_bytes())
    return found


def test_a_python_workflow_records_the_functions_it_runs_and_not_its_imports(release: Path) -> None:
    recorded = by_workflow(release)
    assert sorted(recorded) == ["cov-a", "cov-a2", "cov-c"]
    for name, files in recorded.items():
        assert len(files) == 2 and files[0] == files[1], name  # every variant task carries its workflow's record
    a = read_coverage(list_tasks(release)[0])
    assert a is not None and a.reason is None and a.package == ["helperpkg"] and a.scenarios == 2
    assert a.functions == A_SET  # not _setup (called at import), nor never
    assert a.modules == {"helperpkg": 27}  # the functions the module defines: the coverage's denominator
    script = json.loads(by_workflow(release)["cov-a2"][0])
    assert script["functions"] == a.functions  # a `command` script is probed as well as an entry


def test_a_cli_reference_and_a_program_family_record_nothing_and_say_why(tmp_path: Path, sandbox: Sandbox) -> None:
    d = workflow(tmp_path, "cov-sh", "solve_a")
    toml = (d / "workflow.toml").read_text().replace('entry = "run:main"', 'command = ["sh", "run.sh"]')
    (d / "workflow.toml").write_text(toml)
    spec = load_spec(d)
    runner = Runner(spec, sandbox)
    try:
        cov = record(runner, ExecutionCache(enabled=False), coverage_scenarios(spec, 0, 2))
    finally:
        runner.close()
    assert cov.functions == [] and cov.scenarios == 0
    assert cov.reason and "not a Python program" in cov.reason and "sh run.sh" in cov.reason
    apt = d.parent / "cov-apt"
    d.rename(apt)
    text = toml.replace('[coverage]\npackage = ["helperpkg"]\n', '[requires]\napt = ["sox"]\n')
    (apt / "workflow.toml").write_text(text.replace('name = "cov-sh"', 'name = "cov-apt"'))
    assert packages_of(load_spec(apt)) == (
        [],
        "the family wraps a program (apt: sox), not a Python package: nothing recorded",
    )


def test_the_package_is_inferred_from_the_first_pip_requirement(tmp_path: Path) -> None:
    d = workflow(tmp_path, "cov-pip", "solve_a")
    toml = (d / "workflow.toml").read_text().replace('[coverage]\npackage = ["helperpkg"]\n', "")
    (d / "workflow.toml").write_text(toml + '[requires]\npip = ["typing-extensions>=4", "pydantic>=2"]\n')
    assert packages_of(load_spec(d)) == (["typing_extensions"], None)  # the distribution's import name, not pydantic
    (d / "workflow.toml").write_text(toml + '[requires]\npip = ["no-such-dist-swr"]\n')
    pk, why = packages_of(load_spec(d))
    assert pk == [] and why and "no-such-dist-swr" in why and "[coverage] package" in why


def test_two_workflows_calling_the_same_functions_are_one_lint_error(release: Path) -> None:
    r = lint_audit(release)
    overlap = [f for f in r["findings"] if f["check"] == "coverage_overlap"]
    assert [(f["task"], f["field"], f["severity"]) for f in overlap] == [("cov-a-v1", "cov-a2", "error")]
    assert "Jaccard 1.00 > 0.8" in overlap[0]["message"]
    assert r["errors"] == 1 and OVERLAP_MAX == 0.8  # cov-c shares `shared` with them: 1/25, under the bar
    assert swr("audit", "lint", str(release)).returncode == 1


def test_an_overlap_accepted_with_a_why_is_reported_as_accepted(family: Path, tmp_path: Path) -> None:
    root = tmp_path / "catalog"
    workflow(root, "cov-a", "solve_a", extra=ACCEPT)
    workflow(root, "cov-a2", "solve_a", script=True)
    assert not [r.failure for r in build([root], tmp_path / "rel", opts(tmp_path / "cache")) if r.failure]
    r = lint_audit(tmp_path / "rel")
    assert r["errors"] == 0 and r["warnings"] == 0, r["findings"]
    assert [(a["check"], a["field"], a["why"]) for a in r["accepted"]] == [("coverage_overlap", "cov-a2", WHY)]


def test_a_family_threshold_is_the_lower_of_its_workflows(tmp_path: Path) -> None:
    """A family may raise its bar, but every workflow of it must say so: one alone does not loosen the rule."""
    loose = f'overlap_max = 1.0\nwhy = "{WHY}"\n'
    root = tmp_path / "catalog"
    workflow(root, "cov-a", "solve_a", extra=loose)
    workflow(root, "cov-a2", "solve_a", script=True)
    assert not [r.failure for r in build([root], tmp_path / "rel", opts(tmp_path / "cache")) if r.failure]
    assert [f["field"] for f in lint_audit(tmp_path / "rel")["findings"]] == ["cov-a2"]
    bad = root / "data-document" / "fixtures-cov" / "cov-a" / "workflow.toml"
    bad.write_text(bad.read_text().replace(f'why = "{WHY}"\n', ""))
    res = swr("check", str(bad.parent))
    assert res.returncode == 2 and "field `coverage`: `overlap_max` needs a `why`" in res.stderr


def test_the_record_is_byte_identical_between_two_builds(release: Path, family: Path, tmp_path: Path) -> None:
    build([family], tmp_path / "again", opts())
    assert by_workflow(tmp_path / "again") == by_workflow(release)


def test_catalog_list_shows_coverage_from_a_release_and_measured_alike(
    family: Path, release: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    got = swr("catalog", "list", "--root", str(family), "--release", str(release), "--json")
    assert got.returncode == 0, got.stderr
    [row] = json.loads(got.stdout)
    cov = row["coverage"]
    assert (cov["executed"], cov["reached"], cov["share"]) == (25, 27, 0.9259)  # all but _setup and never
    assert (cov["max_overlap"], cov["max_pair"], cov["over"]) == (1.0, ["cov-a", "cov-a2"], [["cov-a", "cov-a2", 1.0]])
    monkeypatch.setenv("SWR_CACHE", str(tmp_path / "cache"))  # measured afresh, not read from a cache
    measured = swr("catalog", "list", "--root", str(family), "--measure", "--json")
    assert measured.returncode == 0, measured.stderr
    assert json.loads(measured.stdout)[0]["coverage"] == cov  # the build records what a measure computes
    assert len(list((tmp_path / "cache" / "executions").rglob("*.json"))) == 3  # one probe per workflow, cached
    monkeypatch.setenv("COLUMNS", "220")
    table = swr("catalog", "list", "--root", str(family), "--release", str(release))
    assert "25/27 (92.6%)" in table.stdout and "1.00 > 0.8" in table.stdout, table.stdout
    both = swr("catalog", "list", "--root", str(family), "--release", str(release), "--measure")
    assert both.returncode == 2 and "--measure" in both.stderr and "Traceback" not in both.stderr


def test_sets_too_small_to_tell_parts_apart_are_not_judged() -> None:
    """A thin Python layer over compiled code (pysam: one function each) is n/a, not a pass nor an overlap."""
    small = CoverageFile(package=["p"], scenarios=2, functions=["p:f", "p:g"], overlap_max=OVERLAP_MAX)
    big = CoverageFile(package=["p"], scenarios=2, functions=[f"p:f{i}" for i in range(MIN_FUNCTIONS)], overlap_max=0.8)
    assert jaccard(small, small) is None and jaccard(small, big) is None and jaccard(big, big) == 1.0
    fam = family_coverage({"x": small, "y": big})
    assert (fam["max_overlap"], fam["too_few"]) == (None, ["x"])
    assert over({"x": big, "y": big}) == [("x", "y", 1.0, 0.8)]


@pytest.mark.parametrize("script", [False, True], ids=["entry", "command"])
def test_the_probe_records_alike_under_each_backend(backend: Sandbox, tmp_path: Path, script: bool) -> None:
    spec = load_spec(workflow(tmp_path, "cov-b", "solve_a", script=script))
    runner = Runner(spec, backend)
    try:
        cov = record(runner, ExecutionCache(enabled=False), coverage_scenarios(spec, 0, 6))
    finally:
        runner.close()
    assert (cov.reason, cov.scenarios, cov.failed, cov.functions) == (None, 3, 0, A_SET)


def test_a_path_drawn_from_a_library_generator_records_the_same_functions_every_time(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    """CI stop 32's bench: sympy shuffles the order it asks assumption rules in, from a `random.Random()` of its
    own seeded from os.urandom, and six sympy workflows recorded other functions in each build."""
    d = workflow(tmp_path, "cov-r", "solve_a")
    (d / "helperpkg" / "__init__.py").write_text(
        "import random\n\n_rng = random.Random()\n\n\ndef solve_a(x):\n"
        "    return globals()[f'p{_rng.randrange(40)}'](x)\n"
        + "".join(f"\n\ndef p{i}(x):\n    return x + {i}\n" for i in range(40))
    )
    spec = load_spec(d)
    runs = []
    for _ in range(2):
        runner = Runner(spec, sandbox)
        try:
            runs.append(record(runner, ExecutionCache(enabled=False), coverage_scenarios(spec, 0, 6)).functions)
        finally:
            runner.close()
    assert runs[0] == runs[1] and 2 <= len(runs[0]) <= 4, runs


@pytest.mark.parametrize(
    ("body", "reason", "failed"),
    [
        ("import os\n\n\ndef main(s):\n    os._exit(0)\n", "the coverage probe's reply is unreadable", 0),
        ("import sys\nsys.exit(3)\n", "the coverage probe failed (exit code 3)", 0),
        ("import helperpkg\n\n\ndef main(s):\n    helperpkg.solve_a(1.0)\n    raise ValueError\n", None, 3),
    ],
    ids=["no-reply", "dies", "raises"],
)
def test_a_probe_that_fails_is_recorded_with_its_reason_and_the_build_goes_on(
    sandbox: Sandbox, tmp_path: Path, body: str, reason: str | None, failed: int
) -> None:
    d = workflow(tmp_path, "cov-bad", "solve_a")
    (d / "run.py").write_text(body)
    spec = load_spec(d)
    runner = Runner(spec, sandbox)
    try:
        cov = record(runner, ExecutionCache(enabled=False), coverage_scenarios(spec, 0, 6))
    finally:
        runner.close()
    assert (cov.reason, cov.failed, cov.functions) == (reason, failed, A_SET if failed else [])
