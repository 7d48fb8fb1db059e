"""Compare incidence rates of an exposed and an unexposed cohort with statsmodels.stats.rates: the two-sample
Poisson test (Wald, score or E-test; ratio or difference), its confidence interval, one-sample tests of each
cohort against the pooled rate, and the power of a planned follow-up study (power_poisson_ratio_2indep).

Entry workflow: warm workers import this module once; main() draws new counts per call with numpy's PCG64
generator seeded by the scenario.
"""

import warnings

import numpy as np
from statsmodels.stats import rates


def main(scenario: dict) -> dict:
    rng = np.random.default_rng(int(scenario["seed"]))
    base = float(scenario["baseline_rate_per_1000py"]) / 1000.0
    py1, py0 = float(scenario["person_years_exposed"]), float(scenario["person_years_unexposed"])
    c1 = int(rng.poisson(base * float(scenario["rate_ratio"]) * py1))
    c0 = int(rng.poisson(base * py0))
    cmp, alpha = scenario["compare"], float(scenario["alpha"])
    test = rates.test_poisson_2indep(c1, py1, c0, py0, method=scenario["test_method"], compare=cmp)
    lo, hi = rates.confint_poisson_2indep(c1, py1, c0, py0, method="score", compare=cmp, alpha=alpha)
    pooled = (c1 + c0) / (py1 + py0)
    one1 = rates.test_poisson(c1, py1, pooled, method="exact-c")
    one0 = rates.test_poisson(c0, py0, pooled, method="exact-c")
    n_f = float(scenario["followup_py_per_group"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        power = rates.power_poisson_ratio_2indep(
            max(c1, 0.5) / py1,
            max(c0, 0.5) / py0,
            nobs1=n_f,
            nobs_ratio=1.0,
            exposure=1.0,
            value=1.0,
            alpha=alpha,
            alternative="two-sided",
        ).power
    return {
        "cases_exposed": c1,
        "cases_unexposed": c0,
        "rate_exposed_per_1000py": 1000.0 * c1 / py1,
        "rate_unexposed_per_1000py": 1000.0 * c0 / py0,
        "statistic": float(test.statistic),
        "pvalue": float(test.pvalue),
        "confint": [float(lo), float(hi)],
        "exposed_vs_pooled_pvalue": float(one1.pvalue),
        "unexposed_vs_pooled_pvalue": float(one0.pvalue),
        "followup_power": float(power),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
