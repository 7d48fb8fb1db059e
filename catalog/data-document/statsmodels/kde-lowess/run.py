"""Nonparametric smoothing with statsmodels: a Gaussian kernel density estimate (KDEUnivariate, rule-of-thumb
bandwidths, exact evaluation) of a seeded two-component mixture, and a robust LOWESS fit of a noisy sine."""

import numpy as np
from statsmodels.nonparametric.kde import KDEUnivariate
from statsmodels.nonparametric.smoothers_lowess import lowess

POINTS = [-3.0, -1.5, 0.0, 1.5, 3.0]


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n"])
    sep = float(scn["separation"])
    comp = rng.random(n) < float(scn["mix_weight"])
    x = np.where(comp, -sep / 2.0, sep / 2.0) + rng.standard_normal(n)
    xs = np.sort(rng.uniform(0.0, 2.0 * np.pi, n))
    y = np.sin(xs) + float(scn["noise_sd"]) * rng.standard_normal(n)

    kde = KDEUnivariate(x)
    kde.fit(kernel="gau", bw=str(scn["bw_method"]), adjust=float(scn["bw_adjust"]), fft=False)
    grid = np.round(np.linspace(-8.0, 8.0, 161), 1)
    dens = kde.evaluate(grid)
    floor = 1e-3 * dens.max()  # a bump in the far tails is rounding, not a mode
    peaks = [i for i in range(1, len(grid) - 1) if dens[i] > dens[i - 1] and dens[i] > dens[i + 1] and dens[i] > floor]
    top = max(peaks, key=lambda i: dens[i])

    fit = lowess(y, xs, frac=float(scn["lowess_frac"]), it=3, delta=0.0, return_sorted=False)
    idx = [k * (n - 1) // 10 for k in range(11)]
    return {
        "kde": {
            "bandwidth": float(kde.bw),
            "density_at_points": [float(v) for v in kde.evaluate(np.array(POINTS))],
            "n_modes": len(peaks),
            "highest_mode": float(grid[top]),
            "highest_density": float(dens[top]),
        },
        "lowess": {
            "fitted_at_deciles": [float(fit[i]) for i in idx],
            "x_at_deciles": [float(xs[i]) for i in idx],
            "sd_about_fit": float(np.std(y - fit, ddof=1)),
        },
    }
