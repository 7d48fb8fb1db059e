"""Two-factor field trial with statsmodels: a formula OLS with interaction and covariate, its type-II ANOVA table
(anova_lm), pairwise pooled-variance t-tests (weightstats.ttest_ind) with Holm's correction (multipletests) and
Welch's one-way ANOVA (anova_oneway)."""

import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.oneway import anova_oneway
from statsmodels.stats.weightstats import ttest_ind

BASE_YIELD = 5.0  # t/ha, stated in the summary
SOIL_COEF = 2.0  # t/ha per unit soil index, stated in the summary
TERMS = {"C(fert)": "fertilizer", "C(variety)": "variety", "C(fert):C(variety)": "interaction", "soil": "soil"}


def trial(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    nf, nv, reps = int(scn["n_fertilizer"]), int(scn["n_variety"]), int(scn["reps"])
    f = np.repeat(np.arange(nf), nv * reps)
    v = np.tile(np.repeat(np.arange(nv), reps), nf)
    n = f.size
    soil = rng.uniform(0.0, 1.0, n)
    e = rng.normal(0.0, float(scn["noise_sd"]), n)
    y = (
        BASE_YIELD
        + float(scn["fert_step"]) * f
        + float(scn["variety_effect"]) * v
        + float(scn["interaction"]) * f * v
        + SOIL_COEF * soil
        + e
    )
    return pd.DataFrame({"fert": [f"F{i}" for i in f], "variety": [f"V{i}" for i in v], "soil": soil, "y": y})


def main(scn):
    df = trial(scn)
    model = smf.ols("y ~ C(fert) * C(variety) + soil", data=df).fit()
    table = anova_lm(model, typ=2)
    groups = sorted(df["fert"].unique())
    pairs = [(a, b) for i, a in enumerate(groups) for b in groups[i + 1 :]]
    tests = [ttest_ind(df.loc[df["fert"] == b, "y"], df.loc[df["fert"] == a, "y"], usevar="pooled") for a, b in pairs]
    reject, p_holm, _, _ = multipletests([t[1] for t in tests], alpha=float(scn["alpha"]), method="holm")
    mean = df.groupby("fert")["y"].mean()
    welch = anova_oneway(df["y"], df["fert"], use_var="unequal")
    return {
        "n_plots": int(len(df)),
        "rsquared": float(model.rsquared),
        "soil_coefficient": float(model.params["soil"]),
        "anova": {
            name: {
                "sum_sq": float(table.loc[t, "sum_sq"]),
                "df": float(table.loc[t, "df"]),
                "F": float(table.loc[t, "F"]),
                "pvalue": float(table.loc[t, "PR(>F)"]),
            }
            for t, name in TERMS.items()
        },
        "unexplained_sum_sq": float(table.loc["Residual", "sum_sq"]),
        "pairwise": [
            {
                "pair": f"{a}-{b}",
                "meandiff": float(mean[b] - mean[a]),
                "tstat": float(t[0]),
                "pvalue_holm": float(p),
                "reject": bool(r),
            }
            for (a, b), t, p, r in zip(pairs, tests, p_holm, reject)
        ],
        "welch": {
            "statistic": float(welch.statistic),
            "pvalue": float(welch.pvalue),
            "df_denominator": float(welch.df[1]),
        },
    }
