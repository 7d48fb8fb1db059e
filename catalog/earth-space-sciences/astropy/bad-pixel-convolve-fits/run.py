"""Repair bad pixels of a CCD frame and smooth it with astropy.convolution (interpolate_replace_nans, convolve with
a chosen 2-D kernel and boundary rule), saved as a two-HDU FITS file with header keywords and units.

Entry workflow: warm workers import this module once; main() builds a new frame per call with numpy's PCG64
generator seeded by the scenario.
"""

import os

import numpy as np
from astropy.convolution import (
    Box2DKernel,
    Gaussian2DKernel,
    Ring2DKernel,
    Tophat2DKernel,
    convolve,
    interpolate_replace_nans,
)
from astropy.io import fits

N = 48
SKY = 100.0


def frame(scenario: dict) -> tuple[np.ndarray, np.ndarray]:
    """The noise-free model and the observed frame with NaN bad pixels."""
    rng = np.random.default_rng(int(scenario["seed"]))
    yy, xx = np.mgrid[0:N, 0:N].astype(float)
    model = np.full((N, N), SKY)
    for _ in range(int(scenario["n_sources"])):
        x0, y0 = rng.uniform(6, N - 6), rng.uniform(6, N - 6)
        amp, s = rng.uniform(200, 2000), rng.uniform(1.0, 3.0)
        model += amp * np.exp(-((xx - x0) ** 2 + (yy - y0) ** 2) / (2 * s * s))
    obs = model + rng.normal(0.0, float(scenario["noise_adu"]), (N, N))
    obs[rng.uniform(0.0, 1.0, (N, N)) < float(scenario["bad_fraction"])] = np.nan
    return model, obs


def kernel(name: str, size: float):
    if name == "gaussian":
        return Gaussian2DKernel(x_stddev=size)
    if name == "box":
        return Box2DKernel(width=2 * round(size) + 1)
    if name == "tophat":
        return Tophat2DKernel(radius=size)
    return Ring2DKernel(radius_in=size, width=2)


def main(scenario: dict) -> dict:
    model, obs = frame(scenario)
    bad = np.isnan(obs)
    repaired = interpolate_replace_nans(obs, Gaussian2DKernel(x_stddev=1.0), boundary="extend")
    k = kernel(scenario["kernel"], float(scenario["kernel_size_px"]))
    smooth = convolve(
        obs,
        k,
        boundary=scenario["boundary"],
        fill_value=SKY,
        nan_treatment="interpolate",
        preserve_nan=bool(scenario["preserve_nan"]),
    )
    primary = fits.PrimaryHDU(smooth)
    primary.header["BUNIT"] = "adu"
    primary.header["KERNEL"] = scenario["kernel"]
    primary.header["KSIZE"] = (float(scenario["kernel_size_px"]), "kernel size parameter [pixel]")
    primary.header["KSHAPE"] = k.shape[0]
    primary.header["BOUNDARY"] = scenario["boundary"]
    primary.header["NBAD"] = int(bad.sum())
    rep = fits.ImageHDU(repaired, name="REPAIRED")
    rep.header["BUNIT"] = "adu"
    fits.HDUList([primary, rep]).writeto(os.path.join(os.environ["SWR_ARTIFACTS"], "smoothed.fits"))
    err = repaired[bad] - model[bad]
    return {
        "image": "smoothed.fits",
        "n_bad": int(bad.sum()),
        "kernel_shape": list(k.shape),
        "repair_rms_adu": float(np.sqrt(np.mean(err**2))) if err.size else 0.0,
        "smoothed_nan_count": int(np.isnan(smooth).sum()),
        "smoothed_max_adu": float(np.nanmax(smooth)),
        "smoothed_mean_adu": float(np.nanmean(smooth)),
        "edge_row_mean_adu": float(np.nanmean(smooth[0])),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
