"""Vessel (ridge) enhancement with scikit-image's Hessian-based ridge filters (filters.frangi, sato, meijering) on a
synthetic angiogram, then a threshold and the connected vessel network's measurements."""

import os

import numpy as np
from skimage import draw, filters, io, measure, util

SIZE = 128


def angiogram(scn):
    """Bright blurred line segments on a dark noisy background, values clipped to [0, 1]."""
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n_vessels"])
    ends = rng.uniform(4, SIZE - 5, (n, 4))
    lines = np.zeros((SIZE, SIZE))
    for r0, c0, r1, c1 in ends:
        rr, cc = draw.line(int(r0), int(c0), int(r1), int(c1))
        lines[rr, cc] = 1.0
    sigma = float(scn["vessel_sigma"])
    img = filters.gaussian(lines, sigma=sigma) * 2.5 * sigma
    img = 0.1 + 0.8 * np.clip(img, 0.0, 1.0) + rng.normal(0.0, float(scn["noise"]), (SIZE, SIZE))
    return np.clip(img, 0.0, 1.0)


def ridge(img, scn):
    sigmas = list(range(1, int(scn["max_scale"]) + 1))
    name = str(scn["ridge_filter"])
    if name == "frangi":
        return filters.frangi(img, sigmas=sigmas, black_ridges=False)
    if name == "sato":
        return filters.sato(img, sigmas=sigmas, black_ridges=False)
    return filters.meijering(img, sigmas=sigmas, black_ridges=False)


def main(scn):
    img = angiogram(scn)
    resp = ridge(img, scn)
    resp = resp / resp.max() if resp.max() > 0 else resp
    mask = resp > float(scn["threshold"])
    labels = measure.label(mask, connectivity=2)
    sizes = np.bincount(labels.ravel())[1:]
    rgb = np.dstack([img, resp, resp * mask])
    io.imsave(
        os.path.join(os.environ["SWR_ARTIFACTS"], "vessels.png"),
        util.img_as_ubyte(np.clip(rgb, 0.0, 1.0)),
        check_contrast=False,
    )
    return {
        "image": "vessels.png",
        "vessel_pixels": float(mask.sum()),
        "components": float(labels.max()),
        "largest_component": float(sizes.max()) if sizes.size else 0.0,
        "mean_response_on_vessels": float(resp[mask].mean()) if mask.any() else 0.0,
        "mean_intensity_on_vessels": float(img[mask].mean()) if mask.any() else 0.0,
    }
