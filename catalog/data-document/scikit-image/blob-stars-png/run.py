"""Detect stars in a seeded synthetic sky image with scikit-image's scale-space blob detectors (LoG, DoG, DoH)."""

import os

import numpy as np
from skimage import draw, exposure, feature, io, util

SIZE = 128


def sky(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    k = int(scn["n_stars"])
    pos = rng.uniform(8.0, SIZE - 8.0, size=(k, 2))
    flux = rng.uniform(0.3, 1.0, size=k)
    sig = rng.uniform(1.0, float(scn["max_psf_sigma"]), size=k)
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64)
    img = np.zeros((SIZE, SIZE))
    for (r, c), f, s in zip(pos, flux, sig):
        img += f * np.exp(-((yy - r) ** 2 + (xx - c) ** 2) / (2.0 * s * s))
    img += float(scn["noise_sd"]) * rng.normal(size=img.shape)
    return np.clip(img, 0.0, 1.0)


def detect(img, scn):
    method, thr = str(scn["method"]), float(scn["threshold"])
    max_sigma = float(scn["max_sigma"])
    if method == "log":
        return feature.blob_log(img, min_sigma=1.0, max_sigma=max_sigma, num_sigma=10, threshold=thr)
    if method == "dog":
        return feature.blob_dog(img, min_sigma=1.0, max_sigma=max_sigma, threshold=thr)
    return feature.blob_doh(img, min_sigma=1.0, max_sigma=max_sigma, num_sigma=10, threshold=thr / 10.0)


def main(scn):
    img = sky(scn)
    blobs = detect(img, scn)
    blobs = blobs[np.lexsort((blobs[:, 1], blobs[:, 0]))] if len(blobs) else blobs
    rgb = np.dstack([exposure.adjust_gamma(img, 0.5)] * 3)
    for r, c, s in blobs:
        radius = s * np.sqrt(2.0) if scn["method"] != "doh" else s
        rr, cc = draw.circle_perimeter(int(round(r)), int(round(c)), max(1, int(round(radius))), shape=img.shape)
        rgb[rr, cc] = (1.0, 0.8, 0.0)
    io.imsave(
        os.path.join(os.environ["SWR_ARTIFACTS"], "stars.png"),
        util.img_as_ubyte(np.clip(rgb, 0, 1)),
        check_contrast=False,
    )
    return {
        "image": "stars.png",
        "n_detected": float(len(blobs)),
        "blobs": [{"row": float(r), "col": float(c), "sigma": float(s)} for r, c, s in blobs],
    }
