"""What a tolerance band alone cannot say, declared per field in workflow.toml (issue 23 §4; catalog/defects.toml
SWR-D024..D026): an angle's `period` (sat-passes' azimuths), a field `zero` by construction (crs-transform's
conformal angular distortion), and the tolerance_scale build rule weighing every value of a field, never
advising an atol under rounding noise."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from conftest import CATALOG, swr
from test_catalog_defects import build_one, lookup, mismatched

from swr.audit.lint import lint_task
from swr.audit.oracle import leaf_within
from swr.judge import Tolerances, compare, equal
from swr.judge.compare import compare_slow
from swr.kinds.workflow.gates import tolerance_scale
from swr.kinds.workflow.grading import grade
from swr.kinds.workflow.spec import load_spec
from swr.kinds.workflow.task import Task

# --- period ---------------------------------------------------------------------------------------------------

AZ = Tolerances(atol=0.25, rtol=0.0, periods=(("az", 360.0), ("rows.*.az", 360.0)))


@pytest.mark.parametrize("cmp", [compare, compare_slow])
def test_an_angle_is_compared_modulo_its_period(cmp: Any) -> None:
    """359.9 and 0.05 degrees are 0.15 apart; 180 degrees away is still wrong; so is NaN or infinity."""
    assert cmp({"az": 359.9}, {"az": 0.05}, AZ).ok
    assert cmp({"az": 0.05}, {"az": -359.9}, AZ).ok and cmp({"az": 10.0}, {"az": 730.1}, AZ).ok
    for wrong in (180.0, 0.5, float("inf"), float("nan"), 1e308):
        assert cmp({"az": 359.9}, {"az": wrong}, AZ).label == "numeric_mismatch", wrong
    long = {"rows": [{"az": 359.9 - i * 1e-3} for i in range(80)]}  # long lists take numpy paths
    assert cmp(long, {"rows": [{"az": r["az"] - 360.0} for r in long["rows"]]}, AZ).ok
    assert not cmp(long, {"rows": [{"az": r["az"] - 180.0} for r in long["rows"]]}, AZ).ok
    flat = Tolerances(atol=0.25, rtol=0.0, periods=(("v", 360.0),))
    assert cmp({"v": [359.9] * 70}, {"v": [0.05] * 70}, flat).ok
    assert not cmp({"az": 359.9}, {"az": 0.05}, Tolerances(atol=0.25, rtol=0.0)).ok  # undeclared: plain
    assert equal({"az": 359.9}, {"az": 0.05}, AZ) and not equal({"az": 359.9}, {"az": 1.0}, AZ)
    assert leaf_within(359.9, 0.05, AZ, ("az",)) and not leaf_within(359.9, 1.0, AZ, ("az",))


def test_sat_passes_declares_its_angles_periodic() -> None:
    """Azimuths from north through east at rise and set (and at the epoch), the sub-point longitude and the RA."""
    tol = load_spec(next(CATALOG.glob("*/*/sat-passes"))).tolerances
    ref = {
        "events": [{"event": "rise", "t_min": 3.0, "az_deg": 359.95, "range_km": 2400.0, "range_rate_km_s": -6.1}],
        "epoch_topocentric": {"alt_deg": -40.0, "az_deg": 0.01, "range_km": 9000.0, "range_rate_km_s": 1.0},
        "epoch_state": {"ra_of_date_hours": 23.9999999, "subpoint_lon_deg": 179.9999999},
    }
    cand = copy.deepcopy(ref)
    cand["events"][0]["az_deg"] = 0.05
    cand["epoch_topocentric"]["az_deg"] = 360.01
    cand["epoch_state"].update(ra_of_date_hours=-1e-7, subpoint_lon_deg=-179.9999999)
    assert compare(ref, cand, tol).ok
    cand["events"][0]["az_deg"] = 0.5  # 0.55 deg away: beyond the 0.25 deg band
    assert [m.path for m in compare(ref, cand, tol).mismatches] == ["events.0.az_deg"]


@pytest.fixture(scope="module")
def sat_passes(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return build_one(tmp_path_factory.mktemp("sat"), "sat-passes", public=2, hidden=3)


def _signed_azimuths(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
    """Azimuths in (-180, 180] instead of [0, 360): the same directions, another convention."""
    for row in [*out["events"], out["epoch_topocentric"]]:
        if "az_deg" in row and row["az_deg"] > 180.0:
            row["az_deg"] -= 360.0
    return out


def test_sat_passes_azimuths_wrap_through_a_built_task(sat_passes: Task, sandbox, tmp_path: Path) -> None:
    """SWR-D024, through task.toml and `grade`: signed azimuths pass, a half-turn does not."""
    assert any(r.get("az_deg", 0.0) > 180.0 for h in sat_passes.hidden for r in h.output["events"])
    assert sat_passes.tolerances.period_for(("events", 0, "az_deg")) == 360.0
    told = (sat_passes.root / "instruction.md").read_text()
    assert "`events.*.az_deg`: atol 0.25, rtol 1e-07, compared modulo 360" in told
    assert "`epoch_topocentric.az_deg`: atol 1e-06, rtol 1e-07, compared modulo 360" in told
    assert grade(sat_passes, lookup(tmp_path / "signed", sat_passes, _signed_azimuths), sandbox).passed

    def half_turn(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        out["epoch_topocentric"]["az_deg"] += 180.0
        return out

    v = grade(sat_passes, lookup(tmp_path / "half", sat_passes, half_turn), sandbox)
    assert not v.passed and mismatched(v) == {"epoch_topocentric.az_deg"}


def test_lint_knows_periods(sat_passes: Task) -> None:
    """A band reaching half the period accepts every angle; a period on a pattern that names nothing is a typo."""
    assert not [f for f in lint_task(sat_passes) if f["field"].endswith("az_deg")]
    tol = sat_passes.tolerances
    loose = dataclasses.replace(
        sat_passes,
        tolerances=dataclasses.replace(
            tol,
            fields=(*tol.fields, ("epoch_topocentric.az_deg", 180.0, 0.0)),
            periods=(*tol.periods, ("epoch_topocentric.azimuth", 360.0)),
        ),
    )
    found = {(f["check"], f["field"], f["severity"]) for f in lint_task(loose)}
    assert ("tolerance_too_loose", "epoch_topocentric.az_deg", "error") in found
    assert ("pattern_matches_nothing", "epoch_topocentric.azimuth", "warning") in found


# --- tolerance_scale: every value, and fields zero by construction ------------------------------------------


def test_a_field_with_some_values_under_its_atol_fails_the_build_rule() -> None:
    """SWR-D025: only the largest value was weighed, so a field whose values mostly lie under the atol (zero or
    a sign flip passes there) slipped through when one value was above it. A signed field crossing zero now
    and then (one value in twenty under the atol) is no such field."""
    outs = [{"x": v, "n": 1.0} for v in (5.0, 1e-9, -2e-9, 3e-9, 0.0)]
    fail = tolerance_scale(outs, Tolerances(atol=1e-6))
    assert fail is not None and "`x`: atol 1e-06 exceeds 3 of its 4 nonzero reference values" in fail.reason
    assert "below 1e-09" in fail.reason  # the advice is the field's smaller values, not its largest
    assert tolerance_scale(outs, Tolerances(atol=1e-6, fields=(("x", 1e-10, None),))) is None
    crossing = [{"x": 1e-8}] + [{"x": float(v) - 10.0} for v in range(1, 20)]  # one value in twenty under
    assert tolerance_scale(crossing, Tolerances(atol=1e-6)) is None
    lists = [{"row": [4.0, 1e-9, 2e-9]}, {"row": [3.0, 1e-9, 5e-9]}]  # list items pooled per pattern
    fail = tolerance_scale(lists, Tolerances(atol=1e-6))
    assert fail is not None and "`row.*`" in fail.reason


CENTRED = [{"centroid": [1e-14 * k, -3e-15 * k, 2e-14], "radius": 1.0 + k} for k in range(1, 6)]


def test_a_field_zero_by_construction_is_declared_and_checked() -> None:
    """SWR-D026: a shape centred on the origin has references at rounding noise; the rule rejected the field
    and advised an atol under that noise (failing correct answers on another CPU). It is declared `zero` now,
    graded absolutely (rtol 0), and the rule checks its references use under a tenth of its atol."""
    fail = tolerance_scale(CENTRED, Tolerances(atol=1e-6))
    assert fail is not None and "`centroid.*`" in fail.reason and "zero = true" in fail.reason
    assert "below 2e-14" not in fail.reason and "rounding noise" in fail.reason
    zero = Tolerances(atol=1e-6, fields=(("centroid", 1e-9, 0.0),), zeros=("centroid",))
    assert tolerance_scale(CENTRED, zero) is None
    assert compare(CENTRED[0], {**CENTRED[0], "centroid": [3e-10, -5e-10, 0.0]}, zero).ok
    assert not compare(CENTRED[0], {**CENTRED[0], "centroid": [2e-9, 0.0, 0.0]}, zero).ok
    tight = Tolerances(atol=1e-6, fields=(("centroid", 1e-13, 0.0),), zeros=("centroid",))
    fail = tolerance_scale(CENTRED, tight)
    assert fail is not None and "declared `zero = true`" in fail.reason and "set atol above 5e-13" in fail.reason
    wrong = [{**o, "centroid": [0.5, 0.0, 0.0]} for o in CENTRED]  # not zero at all
    assert tolerance_scale(wrong, zero) is not None


def test_zero_is_read_from_workflow_toml(tmp_path: Path) -> None:
    """`zero = true` in [outputs.fields] sets rtol 0 unless one is declared, and reaches task.toml's model."""
    src = next(CATALOG.glob("*/*/crs-transform"))
    tol = load_spec(src).tolerances
    assert tol.is_zero(("projections", "lcc", "angular_distortion_deg"))
    assert not tol.is_zero(("projections", "robinson", "angular_distortion_deg"))
    assert tol.for_path(("projections", "lcc", "angular_distortion_deg")) == (1e-4, 0.0)


