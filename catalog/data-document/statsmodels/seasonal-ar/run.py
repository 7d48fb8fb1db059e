"""Time-series analysis with statsmodels: STL decomposition, ADF test, AutoReg and ARMA fits, forecasts."""

import warnings

import numpy as np
from statsmodels.tsa.ar_model import AutoReg
from statsmodels.tsa.arima.model import ARIMA
from statsmodels.tsa.arima_process import arma_generate_sample
from statsmodels.tsa.seasonal import STL
from statsmodels.tsa.stattools import acf, adfuller, pacf


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n"])
    period = int(scn["period"])
    phi, theta = float(scn["phi"]), float(scn["theta"])
    noise = arma_generate_sample([1.0, -phi], [1.0, theta], nsample=n, scale=float(scn["sigma"]),
                                 distrvs=rng.standard_normal, burnin=100)
    t = np.arange(n, dtype=np.float64)
    y = (float(scn["level"]) + float(scn["slope"]) * t
         + float(scn["season_amplitude"]) * np.sin(2.0 * np.pi * t / period) + noise)

    stl = STL(y, period=period, robust=True).fit()
    resid = stl.resid
    var_r = np.var(resid)
    strength_trend = max(0.0, 1.0 - var_r / np.var(stl.trend + resid))
    strength_season = max(0.0, 1.0 - var_r / np.var(stl.seasonal + resid))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        adf = adfuller(y, maxlag=int(scn["adf_maxlag"]), regression="ct", autolag=None)

    deseason = y - stl.seasonal
    ar = AutoReg(deseason, lags=int(scn["ar_lags"]), trend="ct").fit()
    ar_fc = ar.predict(start=n, end=n + int(scn["horizon"]) - 1)

    remainder = deseason - stl.trend
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        arma = ARIMA(remainder, order=(1, 0, 1), trend="n").fit()

    return {
        "stl": {"strength_trend": float(strength_trend), "strength_seasonal": float(strength_season),
                "seasonal_first_period": [float(v) for v in stl.seasonal[:period]],
                "trend_last": float(stl.trend[-1]), "resid_std": float(np.std(resid))},
        "adf": {"statistic": float(adf[0]), "pvalue": float(adf[1]),
                "crit_5pct": float(adf[4]["5%"])},
        "autoreg": {"params": [float(v) for v in ar.params], "sigma2": float(ar.sigma2),
                    "aic": float(ar.aic), "forecast": [float(v) for v in ar_fc]},
        "arma_remainder": {"param_names": list(arma.model.param_names),
                           "params": [float(v) for v in arma.params],
                           "llf": float(arma.llf), "aic": float(arma.aic)},
        "acf": [float(v) for v in acf(y, nlags=6, fft=False)[1:]],
        "pacf": [float(v) for v in pacf(y, nlags=6, method="ywadjusted")[1:]],
    }
