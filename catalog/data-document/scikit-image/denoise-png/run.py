"""Denoise a sample image corrupted by seeded Gaussian noise (scikit-image restoration) and score it
with skimage.metrics."""

import os

import numpy as np
from skimage import data, io, metrics, restoration, util


def denoise(noisy, method, strength, spatial):
    if method == "tv_chambolle":
        return restoration.denoise_tv_chambolle(noisy, weight=strength)
    if method == "bilateral":
        return restoration.denoise_bilateral(noisy, sigma_color=strength, sigma_spatial=spatial)
    return restoration.denoise_nl_means(
        noisy, h=strength, patch_size=5, patch_distance=int(round(spatial)), fast_mode=True
    )


def main(scn):
    stride = int(scn["stride"])
    clean = util.img_as_float(getattr(data, str(scn["image"]))())[::stride, ::stride]
    noisy = util.random_noise(clean, mode="gaussian", var=float(scn["noise_sd"]) ** 2, rng=int(scn["seed"]))
    den = denoise(noisy, str(scn["method"]), float(scn["strength"]), float(scn["spatial"]))
    panel = np.clip(np.hstack([noisy, den]), 0.0, 1.0)
    io.imsave(os.path.join(os.environ["SWR_ARTIFACTS"], "denoised.png"), util.img_as_ubyte(panel), check_contrast=False)
    return {
        "image": "denoised.png",
        "shape": [float(s) for s in clean.shape],
        "psnr_noisy_db": float(metrics.peak_signal_noise_ratio(clean, noisy, data_range=1.0)),
        "psnr_denoised_db": float(metrics.peak_signal_noise_ratio(clean, den, data_range=1.0)),
        "ssim_noisy": float(metrics.structural_similarity(clean, noisy, data_range=1.0)),
        "ssim_denoised": float(metrics.structural_similarity(clean, den, data_range=1.0)),
        "mse_denoised": float(metrics.mean_squared_error(clean, den)),
    }
