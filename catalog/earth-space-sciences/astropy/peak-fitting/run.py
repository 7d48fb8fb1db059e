"""Injection-recovery of a blended emission line with astropy.modeling: a Gaussian + Lorentzian + linear
continuum compound model fitted to seeded noisy samples by the Levenberg-Marquardt fitter.

Entry workflow: served by warm workers that import this module once; main() builds new models and a new
fitter per call. The noise is drawn from numpy's PCG64 generator seeded by the scenario.
"""

import numpy as np
from astropy.modeling import fitting, models

X_MIN, X_MAX = -10.0, 10.0
CONTINUUM = (1.0, 0.05)  # c0, c1 of the injected linear continuum


def compound(g_amp, g_mean, g_std, l_amp, l_x0, l_fwhm, c0, c1):
    return (
        models.Gaussian1D(amplitude=g_amp, mean=g_mean, stddev=g_std)
        + models.Lorentz1D(amplitude=l_amp, x_0=l_x0, fwhm=l_fwhm)
        + models.Polynomial1D(1, c0=c0, c1=c1)
    )


def main(scenario: dict) -> dict:
    g = [float(scenario[k]) for k in ("gauss_amplitude", "gauss_mean", "gauss_stddev")]
    lo = [float(scenario[k]) for k in ("lorentz_amplitude", "lorentz_x0", "lorentz_fwhm")]
    sigma = float(scenario["noise_sigma"])
    x = np.linspace(X_MIN, X_MAX, int(scenario["n_samples"]))
    truth = compound(*g, *lo, *CONTINUUM)
    rng = np.random.default_rng(int(scenario["seed"]))
    y = truth(x) + rng.normal(0.0, sigma, x.size)

    init = compound(0.8 * g[0], g[1] + 0.3, 1.25 * g[2], 0.8 * lo[0], lo[1] - 0.3, 1.25 * lo[2], 0.0, 0.0)
    fitter = fitting.LevMarLSQFitter()
    fit = fitter(init, x, y, maxiter=2000)
    gauss, lorentz, cont = fit[0], fit[1], fit[2]
    chi2 = float(np.sum(((y - fit(x)) / sigma) ** 2))
    return {
        "gaussian": {
            "amplitude": float(gauss.amplitude.value),
            "mean": float(gauss.mean.value),
            "stddev": float(abs(gauss.stddev.value)),
            "fwhm": float(abs(gauss.fwhm)),
            "integral": float(gauss.amplitude.value * abs(gauss.stddev.value) * np.sqrt(2 * np.pi)),
        },
        "lorentzian": {
            "amplitude": float(lorentz.amplitude.value),
            "x0": float(lorentz.x_0.value),
            "fwhm": float(abs(lorentz.fwhm.value)),
        },
        "continuum": {"c0": float(cont.c0.value), "c1": float(cont.c1.value)},
        "chi2": chi2,
        "reduced_chi2": chi2 / (x.size - 8),
        "data_sum": float(np.sum(y)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