def test_an_angle_has_no_scale_for_the_build_rule() -> None:
    """Azimuths near north are not values 'under the atol': with a period, 0.1 and 359.9 are 0.2 apart."""
    outs = [{"az": v} for v in (0.05, 0.1, 359.9, 0.2, 120.0)]
    assert tolerance_scale(outs, Tolerances(atol=0.25, rtol=0.0)) is not None
    assert tolerance_scale(outs, Tolerances(atol=0.25, rtol=0.0, periods=(("az", 360.0),))) is None


@pytest.mark.parametrize(
    "table, field",
    [
        ('[outputs.fields."az"]\nperiod = -360', "outputs.fields.az.period"),
        ('[outputs.fields."az"]\nzero = "maybe"', "outputs.fields.az.zero"),
        ('[constants]\n"bad name" = 3.0', "constants"),
        ('[constants.G]\nvalue = 9.8\nsource = "short"', "constants.G"),
    ],
)
def test_a_bad_declaration_is_one_line_naming_file_and_field(tmp_path: Path, table: str, field: str) -> None:
    wf = tmp_path / "wf"
    wf.mkdir()
    (wf / "run.py").write_text("print('{}')\n")
    (wf / "workflow.toml").write_text(
        'name = "bad"\nfamily = "fixtures"\ndomain = "data-document"\nsummary = "An '
        'angle in degrees from its input."\ncommand = ["python3", "run.py"]\n[inputs.a]\n'
        f'type = "number"\nmin = 1.0\nmax = 9.0\n{table}\n'
    )
    r = swr("check", str(wf))
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("swr: ")]
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert len(lines) == 1 and f"{wf / 'workflow.toml'}: field `{field}" in lines[0], r.stderr
