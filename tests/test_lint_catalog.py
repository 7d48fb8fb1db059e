"""The shipped catalog's `swr audit lint` findings of issue 15, fixed at their cause (catalog/defects.toml
SWR-D014), each workflow built for real: a loose tolerance now rejects the output it let through, an independent
correct computation still passes, and a boundary value is reported as the exact value it is. The catalog's
`[[lint.accept]]` tables are well formed (whether each still matches a finding is lint's `stale_accept`)."""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest
from conftest import CATALOG
from test_catalog_defects import build_one, lookup, mismatched

from swr.audit.lint import CHECKS, lint_audit
from swr.audit.oracle import within
from swr.judge import Tolerances
from swr.kinds.workflow.grading import grade
from swr.kinds.workflow.spec import load_spec
from swr.kinds.workflow.task import Task

# --- SWR-D014: rlc-ac-transient's sweep gains two decades above f0 ------------------------------------------

OLD = Tolerances(atol=1e-9, rtol=1e-5, fields=(("transient.samples", 1e-8, 1e-4),))  # before the fix
SHIFT_DB = 2e-4  # a 2.3e-5 error in the gain: a wrong circuit, not a rounding


@pytest.fixture(scope="module")
def rlc(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return build_one(tmp_path_factory.mktemp("rlc"), "rlc-ac-transient")


def _rolloff_shifted(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
    for row in out["ac"]["response"]:
        if row["gain_dB"] < -40.0:
            row["gain_dB"] += SHIFT_DB
    return out


def _analytic(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
    """The sweep gains recomputed from the circuit (series R1, L, ESR into C parallel RL), not by ngspice."""
    r = sc["series_R_ohm"] + sc["inductor_esr_ohm"]
    inductance, c, rl = sc["inductance_uH"] * 1e-6, sc["capacitance_nF"] * 1e-9, sc["load_R_ohm"]
    for row in out["ac"]["response"]:
        w = 2 * math.pi * row["f_Hz"]
        zp = rl / (1 + 1j * w * c * rl)
        row["gain_dB"] = 20 * math.log10(abs(zp / (r + 1j * w * inductance + zp)))
    return out


def test_a_rolloff_off_by_2e4_db_fails(rlc: Task, sandbox, tmp_path: Path) -> None:
    for h in rlc.hidden:  # the old tolerance let it through
        assert within(h.output, _rolloff_shifted(copy.deepcopy(h.output), tmp_path, {}), OLD)
    v = grade(rlc, lookup(tmp_path / "c", rlc, _rolloff_shifted), sandbox)
    assert not v.passed and v.label == "numeric_mismatch", v.label
    assert {p.rsplit(".", 1)[-1] for p in mismatched(v)} == {"gain_dB"}


def test_the_gain_from_the_transfer_function_passes(rlc: Task, sandbox, tmp_path: Path) -> None:
    v = grade(rlc, lookup(tmp_path / "c", rlc, _analytic), sandbox)
    assert v.passed, mismatched(v)


def test_rlc_lints_clean(rlc: Task) -> None:
    assert lint_audit(rlc.root.parent.parent)["findings"] == []


# --- elastica-bvp: the clamp sample is the boundary condition, not solver roundoff -------------------------


def test_the_clamp_sample_is_exactly_zero_and_lints_clean(tmp_path: Path) -> None:
    task = build_one(tmp_path, "elastica-bvp")
    firsts = [ex.output["samples"][0] for ex in [*task.public, *task.hidden]]
    assert all((s["x"], s["y"], s["theta_deg"]) == (0.0, 0.0, 0.0) for s in firsts), firsts
    assert len({ex.output["samples"][1]["x"] for ex in task.hidden}) == len(task.hidden)  # the rest still varies
    assert lint_audit(tmp_path / "release")["findings"] == []


# --- the catalog's accepts ---------------------------------------------------------------------------------


def test_every_catalog_accept_names_a_check_and_a_reason() -> None:
    accepts = [
        (spec.name, a)
        for d in sorted(CATALOG.glob("*/*/*/workflow.toml"))
        for spec in [load_spec(d.parent)]
        for a in spec.lint.accept
    ]
    assert accepts, "the catalog declares its accepted findings"
    for name, a in accepts:
        assert a.check in CHECKS and a.field and a.why.endswith("."), (name, a)
