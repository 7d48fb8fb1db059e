"""`swr audit lint` on engine tasks: the dynamic probe for verifier checks that grade a figure the candidate
reports about itself, on shipped engines (none may be flagged) and on a built cfd-2d task with a planted defect;
and every audit saying where it does not apply, on a release mixing a workflow task and engine tasks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT, swr

ENGINES = ROOT / "engines"
SHIPPED = ("cfd-2d", "erp-ledger", "place-route")
WORKFLOW = "good-linear"


@pytest.fixture(scope="module")
def mixed(engines_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One workflow task, built for real, and three shipped engines from the suite's shared engines release (built
    once with `swr build engines`), side by side in one release directory."""
    base = tmp_path_factory.mktemp("selfreport")
    res = swr(
        "build",
        str(FIXTURES / WORKFLOW),
        *("--out", "wf", "--variants", "1", "--public", "3", "--hidden", "2"),
        cwd=base,
        timeout=1800,
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    tasks = base / "rel" / "tasks"
    shutil.copytree(base / "wf" / "tasks", tasks)
    for e in SHIPPED:
        shutil.copytree(engines_release / "tasks" / e, tasks / e)
    return base / "rel"


def audit(*args: str, ok: tuple[int, ...] = (0,)) -> dict[str, Any]:
    res = swr("audit", *args, "--json", timeout=1800)
    assert res.returncode in ok, res.stdout[-2000:] + res.stderr[-2000:]
    return json.loads(res.stdout)


@pytest.fixture(scope="module")
def lint(mixed: Path) -> dict[str, Any]:
    return audit("lint", str(mixed))


def test_shipped_engines_read_no_self_report(lint: dict[str, Any]) -> None:
    """erp-ledger's trial_balance_zero used to sum the reported balances; it now sums the candidate's lines."""
    assert not [f for f in lint["findings"] if f["check"] == "self_reported" and f["task"] in SHIPPED], lint["findings"]
    probes = {p["task"]: p for p in lint["self_report_probes"]}
    assert set(probes) == set(SHIPPED) and all(p["cases"] > 0 for p in probes.values())
    # the probe did tamper with what these engines report about themselves, and no check followed it;
    # balances_match_postings reads the reported balances but compares them with the postings
    assert probes["erp-ledger"]["diagnostics"] == ["documents.*.balances"] and probes["erp-ledger"]["flagged"] == {}
    assert probes["place-route"]["diagnostics"] == ["wirelength"] and probes["place-route"]["flagged"] == {}
    assert lint["not_applicable"] == []


PLANTED_RUN = '''#!/usr/bin/env python3
"""The cfd-2d reference, also reporting figures about itself."""
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ns2d import solve  # noqa: E402

case = json.load(sys.stdin)
out = solve(case)
d = case["domain"]
dx, dy = d["Lx"] / d["nx"], d["Ly"] / d["ny"]
u, v = np.array(out["u"]), np.array(out["v"])
div = (u[:, 1:] - u[:, :-1]) / dx + (v[1:, :] - v[:-1, :]) / dy
out["max_divergence"] = float(np.abs(div).max() * min(dx, dy))
out["solver"] = {"mass": 0.0}
print(json.dumps(out))
'''
PLANTED_CHECKS = """    vals["divergence"] = float(out.get("max_divergence", math.nan))  # planted: the candidate's own figure
    vals["mass_balance"] = float((out.get("solver") or {}).get("mass", math.nan))  # planted, declared below
"""


def plant(engine: Path) -> None:
    """cfd-2d (its source, or a built task's private/) edited so that its divergence check reads the reported
    `max_divergence` (a key that names a diagnostic) and its mass_balance check reads `solver.mass` (a neutral
    key engine.toml declares as a diagnostic)."""
    (engine / "reference" / "run").write_text(PLANTED_RUN)
    verify = engine / "verifier" / "verify.py"
    end = "    return {k: (float(x) if math.isfinite(x) else None, names[k]) for k, x in vals.items()}\n"
    text = verify.read_text()
    assert text.count(end) == 1
    verify.write_text(text.replace(end, PLANTED_CHECKS + end))
    toml = engine / "engine.toml"
    toml.write_text(toml.read_text().replace("\n[interface]", '\ndiagnostics = ["solver.mass"]\n\n[interface]', 1))


def test_a_check_that_reads_a_reported_figure_is_flagged(mixed: Path, tmp_path: Path) -> None:
    """Planted in a copy of the built cfd-2d task (building the planted source passes every gate of the build
    too: they grade answers, not where a check reads them; that build took ~100 s of the suite)."""
    rel = tmp_path / "rel"  # the release with its cfd-2d task alone
    shutil.copytree(mixed / "tasks" / "cfd-2d", rel / "tasks" / "cfd-2d")
    plant(rel / "tasks" / "cfd-2d" / "private")
    r = audit("lint", str(rel), ok=(1,))
    flagged = sorted(
        (f["task"], f["verifier_check"], f["field"], f["severity"])
        for f in r["findings"]
        if f["check"] == "self_reported"
    )
    assert flagged == [
        ("cfd-2d", "divergence", "max_divergence", "error"),
        ("cfd-2d", "mass_balance", "solver.mass", "error"),
    ]
    probe = next(p for p in r["self_report_probes"] if p["task"] == "cfd-2d")
    assert probe["diagnostics"] == ["max_divergence", "solver.mass"]
    # velocity, pressure and boundary checks recompute from u, v, p: untouched by the tampering
    assert set(probe["flagged"]) == {"divergence", "mass_balance"}


def test_an_engine_whose_reference_prints_no_object_is_not_applicable(mixed: Path, tmp_path: Path) -> None:
    rel = tmp_path / "rel"
    shutil.copytree(mixed, rel)
    run = rel / "tasks" / "erp-ledger" / "private" / "reference" / "run"
    run.write_text("#!/bin/sh\necho '[1, 2]'\n")
    r = audit("lint", str(rel))
    assert [n["task"] for n in r["not_applicable"]] == ["erp-ledger"]
    assert "no JSON object" in r["not_applicable"][0]["why"]
    assert not [f for f in r["findings"] if f["task"] == "erp-ledger"]


@pytest.mark.parametrize(
    "name, args", [("mutation", ("--per-class", "1", "--no-rerun")), ("sensitivity", ("--no-rerun",)), ("replay", ())]
)
def test_workflow_only_audits_list_engine_tasks_as_not_applicable(
    mixed: Path, name: str, args: tuple[str, ...]
) -> None:
    r = audit(name, str(mixed), *args)
    na = r["not_applicable"]
    assert sorted(n["task"] for n in na) == sorted(SHIPPED)
    assert all(n["kind"] == "engine" and n["why"] for n in na)
    covered = r["tasks"] if isinstance(r["tasks"], int) else len(r["tasks"])
    assert covered == 1  # the workflow task, audited


def test_not_applicable_is_one_line_of_the_text_output(mixed: Path) -> None:
    res = swr("audit", "replay", str(mixed))
    assert res.returncode == 0, res.stderr[-2000:]
    lines = [ln for ln in res.stdout.splitlines() if ln.startswith("not applicable")]
    assert len(lines) == 1 and "3 engine tasks" in lines[0] and all(e in lines[0] for e in SHIPPED), res.stdout


def test_audits_that_cover_engines_list_none(mixed: Path, lint: dict[str, Any], tmp_path: Path) -> None:
    ach = audit("achievability", str(mixed))
    assert ach["not_applicable"] == [] and {r["task"] for r in ach["tasks"]} >= set(SHIPPED)
    for name in ("a", "b"):
        shutil.copytree(mixed / "tasks" / "erp-ledger" / "private" / "reference", tmp_path / name / "erp-ledger")
    con = audit("consensus", str(mixed), str(tmp_path / "a"), str(tmp_path / "b"))
    assert con["not_applicable"] == [] and con["tasks_compared"] == 1
    assert lint["not_applicable"] == [] and lint["tasks"] == 1 + len(SHIPPED)
