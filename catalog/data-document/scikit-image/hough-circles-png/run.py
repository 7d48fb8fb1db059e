"""Detect seeded circles with the circular Hough transform of Canny edges (scikit-image) and draw them onto a PNG."""

import os

import numpy as np
from skimage import color, draw, feature, io, transform, util

H, W = 100, 140


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    k = int(scn["n_circles"])
    rmin, rmax = int(scn["min_radius"]), int(scn["max_radius"])
    img = np.zeros((H, W))
    centers = rng.uniform([rmax, rmax], [H - rmax, W - rmax], size=(k, 2))
    radii = rng.integers(rmin, rmax + 1, size=k)
    for (cy, cx), r in zip(centers, radii):
        rr, cc = draw.disk((cy, cx), float(r), shape=img.shape)
        img[rr, cc] += 0.5
    img = np.clip(img + float(scn["noise_sd"]) * rng.normal(size=img.shape), 0.0, 1.0)

    edges = feature.canny(img, sigma=float(scn["canny_sigma"]))
    hough_radii = np.arange(rmin, rmax + 1)
    acc = transform.hough_circle(edges, hough_radii)
    accums, cx, cy, rad = transform.hough_circle_peaks(
        acc,
        hough_radii,
        total_num_peaks=int(scn["n_peaks"]),
        min_xdistance=int(scn["min_separation"]),
        min_ydistance=int(scn["min_separation"]),
    )
    rgb = color.gray2rgb(img)
    for y, x, r in zip(cy, cx, rad):
        rr, cc = draw.circle_perimeter(int(y), int(x), int(r), shape=img.shape)
        rgb[rr, cc] = (1.0, 0.2, 0.0)
    io.imsave(os.path.join(os.environ["SWR_ARTIFACTS"], "circles.png"), util.img_as_ubyte(rgb), check_contrast=False)
    return {
        "image": "circles.png",
        "edge_pixels": float(edges.sum()),
        "circles": [
            {"row": float(y), "col": float(x), "radius": float(r), "accumulator": float(a)}
            for a, x, y, r in zip(accums, cx, cy, rad)
        ],
    }
