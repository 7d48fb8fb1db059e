"""`[[lint.accept]]`: a workflow declares a lint finding right as is. The accept reaches the release's task.toml,
silences exactly its finding (reported as accepted, with the reason), and rots loudly: an accept naming no check
or matching no finding is a `stale_accept` warning; a malformed table is one line naming the file and field."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
import tomli_w
from conftest import swr

from swr.assemble import BuildOptions, build
from swr.audit.lint import lint_audit
from swr.core.release_dir import list_tasks
from swr.harness.fingerprint import public_hash
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.task import load_workflow_task

RUN = """import json, sys
s = json.load(sys.stdin)
a, b = float(s["a"]), float(s["b"])
json.dump({"y": 2.0 * a + b, "fit_residual": a * 1e-3, "w": 100.0 + b * 1e-3, "unit": 1.0 + (a % 1) * 1e-14},
          sys.stdout)
"""
TOML = """name = "lint-accept"
family = "fixtures"
domain = "data-document"
summary = "y = 2a + b, a residual-named field and a loosely graded one."
command = ["python3", "run.py"]
timeout_s = 10
[inputs.a]
type = "number"
min = 1.0
max = 9.0
[inputs.b]
type = "number"
min = 1.0
max = 9.0
[outputs]
atol = 1e-9
rtol = 1e-9
[outputs.fields."w"]
atol = 1.0
{accepts}
"""
WHY = "fit_residual is the fit's prescribed residual, a result of the specified fit and not a self-assessment."
ACCEPT = f'[[lint.accept]]\ncheck = "self_reported"\nfield = "fit_residual"\nwhy = "{WHY}"\n'


def _workflow(root: Path, accepts: str) -> Path:
    root.mkdir(parents=True)
    (root / "run.py").write_text(RUN)
    (root / "workflow.toml").write_text(TOML.format(accepts=accepts))
    return root


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("lint_accept")
    wf = _workflow(base / "lint-accept", ACCEPT)
    build([wf], base / "release", BuildOptions(variants=2, public=3, hidden=2, cache=ExecutionCache(base / "cache")))
    return base / "release"


def _edit_accepts(release: Path, dest: Path, accepts: list[dict[str, str]], atol: float | None = None) -> Path:
    """A copy of the release whose task.toml files carry other accepts (and another default atol)."""
    shutil.copytree(release, dest)
    for toml in dest.glob("tasks/*/task.toml"):
        meta = tomllib.loads(toml.read_text())
        meta["lint"] = {"accept": accepts}
        if atol is not None:
            meta["tolerances"]["atol"] = atol
        toml.write_text(tomli_w.dumps(meta))
    return dest


def test_an_accept_silences_exactly_its_finding(release: Path) -> None:
    meta = load_workflow_task(list_tasks(release)[0]).meta
    assert meta.lint is not None and meta.lint.accept[0].why == WHY  # the build carried it into task.toml
    r = lint_audit(release)
    assert [(f["check"], f["field"]) for f in r["findings"]] == [("tolerance_too_loose", "w")] * 2
    assert r["warnings"] == 2 and r["errors"] == 0
    assert [(a["task"], a["check"], a["field"], a["severity"], a["why"]) for a in r["accepted"]] == [
        ("lint-accept-v1", "self_reported", "fit_residual", "accepted", WHY),
        ("lint-accept-v2", "self_reported", "fit_residual", "accepted", WHY),
    ]


def test_a_field_constant_up_to_roundoff_is_not_loose(release: Path) -> None:
    """`unit` is 1 give or take a few dozen ulps: a constant, which lint does not call a loose varying field."""
    units = {
        ex.output["unit"]
        for t in list_tasks(release)
        for ex in load_workflow_task(t).hidden + load_workflow_task(t).public
    }
    assert len(units) > 1 and max(units) - 1.0 < 1e-13
    assert not [f for f in lint_audit(release)["findings"] if f["field"] == "unit"]


def test_the_cli_reports_accepted_apart_from_warnings(release: Path) -> None:
    res = swr("audit", "lint", str(release), "--json")
    assert res.returncode == 0, res.stderr
    r = json.loads(res.stdout)
    assert len(r["accepted"]) == 2 and r["warnings"] == 2
    table = swr("audit", "lint", str(release)).stdout
    assert "2 warnings, 2 accepted" in table and "accepted" in table


def test_without_the_accept_the_finding_is_a_warning(release: Path, tmp_path: Path) -> None:
    r = lint_audit(_edit_accepts(release, tmp_path / "none", []))
    assert sorted({f["check"] for f in r["findings"]}) == ["self_reported", "tolerance_too_loose"]
    assert r["warnings"] == 4 and r["accepted"] == []


@pytest.mark.parametrize(
    "accept, message",
    [
        ({"check": "volatile_value", "field": "y", "why": WHY}, "matches no finding"),
        ({"check": "self_reported", "field": "y", "why": WHY}, "matches no finding"),
        ({"check": "self_reportd", "field": "fit_residual", "why": WHY}, "names no lint check ('self_reportd')"),
    ],
)
def test_a_stale_accept_is_a_warning(release: Path, tmp_path: Path, accept: dict[str, str], message: str) -> None:
    r = lint_audit(_edit_accepts(release, tmp_path / "stale", [accept]))
    stale = [f for f in r["findings"] if f["check"] == "stale_accept"]
    assert len(stale) == 1 and message in stale[0]["message"], stale  # once per workflow, not per variant
    assert stale[0]["task"] == "lint-accept-v1" and stale[0]["field"] == accept["field"]
    assert r["accepted"] == []  # and the finding it failed to name stays a warning
    assert sum(f["check"] == "self_reported" for f in r["findings"]) == 2


def test_an_accept_is_a_verifier_setting_not_part_of_the_task(release: Path, tmp_path: Path) -> None:
    """Adding or changing accepts leaves the public fingerprint alone: a regrade, never a re-run."""
    edited = _edit_accepts(release, tmp_path / "other", [{"check": "volatile_value", "field": "y", "why": WHY}])
    before, after = list_tasks(release)[0], list_tasks(edited)[0]
    assert (before / "task.toml").read_text() != (after / "task.toml").read_text()
    assert public_hash(before) == public_hash(after)


def test_a_glob_accept_covers_the_fields_it_names(release: Path, tmp_path: Path) -> None:
    r = lint_audit(
        _edit_accepts(release, tmp_path / "glob", [{"check": "tolerance_too_loose", "field": "*", "why": WHY}])
    )
    assert [f["check"] for f in r["findings"]] == ["self_reported"] * 2
    assert {a["field"] for a in r["accepted"]} == {"w"}


def test_an_error_cannot_be_accepted(release: Path, tmp_path: Path) -> None:
    """Every varying field loose is an error (nothing discriminates): an accept leaves it, and says so."""
    r = lint_audit(
        _edit_accepts(release, tmp_path / "err", [{"check": "tolerance_too_loose", "field": "*", "why": WHY}], atol=1e9)
    )
    assert r["errors"] == 6 and r["accepted"] == []  # y, fit_residual and w in both variants
    stale = [f for f in r["findings"] if f["check"] == "stale_accept"]
    assert len(stale) == 1 and "matches only errors" in stale[0]["message"]


@pytest.mark.parametrize(
    "table, field",
    [
        ('[[lint.accept]]\ncheck = "self_reported"\nfield = "fit_residual"\n', "lint.accept.0.why"),
        (ACCEPT + '[[lint.accept]]\ncheck = "self_reported"\nwhy = "too short"\n', "lint.accept.1.why"),
        (ACCEPT + 'reason = "also this"\n', "lint.accept.0.reason"),
        ('[lint]\naccept = "everything"\n', "lint.accept"),
    ],
)
def test_a_bad_accept_table_is_one_line_naming_file_and_field(tmp_path: Path, table: str, field: str) -> None:
    wf = _workflow(tmp_path / "wf", table)
    res = swr("build", str(wf), "--variants", "1", "--out", str(tmp_path / "r"), "--no-cache")
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and str(wf / "workflow.toml") in lines[0] and field in lines[0], res.stderr
