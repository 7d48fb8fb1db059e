"""Plan and analyse an A/B conversion test with statsmodels.stats: Cohen's h (proportion_effectsize), sample size
and power of the two-sample z test (NormalIndPower), the pooled z test (proportions_ztest), per-arm intervals
(proportion_confint) and Newcombe's interval of the difference (confint_proportions_2indep)."""

import numpy as np
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    proportion_effectsize,
    proportions_ztest,
)


def main(scn):
    p1 = float(scn["baseline_rate"])
    p2 = p1 * (1.0 + float(scn["lift"]))
    alpha = float(scn["alpha"])
    n_total = int(scn["n_total"])
    n_b = int(round(n_total * float(scn["traffic_b"])))
    n_a = n_total - n_b
    rng = np.random.default_rng(int(scn["seed"]))
    c_a = int(rng.binomial(n_a, p1))
    c_b = int(rng.binomial(n_b, p2))

    h = float(proportion_effectsize(p2, p1))
    power = NormalIndPower()
    need_a = float(
        power.solve_power(
            effect_size=h, alpha=alpha, power=float(scn["target_power"]), ratio=n_b / n_a, alternative="two-sided"
        )
    )
    achieved = float(power.power(h, nobs1=n_a, alpha=alpha, ratio=n_b / n_a, alternative="two-sided"))
    z, p = proportions_ztest([c_b, c_a], [n_b, n_a], alternative="two-sided")
    method = str(scn["ci_method"])
    ci_a = proportion_confint(c_a, n_a, alpha=alpha, method=method)
    ci_b = proportion_confint(c_b, n_b, alpha=alpha, method=method)
    diff = confint_proportions_2indep(c_b, n_b, c_a, n_a, method="newcomb", compare="diff", alpha=alpha)
    return {
        "arms": {
            "a": {"n": n_a, "conversions": c_a, "ci": [float(v) for v in ci_a]},
            "b": {"n": n_b, "conversions": c_b, "ci": [float(v) for v in ci_b]},
        },
        "cohens_h": h,
        "required_n_a": need_a,
        "required_n_b": need_a * n_b / n_a,
        "achieved_power": achieved,
        "z_test": {"z": float(z), "pvalue": float(p), "significant": bool(p < alpha)},
        "diff_ci_newcombe": [float(v) for v in diff],
    }
