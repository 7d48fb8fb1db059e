"""Binary-choice models with statsmodels.discrete: Logit and Probit by Newton-Raphson, average/at-mean marginal
effects (get_margeff) and the classification table (pred_table)."""

import numpy as np
from statsmodels.discrete.discrete_model import Logit, Probit

NAMES = ["const", "x1", "x2", "x3"]


def vec(a, names=NAMES):
    return {k: float(v) for k, v in zip(names, np.asarray(a))}


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n"])
    x1 = rng.normal(0.0, 1.0, n)
    x2 = (rng.random(n) < 0.5).astype(np.float64)
    x3 = rng.uniform(0.0, 10.0, n)
    X = np.column_stack([np.ones(n), x1, x2, x3])
    eta = X @ np.array([float(scn["b0"]), float(scn["b1"]), float(scn["b2"]), float(scn["b3"])])
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-eta))).astype(np.float64)

    logit = Logit(y, X).fit(method="newton", disp=0, tol=1e-12, maxiter=100)
    probit = Probit(y, X).fit(method="newton", disp=0, tol=1e-12, maxiter=100)
    me = logit.get_margeff(at=str(scn["margeff_at"]), method="dydx")
    table = logit.pred_table(threshold=float(scn["threshold"]))
    return {
        "share_positive": float(y.mean()),
        "logit": {
            "params": vec(logit.params),
            "bse": vec(logit.bse),
            "llf": float(logit.llf),
            "llnull": float(logit.llnull),
            "prsquared": float(logit.prsquared),
            "llr": float(logit.llr),
            "odds_ratio_x2": float(np.exp(logit.params[2])),
        },
        "marginal_effects": {"dydx": vec(me.margeff, NAMES[1:]), "se": vec(me.margeff_se, NAMES[1:])},
        "pred_table": [[int(v) for v in row] for row in table],
        "probit": {
            "params": vec(probit.params),
            "bse": vec(probit.bse),
            "llf": float(probit.llf),
            "aic": float(probit.aic),
        },
    }
