"""Period search in an unevenly sampled light curve with astropy.timeseries.LombScargle: the periodogram on
astropy's automatic frequency grid, the peak's false-alarm statistics and one- and two-term model fits.

Entry workflow: served by warm workers that import this module once; main() builds new objects per call.
The exact 'cython' periodogram is used (not the approximate 'fast' one), so the powers are reproducible.
"""

import numpy as np
from astropy.timeseries import LombScargle

F_MIN, F_MAX = 0.02, 2.5  # cycles per day
SAMPLES_PER_PEAK = 10


def main(scenario: dict) -> dict:
    period = float(scenario["period_d"])
    amp = float(scenario["amplitude_mag"])
    harm = float(scenario["harmonic_ratio"])
    sigma = float(scenario["noise_sigma_mag"])
    rng = np.random.default_rng(int(scenario["seed"]))
    t = np.sort(rng.uniform(0.0, float(scenario["baseline_d"]), int(scenario["n_obs"])))
    phase = 2.0 * np.pi * t / period
    y = amp * np.sin(phase) + harm * amp * np.sin(2.0 * phase) + rng.normal(0.0, sigma, t.size)
    dy = np.full(t.size, sigma)

    ls = LombScargle(t, y, dy, nterms=1)
    freq, power = ls.autopower(
        minimum_frequency=F_MIN, maximum_frequency=F_MAX, samples_per_peak=SAMPLES_PER_PEAK, method="cython"
    )
    best = int(np.argmax(power))
    f_best = float(freq[best])
    grid = dict(minimum_frequency=F_MIN, maximum_frequency=F_MAX, samples_per_peak=SAMPLES_PER_PEAK)
    fap = ls.false_alarm_probability(power[best], method="baluev", **grid)
    levels = ls.false_alarm_level([0.01, 0.001], method="baluev", **grid)
    two = LombScargle(t, y, dy, nterms=2)
    return {
        "n_frequencies": int(freq.size),
        "best_period_d": 1.0 / f_best,
        "peak_power": float(power[best]),
        "log10_false_alarm_probability": float(np.log10(fap)),
        "false_alarm_levels": [float(v) for v in levels],
        "power_at_true_period": float(ls.power(1.0 / period, method="cython")),
        "one_term": {"offset": float(ls.offset()), "theta": [float(v) for v in ls.model_parameters(f_best)]},
        "two_term": {"power": float(two.power(f_best)), "theta": [float(v) for v in two.model_parameters(f_best)]},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
