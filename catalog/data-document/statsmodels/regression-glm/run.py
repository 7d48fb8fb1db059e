"""OLS with robust errors and a Poisson GLM with statsmodels on seeded synthetic data."""

import numpy as np
from statsmodels.genmod import families
from statsmodels.genmod.generalized_linear_model import GLM
from statsmodels.regression.linear_model import OLS

NAMES = ["const", "x1", "x2", "x1_x2"]


def vec(a):
    return {k: float(v) for k, v in zip(NAMES, np.asarray(a))}


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n"])
    x1 = rng.normal(0.0, 1.0, n)
    x2 = rng.uniform(-1.0, 1.0, n)
    e = rng.normal(0.0, 1.0, n)
    X = np.column_stack([np.ones(n), x1, x2, x1 * x2])
    b = np.array([float(scn["b0"]), float(scn["b1"]), float(scn["b2"]), float(scn["b12"])])
    eta = X @ b
    sd = float(scn["noise_sd"]) * (1.0 + float(scn["hetero"]) * np.abs(x2))
    y = eta + sd * e
    counts = rng.poisson(np.exp(0.3 * eta)).astype(np.float64)

    ols = OLS(y, X).fit()
    robust = ols.get_robustcov_results(cov_type="HC3")
    glm = GLM(counts, X, family=families.Poisson()).fit()

    return {
        "ols": {
            "params": vec(ols.params), "bse": vec(ols.bse), "bse_hc3": vec(robust.bse),
            "tvalues": vec(ols.tvalues), "rsquared": float(ols.rsquared),
            "rsquared_adj": float(ols.rsquared_adj), "fvalue": float(ols.fvalue),
            "llf": float(ols.llf), "aic": float(ols.aic), "bic": float(ols.bic),
            "scale": float(ols.scale), "condition_number": float(ols.condition_number),
            "conf_int_x1": [float(v) for v in ols.conf_int(alpha=float(scn["alpha"]))[1]],
        },
        "poisson_glm": {
            "params": vec(glm.params), "bse": vec(glm.bse), "tvalues": vec(glm.tvalues),
            "deviance": float(glm.deviance), "pearson_chi2": float(glm.pearson_chi2),
            "llf": float(glm.llf), "aic": float(glm.aic),
            "conf_int_x1": [float(v) for v in glm.conf_int(alpha=float(scn["alpha"]))[1]],
            "mean_count": float(counts.mean()),
        },
    }
