"""Multi-centre case-control study analysed with statsmodels' contingency tables: per-centre Table2x2 odds ratios
and association tests, the Mantel-Haenszel pooled odds ratio with its confidence interval and test of no
association (StratifiedTable.test_null_odds), and the Breslow-Day test of homogeneous odds ratios
(test_equal_odds). Per-centre results are written as CSV.

Entry workflow: warm workers import this module once; main() draws new tables per call from numpy's PCG64
generator seeded by the scenario.
"""

import math
import os

import numpy as np
import pandas as pd
from statsmodels.stats.contingency_tables import StratifiedTable, Table2x2


def tables(scenario: dict) -> list[np.ndarray]:
    rng = np.random.default_rng(int(scenario["seed"]))
    n = int(scenario["subjects_per_group"])
    p0 = float(scenario["exposure_in_controls"])
    out = []
    for _ in range(int(scenario["n_centres"])):
        log_or = math.log(float(scenario["true_odds_ratio"])) + float(scenario["heterogeneity"]) * rng.standard_normal()
        odds1 = p0 / (1.0 - p0) * math.exp(log_or)
        a = int(rng.binomial(n, odds1 / (1.0 + odds1)))
        c = int(rng.binomial(n, p0))
        out.append(np.array([[a, n - a], [c, n - c]]))
    return out


def main(scenario: dict) -> dict:
    tabs = tables(scenario)
    alpha = float(scenario["alpha"])
    rows = []
    for j, t in enumerate(tabs):
        t22 = Table2x2(t, shift_zeros=True)
        lo, hi = t22.oddsratio_confint(alpha=alpha)
        rows.append(
            {
                "centre": j + 1,
                "exposed_cases": int(t[0, 0]),
                "unexposed_cases": int(t[0, 1]),
                "exposed_controls": int(t[1, 0]),
                "unexposed_controls": int(t[1, 1]),
                "odds_ratio": float(t22.oddsratio),
                "log_or_se": float(t22.log_oddsratio_se),
                "or_lower": float(lo),
                "or_upper": float(hi),
                "chi2_pvalue": float(t22.test_nominal_association().pvalue),
            }
        )
    per = pd.DataFrame(rows)
    per.to_csv(os.path.join(os.environ["SWR_ARTIFACTS"], "centres.csv"), index=False)
    st = StratifiedTable(tabs, shift_zeros=True)
    lo, hi = st.oddsratio_pooled_confint(alpha=alpha)
    null = st.test_null_odds(correction=bool(scenario["continuity_correction"]))
    homog = st.test_equal_odds(adjust=bool(scenario["tarone_adjust"]))
    return {
        "table": "centres.csv",
        "pooled_odds_ratio": float(st.oddsratio_pooled),
        "pooled_or_ci": [float(lo), float(hi)],
        "pooled_log_or_se": float(st.logodds_pooled_se),
        "pooled_risk_ratio": float(st.riskratio_pooled),
        "mh_statistic": float(null.statistic),
        "mh_pvalue": float(null.pvalue),
        "breslow_day_statistic": float(homog.statistic),
        "breslow_day_pvalue": float(homog.pvalue),
        "centres_significant": int((per["chi2_pvalue"] < alpha).sum()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
