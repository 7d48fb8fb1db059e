"""Canny/Sobel edges and morphology of a seeded synthetic scene with scikit-image, saved as an RGB PNG."""

import os

import numpy as np
from skimage import draw, feature, filters, io, morphology, transform, util

H, W = 120, 160


def main(scn):
    out_dir = os.environ["SWR_ARTIFACTS"]
    rng = np.random.default_rng(int(scn["seed"]))
    img = np.full((H, W), 0.2)
    rr, cc = draw.disk((float(scn["disk_row"]) * H, float(scn["disk_col"]) * W), float(scn["disk_radius"]) * H,
                       shape=img.shape)
    img[rr, cc] = 0.8
    rr, cc = draw.ellipse(0.65 * H, 0.3 * W, 0.15 * H, 0.25 * W, shape=img.shape,
                          rotation=np.deg2rad(float(scn["ellipse_rotation_deg"])))
    img[rr, cc] = 0.55
    rr, cc = draw.polygon([0.1 * H, 0.45 * H, 0.3 * H], [0.6 * W, 0.95 * W, 0.55 * W], shape=img.shape)
    img[rr, cc] = 1.0
    img = transform.rotate(img, float(scn["rotation_deg"]), order=1, mode="edge")
    img = np.clip(img + float(scn["noise_sd"]) * rng.normal(size=img.shape), 0.0, 1.0)

    edges = feature.canny(img, sigma=float(scn["canny_sigma"]))
    sob = filters.sobel(filters.gaussian(img, sigma=1.0))
    sob = sob / sob.max()
    mask = img > filters.threshold_otsu(img)
    fp = morphology.disk(int(scn["morph_radius"]))
    cleaned = morphology.closing(morphology.opening(mask, fp), fp)

    rgb = np.stack([edges.astype(np.float64), sob, cleaned.astype(np.float64) * 0.6], axis=-1)
    io.imsave(os.path.join(out_dir, "edges.png"), util.img_as_ubyte(rgb), check_contrast=False)
    return {"image": "edges.png"}
