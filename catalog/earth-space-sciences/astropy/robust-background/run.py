"""Outlier-robust background estimation and counting statistics with astropy.stats: sigma clipping,
biweight and MAD estimators, Bayesian Blocks segmentation, and Poisson / KBN / Wilson confidence intervals.

Entry workflow: served by warm workers that import this module once; main() builds new objects per call.
The sample is drawn from numpy's PCG64 generator seeded by the scenario.
"""

import numpy as np
import scipy.special  # noqa: F401  (imported once per worker: astropy.stats' intervals use it)
from astropy import stats

N_SIGMA_POISSON = 1  # frequentist-confidence interval width for the on-source counts


def sample(scenario: dict) -> np.ndarray:
    rng = np.random.default_rng(int(scenario["seed"]))
    n = int(scenario["n_samples"])
    sigma = float(scenario["background_sigma"])
    x = rng.normal(float(scenario["background_level"]), sigma, n)
    k = int(round(float(scenario["outlier_fraction"]) * n))
    x[:k] += rng.exponential(float(scenario["outlier_scale"]) * sigma, k)
    return x


def main(scenario: dict) -> dict:
    x = sample(scenario)
    clip = stats.SigmaClip(sigma=float(scenario["clip_sigma"]), maxiters=10, cenfunc="median", stdfunc="std")
    mask = np.ma.getmaskarray(clip(x))
    mean, median, std = stats.sigma_clipped_stats(
        x, sigma=float(scenario["clip_sigma"]), maxiters=10, cenfunc="median", stdfunc="std"
    )
    n_rejected = int(mask.sum())
    cl = float(scenario["confidence_level"])
    edges = stats.bayesian_blocks(x, fitness="events", p0=0.05)
    on = int(scenario["on_counts"])
    kbn = stats.poisson_conf_interval(
        on, interval="kraft-burrows-nousek", background=float(scenario["off_background_counts"]), confidence_level=cl
    )
    return {
        "sigma_clipped": {"mean": float(mean), "median": float(median), "std": float(std), "rejected": n_rejected},
        "biweight_location": float(stats.biweight_location(x, c=6.0)),
        "biweight_scale": float(stats.biweight_scale(x, c=9.0)),
        "mad_std": float(stats.mad_std(x)),
        "median_absolute_deviation": float(stats.median_absolute_deviation(x)),
        "bayesian_blocks_edges": [float(e) for e in edges],
        "rejected_fraction_wilson": [
            float(v) for v in stats.binom_conf_interval(n_rejected, x.size, confidence_level=cl, interval="wilson")
        ],
        "on_counts_poisson_1sigma": [
            float(v) for v in stats.poisson_conf_interval(on, interval="frequentist-confidence", sigma=N_SIGMA_POISSON)
        ],
        "source_counts_kbn": [float(np.ravel(kbn)[0]), float(np.ravel(kbn)[1])],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
