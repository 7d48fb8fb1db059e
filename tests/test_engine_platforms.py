"""References that do not depend on the CPU (issue 23.1): each engine's hand-derived self-tests hold on every
OpenBLAS kernel, whatever the machine's own, and the build measures each threshold's margin against the
variation between two kernels.

On an AMD EPYC machine with no OPENBLAS_CORETYPE, the statistics reference computed the exact fit
y = 1 + x^2 with a residual sum of squares of 3e-30 (0 on the Haswell kernel) and printed F = 7.8e30 where
the spec, and its self-test, say F is undefined; the engines build then left the engine out."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import ROOT

from swr.kinds.engine import check
from swr.kinds.engine.spec import load_engine
from swr.kinds.engine.verdict import CheckRecord
from swr.sandbox import Sandbox

ENGINES = ROOT / "engines"
KERNELS = ["", "Prescott", "SandyBridge", "Haswell", "Zen"]  # "": OpenBLAS picks the kernel of this CPU


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_statistics_reference_holds_its_self_tests_on_every_blas_kernel(
    kernel: str, sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sandbox forwards OPENBLAS_CORETYPE from swr's environment: set it (or take it away) there."""
    monkeypatch.delenv("OPENBLAS_L2_SIZE", raising=False)
    if kernel:
        monkeypatch.setenv("OPENBLAS_CORETYPE", kernel)
    else:
        monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    assert check.selftests(load_engine(ENGINES / "statistics"), sandbox) == []


def test_an_exact_fit_is_decided_by_a_scale_aware_rule(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same exact fit scaled by 10^k: rounding noise scales with it, and the rule still sees an exact fit;
    a fit with a real residual 1e-9 of the data's size is not one."""
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Prescott")
    spec = load_engine(ENGINES / "statistics")
    xs = [0, 1, 2, 3, 4, 5]
    analyses = [
        {"id": f"s{k}", "procedure": "linear", "x": [xs], "degree": 2, "y": [(1 + x * x) * 10.0**k for x in xs]}
        for k in (-8, 0, 8)
    ]
    analyses.append(
        {
            "id": "real",
            "procedure": "linear",
            "x": [xs],
            "degree": 2,
            "y": [1 + x * x + (1e-9 if x == 2 else 0.0) for x in xs],
        }
    )
    from swr.kinds.engine.grading import run_candidate

    ran = run_candidate(spec, spec.directory / "reference", {"id": "t", "input": {"analyses": analyses}}, sandbox)
    assert ran.output is not None, ran.detail
    got = {r["id"]: r for r in ran.output["results"]}
    for k in (-8, 0, 8):
        r = got[f"s{k}"]
        assert r["anova"]["f"] is None and r["anova"]["residual"]["ss"] == 0.0 and r["residual_sd"] == 0.0, r
        assert r["standard_errors"] == [0.0, 0.0, 0.0], r
    assert got["real"]["anova"]["f"] is not None and got["real"]["anova"]["residual"]["ss"] > 0, got["real"]


def test_a_margin_smaller_than_twice_the_platform_variation_is_refused() -> None:
    """The build's rule, on the statistics engine's checks: a case that moves between kernels more than
    half its margin makes the threshold unsafe on another CPU."""
    spec = load_engine(ENGINES / "statistics")

    def recs(value: float) -> list[CheckRecord]:
        return [
            CheckRecord(
                case="h1",
                check="lre_linear",
                kind="tolerance",
                measured=value,
                threshold=None,
                better="higher",
                passed=True,
                detail="",
            )
        ]

    steady = check.achievability(spec, recs(9.0), recs(8.9))[0]  # required 6.5: margin 2.4, variation 0.1
    assert steady["margin_ok"] and steady["variation"] == pytest.approx(0.1)
    shaky = check.achievability(spec, recs(9.0), recs(7.3))[0]  # margin 0.8, variation 1.7
    assert not shaky["margin_ok"] and shaky["attained"] == 7.3 and shaky["margin"] == pytest.approx(0.8)
    below = check.achievability(spec, recs(6.0), recs(6.0))[0]  # under the required level, no variation
    assert not below["margin_ok"]


def test_the_build_prints_every_engine_threshold_with_its_margin(engines_release: Path) -> None:
    """build.json keeps each tolerance check's attained value, margin and variation; none is refused."""
    for task in sorted((engines_release / "tasks").iterdir()):
        record = json.loads((task / "private" / "build.json").read_text())
        for a in record["achievability"]:
            assert {"attained", "required", "margin", "variation"} <= set(a), (task.name, a)
            assert a["margin_ok"] and a["margin"] >= 2 * a["variation"], (task.name, a)


def test_the_perturbed_platform_is_another_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Prescott")
    other = check.perturbed_platform()
    assert other and other["OPENBLAS_CORETYPE"] != os.environ["OPENBLAS_CORETYPE"]
