"""Robust and quantile regression with statsmodels on seeded contaminated data: RLM (M-estimation by IRLS with a
Huber, Tukey biweight or Hampel norm, MAD scale) and QuantReg (IRLS quantile regression)."""

import numpy as np
from statsmodels.regression.quantile_regression import QuantReg
from statsmodels.robust import norms
from statsmodels.robust.robust_linear_model import RLM

NORMS = {
    "huber": lambda: norms.HuberT(t=1.345),
    "tukey": lambda: norms.TukeyBiweight(c=4.685),
    "hampel": lambda: norms.Hampel(a=2.0, b=4.0, c=8.0),
}


def pair(a):
    return {"const": float(a[0]), "x": float(a[1])}


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n"])
    x = rng.uniform(0.0, 10.0, n)
    e = rng.normal(0.0, float(scn["noise_sd"]), n)
    out = rng.random(n) < float(scn["outlier_fraction"])
    y = float(scn["intercept"]) + float(scn["slope"]) * x + e + float(scn["outlier_shift"]) * out
    X = np.column_stack([np.ones(n), x])

    rlm = RLM(y, X, M=NORMS[str(scn["norm"])]()).fit(maxiter=200, tol=1e-12)
    q = float(scn["quantile"])
    qr = QuantReg(y, X).fit(q=q, max_iter=5000, p_tol=1e-10)
    x5 = np.array([1.0, 5.0])
    return {
        "n_outliers": int(out.sum()),
        "rlm": {
            "params": pair(rlm.params),
            "bse": pair(rlm.bse),
            "scale": float(rlm.scale),
            "n_downweighted": int((rlm.weights < 0.5).sum()),
            "min_weight": float(rlm.weights.min()),
            "prediction_at_5": float(x5 @ rlm.params),
        },
        "quantreg": {"params": pair(qr.params), "bse": pair(qr.bse), "prediction_at_5": float(x5 @ qr.params)},
    }
