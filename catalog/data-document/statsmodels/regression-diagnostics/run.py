"""Diagnose a least-squares fit with statsmodels' diagnostic tools: variance inflation factors, Breusch-Pagan and
White heteroscedasticity tests, Durbin-Watson and Jarque-Bera statistics and the OLSInfluence measures (leverage,
Cook's distance, externally studentized residuals, DFFITS), the per-observation table written as CSV.

Entry workflow: warm workers import this module once; main() draws new data per call with numpy's PCG64
generator seeded by the scenario.
"""

import os

import numpy as np
import pandas as pd
from statsmodels.regression.linear_model import OLS
from statsmodels.stats.diagnostic import het_breuschpagan, het_white
from statsmodels.stats.outliers_influence import OLSInfluence, variance_inflation_factor
from statsmodels.stats.stattools import durbin_watson, jarque_bera


def data(scenario: dict) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(int(scenario["seed"]))
    n, c = int(scenario["n_obs"]), float(scenario["collinearity"])
    x1 = rng.normal(0.0, 1.0, n)
    x2 = c * x1 + np.sqrt(1.0 - c * c) * rng.normal(0.0, 1.0, n)
    x3 = rng.uniform(0.0, 2.0, n)
    shocks = rng.normal(0.0, 1.0, n) * (1.0 + float(scenario["hetero_strength"]) * x3)
    rho, e = float(scenario["autocorr_rho"]), np.empty(n)
    e[0] = shocks[0]
    for t in range(1, n):
        e[t] = rho * e[t - 1] + shocks[t]
    y = 1.0 + 2.0 * x1 - 1.0 * x2 + 0.5 * x3 + e
    idx = rng.choice(n, size=int(scenario["n_outliers"]), replace=False)
    y[idx] += float(scenario["outlier_size_sd"]) * rng.choice([-1.0, 1.0], size=idx.size)
    return np.column_stack([np.ones(n), x1, x2, x3]), y


def main(scenario: dict) -> dict:
    x, y = data(scenario)
    fit = OLS(y, x).fit()
    inf = OLSInfluence(fit)
    table = pd.DataFrame(
        {
            "obs": np.arange(1, y.size + 1),
            "leverage": inf.hat_matrix_diag,
            "cooks_d": inf.cooks_distance[0],
            "student_resid": inf.resid_studentized_external,
            "dffits": inf.dffits[0],
        }
    )
    table.to_csv(os.path.join(os.environ["SWR_ARTIFACTS"], "influence.csv"), index=False)
    bp = het_breuschpagan(fit.resid, x)
    white = het_white(fit.resid, x)
    jb = jarque_bera(fit.resid)
    cut = 4.0 / y.size
    return {
        "table": "influence.csv",
        "params": [float(v) for v in fit.params],
        "vif": [float(variance_inflation_factor(x, j)) for j in range(1, 4)],
        "breusch_pagan": [float(bp[0]), float(bp[1])],
        "white": [float(white[0]), float(white[1])],
        "durbin_watson": float(durbin_watson(fit.resid)),
        "jarque_bera": [float(jb[0]), float(jb[1])],
        "influential_obs": [int(i) + 1 for i in np.flatnonzero(inf.cooks_distance[0] > cut)],
        "max_cooks_d": float(inf.cooks_distance[0].max()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
