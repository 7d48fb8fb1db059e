"""Contrast enhancement of a sample image with skimage.exposure (CLAHE, histogram equalisation, gamma,
sigmoid) as a PNG."""

import os

import numpy as np
from skimage import data, exposure, io, measure, util


def enhance(img, scn):
    method = str(scn["method"])
    lo, hi = np.percentile(img, (float(scn["low_pct"]), 100.0 - float(scn["low_pct"])))
    stretched = exposure.rescale_intensity(img, in_range=(float(lo), float(hi)), out_range=(0.0, 1.0))
    if method == "clahe":
        kernel = max(8, int(float(scn["kernel_fraction"]) * min(img.shape)))
        return exposure.equalize_adapthist(
            stretched, kernel_size=kernel, clip_limit=float(scn["clip_limit"]), nbins=int(scn["nbins"])
        )
    if method == "equalize":
        return exposure.equalize_hist(stretched, nbins=int(scn["nbins"]))
    if method == "gamma":
        return exposure.adjust_gamma(stretched, gamma=float(scn["gamma"]))
    return exposure.adjust_sigmoid(stretched, cutoff=0.5, gain=10.0 * float(scn["gamma"]))


def main(scn):
    stride = int(scn["stride"])
    img = util.img_as_float(getattr(data, str(scn["image"]))())[::stride, ::stride]
    out = enhance(img, scn)
    hist, centers = exposure.histogram(out, nbins=16)
    io.imsave(
        os.path.join(os.environ["SWR_ARTIFACTS"], "enhanced.png"),
        util.img_as_ubyte(np.clip(np.hstack([img, out]), 0.0, 1.0)),
        check_contrast=False,
    )
    return {
        "image": "enhanced.png",
        "entropy_before_bits": float(measure.shannon_entropy(util.img_as_ubyte(img))),
        "entropy_after_bits": float(measure.shannon_entropy(util.img_as_ubyte(np.clip(out, 0.0, 1.0)))),
        "mean_after": float(out.mean()),
        "std_after": float(out.std()),
        "histogram_16": [float(h) for h in hist],
        "stretch_range": [float(v) for v in np.percentile(img, (float(scn["low_pct"]), 100.0 - float(scn["low_pct"])))],
    }
