"""Probe: what PeakUtils computes on the spectra it ships (long- and fiber-Bragg-grating transmission data in
tests/) and on a seeded synthetic spectrum: peak indexes, polynomial baselines and upper envelopes, Gaussian-
interpolated peak centres, centroids and Gaussian fits, as one JSON object recorded from the original natively.

centroid2 integrates with Simpson's rule: it is probed on odd sample counts only, where SciPy's old `simps`
and its successor `simpson` compute the same composite rule (they differ on even counts by design)."""
import json

import numpy as np
import peakutils
import scipy.signal


def floats(x):
    return [float(v) for v in np.ravel(x)]


def ints(x):
    return [int(v) for v in np.ravel(x)]


out = {}

lpg = np.loadtxt("tests/noise")[:, 1]
smooth = scipy.signal.savgol_filter(lpg, 21, 1)
out["lpg_indexes"] = ints(peakutils.indexes(smooth, thres=0.08, min_dist=50))

fbg = np.loadtxt("tests/baseline")
x, y = fbg[:, 0], fbg[:, 1]
base = peakutils.baseline(y, 3)
idx = peakutils.indexes(y - base, thres=0.03, min_dist=5)
out["fbg_baseline"] = floats(base[::25])
out["fbg_peaks_nm"] = floats(x[idx])
out["fbg_interpolated_nm"] = floats(peakutils.interpolate(x, y - base, idx, width=5))

exp = np.loadtxt("tests/exp")[:, 1]
out["exp_baseline_deg9"] = floats(peakutils.baseline(exp, 9)[::40])
out["exp_baseline_deg5_tol"] = floats(peakutils.baseline(exp * 1e3, 5, max_it=50, tol=1e-4)[::40])

t = np.linspace(0, 100, 1001)
noise = np.random.RandomState(7).random_sample(t.size) * 0.05
spectrum = (peakutils.gaussian(t, 1.0, 20.0, 3.0) + peakutils.gaussian(t, 2.0, 40.0, 5.0)
            + peakutils.gaussian(t, 3.0, 70.0, 1.5) + 0.01 * t + noise)
corrected = spectrum - peakutils.baseline(spectrum, 1)
peaks = peakutils.indexes(corrected, thres=0.3, min_dist=100)
out["synthetic_indexes"] = ints(peaks)
out["synthetic_centres"] = floats(peakutils.interpolate(t, corrected, peaks, width=20))
out["synthetic_centroids"] = floats(peakutils.interpolate(t, corrected, peaks, width=20, func=peakutils.centroid))
window = slice(peaks[1] - 30, peaks[1] + 31)
out["centroid2"] = floats(peakutils.centroid2(corrected[window], t[window]))
out["centroid2_dx"] = floats(peakutils.centroid2(np.hanning(41), dx=0.5))
out["gaussian_fit"] = floats(peakutils.gaussian_fit(t[window], corrected[window], center_only=False))
out["abs_threshold"] = ints(peakutils.indexes([0, 5, 0, 8, 0, 15, 0, 3, 0], thres=4, thres_abs=True))
scaled, old_range = peakutils.scale(np.array([-2.0, -1.0, 0.5, 1.0, 3.0]), (-10, 8))
out["scale"] = floats(scaled) + floats(old_range)
plateau = np.zeros(20)
plateau[1:6], plateau[8:9], plateau[11:19] = 1.0, 2.0, 3.0
out["plateau_indexes"] = ints(peakutils.indexes(plateau))
spikes = np.array([0, 2, 0, 0, 4, 0, 0, 0, 7, 0, 0, 0, 0, 9, 0, 0, 0, 11,
                   0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 7, 0, 0, 4, 0, 0, 3])
out["envelope_deg5"] = floats(peakutils.envelope(spikes, 5))
print(json.dumps(out, sort_keys=True))
