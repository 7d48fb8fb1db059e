"""Catalog tolerance defects found by the mutation audit (issue 12; catalog/defects.toml SWR-D010..D012), one
regression test each, in the pattern of test_catalog_defects.py: the single workflow built for real, a wrong
output that passed must fail and a correct computation other than the reference's must pass (bwrap sandbox)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_catalog_defects import SAT_EXACT, Edit, build_one, lookup, mismatched, program, workflow_source

from swr.kinds.workflow.grading import grade
from swr.kinds.workflow.task import Task

# --- SWR-D010: ignition-delay trace species at their own scale ---------------------------------------------

OLD_ATOL = 1e-8


def _traces(fn: Callable[[float], float]) -> Edit:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        for row in out["history"]:
            x = row["mole_fractions"]
            x.update({k: fn(v) for k, v in x.items() if 0.0 < v < OLD_ATOL})
        return out

    return edit


@pytest.fixture(scope="module")
def ignition(tmp_path_factory: pytest.TempPathFactory) -> Task:
    task = build_one(tmp_path_factory.mktemp("ign"), "ignition-delay")
    assert any(0 < v < OLD_ATOL for h in task.hidden for r in h.output["history"] for v in r["mole_fractions"].values())
    return task


@pytest.mark.parametrize("edit", [_traces(lambda v: 0.0), _traces(lambda v: -v)], ids=["zero", "negated"])
def test_wrong_trace_species_fail(ignition: Task, sandbox, tmp_path: Path, edit: Edit) -> None:
    v = grade(ignition, lookup(tmp_path / "c", ignition, edit), sandbox)
    assert not v.passed and v.label == "numeric_mismatch"
    assert all(".mole_fractions." in p for p in mismatched(v)), mismatched(v)


def test_a_thousandfold_tighter_integration_passes(ignition: Task, sandbox, tmp_path: Path) -> None:
    """CVODES at rtol 1e-12, atol 1e-20 (not the reference's 1e-9, 1e-15): the same answer at every scale."""
    src = workflow_source("ignition-delay")
    assert "RTOL, ATOL = 1e-9, 1e-15" in src
    tight = src.replace("RTOL, ATOL = 1e-9, 1e-15", "RTOL, ATOL = 1e-12, 1e-20")
    v = grade(ignition, program(tmp_path / "c", "tight", {"tight.py": tight}), sandbox)
    assert v.passed, sorted(mismatched(v))[:5]


# --- SWR-D011: signal-stat graded at SoX's printed precision ------------------------------------------------

SOX_EXACT = '''import math, subprocess

import numpy as np

import wf


def samples(scn):
    """The same SoX chain, its samples written out (raw signed 32-bit) instead of measured."""
    cmd = wf.command(scn)
    cmd = cmd[:cmd.index("-n") + 1] + ["-t", "s32", "-"] + cmd[cmd.index("-n") + 2:cmd.index("stat")]
    raw = subprocess.run(cmd, capture_output=True, check=True).stdout
    return np.frombuffer(raw, dtype="<i4").astype(np.float64) / 2147483648.0


def main(scn):
    """SoX's own report, with every statistic numpy can compute from the samples recomputed unrounded (SoX's
    min_delta, rough frequency, RMS Pk and flat factor are defined by its own windows and start-up: kept)."""
    out = wf.main(scn)
    x = samples(scn)
    d = np.abs(np.diff(x))
    peak, rms = max(x.max(), -x.min()), math.sqrt(float((x * x).mean()))
    out["stat"].update(max_amplitude=x.max(), min_amplitude=x.min(), midline_amplitude=(x.max() + x.min()) / 2,
                       mean_norm=np.abs(x).mean(), mean_amplitude=x.mean(), rms_amplitude=rms, max_delta=d.max(),
                       mean_delta=d.mean(), rms_delta=math.sqrt(float((d * d).mean())), volume_adjustment=1.0 / peak)
    out["stats"].update(dc_offset=x.mean(), peak_level_db=20 * math.log10(peak), rms_level_db=20 * math.log10(rms),
                        crest_factor=peak / rms)
    return {k: {f: float(v) for f, v in g.items()} for k, g in out.items()}
'''


@pytest.fixture(scope="module")
def signal(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return build_one(tmp_path_factory.mktemp("sox"), "signal-stat")


def test_statistics_computed_exactly_pass(signal: Task, sandbox, tmp_path: Path) -> None:
    cand = program(tmp_path / "c", "sox_exact", {"sox_exact.py": SOX_EXACT, "wf.py": workflow_source("signal-stat")})
    v = grade(signal, cand, sandbox)
    assert v.passed and v.r_pub == 1.0, sorted(mismatched(v))


def _small(fn: Callable[[float], float]) -> Edit:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        out["stat"]["mean_amplitude"] = fn(out["stat"]["mean_amplitude"])
        out["stats"]["dc_offset"] = fn(out["stats"]["dc_offset"])
        return out

    return edit


@pytest.mark.parametrize(
    "edit", [_small(lambda v: v * 1e-3), _small(lambda v: v + 9e-7)], ids=["x0.001", "a_printed_digit_off"]
)
def test_a_wrong_mean_of_about_1e6_fails(signal: Task, sandbox, tmp_path: Path, edit: Edit) -> None:
    assert any(h.output["stat"]["mean_amplitude"] != 0.0 for h in signal.hidden)
    v = grade(signal, lookup(tmp_path / "c", signal, edit), sandbox)
    assert not v.passed and mismatched(v) <= {"stat.mean_amplitude", "stats.dc_offset"} and mismatched(v)


# --- SWR-D012: sat-passes grades only what is well-conditioned at each event --------------------------------

SHIFTED = '''import sat_exact
import wf


def main(scn):
    """Every event at its exact root or maximum plus {shift} s, every quantity recomputed there."""
    out = wf.main(scn)
    sat, obs = sat_exact.build(scn)
    t0 = sat.epoch.tt
    for row in out["events"]:
        days = sat_exact.refine(sat, obs, t0, row["t_min"], row["event"], float(scn["min_altitude_deg"]))
        days += {shift} / 86400.0
        row["t_min"] = days * 1440.0
        topo = wf._topo(sat, obs, wf.TS.tt_jd(t0 + days))
        row.update({{k: topo[k] for k in row if k in topo}})
    return out
'''


@pytest.fixture(scope="module")
def sat(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return build_one(tmp_path_factory.mktemp("sat"), "sat-passes")


def _shifted_program(root: Path, shift_s: float) -> Path:
    return program(
        root,
        "shifted",
        {
            "shifted.py": SHIFTED.format(shift=shift_s),
            "sat_exact.py": SAT_EXACT,
            "wf.py": workflow_source("sat-passes"),
        },
    )


def test_events_report_only_well_conditioned_quantities(sat: Task) -> None:
    """Not the threshold at rise and set, nor the ~0 range rate or the zenith-swung azimuth at culmination."""
    rows = [r for h in sat.hidden for r in h.output["events"]]
    assert {r["event"] for r in rows} == {"rise", "culminate", "set"}
    for r in rows:
        want = {"alt_deg", "range_km"} if r["event"] == "culminate" else {"az_deg", "range_km", "range_rate_km_s"}
        assert set(r) == {"event", "t_min"} | want, r


@pytest.mark.parametrize("shift_s, ok", [(0.19, True), (-0.19, True), (3.0, False)])
def test_events_timed_within_find_events_accuracy_pass(
    sat: Task, sandbox, tmp_path: Path, shift_s: float, ok: bool
) -> None:
    v = grade(sat, _shifted_program(tmp_path / "c", shift_s), sandbox, split="hidden")
    assert v.passed is ok, sorted(mismatched(v))[:5]
    assert ok or "t_min" in {p.rsplit(".", 1)[-1] for p in mismatched(v)}


def _at_rise_and_set(field: str, fn: Callable[[float], float]) -> Edit:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        for row in out["events"]:
            if row["event"] != "culminate":
                row[field] = fn(row[field])
        return out

    return edit


@pytest.mark.parametrize(
    "field, edit",
    [
        ("az_deg", _at_rise_and_set("az_deg", lambda v: v + 1.0)),
        ("range_km", _at_rise_and_set("range_km", lambda v: v + 6.0)),
        ("range_rate_km_s", _at_rise_and_set("range_rate_km_s", lambda v: v + 0.1)),
    ],
    ids=["az_1deg", "range_6km", "range_rate_0.1"],
)
def test_geometry_wrong_beyond_timing_fails(sat: Task, sandbox, tmp_path: Path, field: str, edit: Edit) -> None:
    """Each is more than a second's motion off (0.34 deg/s, 7.5 km/s, 0.042 km/s^2 at most), yet passed before."""
    v = grade(sat, lookup(tmp_path / "c", sat, edit), sandbox)
    assert not v.passed and {p.rsplit(".", 1)[-1] for p in mismatched(v)} == {field}


# --- SWR-D013: seasonal-ar's ADF p-value at its own scale ----------------------------------------------------


def test_a_vanishing_adf_pvalue_is_graded_at_its_own_scale(tmp_path: Path, sandbox) -> None:
    """p-values reach 1e-13 on strongly stationary series; under the old atol 1e-10 zero or a negative
    p-value passed (the mutation audit's scale_zero / scale_negated on variant 2 of the catalog build)."""
    from test_catalog_defects import CATALOG

    from swr.assemble import BuildOptions, build
    from swr.core.release_dir import task_dir
    from swr.kinds.workflow.cache import ExecutionCache
    from swr.kinds.workflow.task import load_workflow_task

    build(
        [next(CATALOG.glob("*/*/seasonal-ar"))],
        tmp_path / "rel",
        BuildOptions(variants=2, jobs=2, cache=ExecutionCache(tmp_path / "cache")),
    )
    task = load_workflow_task(task_dir(tmp_path / "rel", "seasonal-ar-v2"))
    assert any(ex.output["adf"]["pvalue"] < 1e-10 for ex in task.hidden)  # the premise: a vanishing p-value

    def tiny(fn: Callable[[float], float]) -> Edit:
        def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
            if out["adf"]["pvalue"] < 1e-10:
                out["adf"]["pvalue"] = fn(out["adf"]["pvalue"])
            return out

        return edit

    for fn in (lambda p: 0.0, lambda p: -p):
        v = grade(task, lookup(tmp_path / f"c{id(fn)}", task, tiny(fn)), sandbox)
        assert not v.passed and mismatched(v) == {"adf.pvalue"}, mismatched(v)
    assert grade(task, lookup(tmp_path / "ref", task), sandbox).passed
