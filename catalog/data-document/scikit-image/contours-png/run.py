"""Iso-contours of a smooth field with scikit-image's marching squares (measure.find_contours), simplified by
Douglas-Peucker (measure.approximate_polygon) and rasterised (draw.polygon_perimeter), as for contouring a density
map or an elevation model."""

import os

import numpy as np
from skimage import draw, io, measure, util

SHAPE = (100, 120)


def field(scn):
    """Sum of Gaussian bumps drawn per bump as (row, col, amplitude), divided by its maximum."""
    rng = np.random.default_rng(int(scn["seed"]))
    rows, cols = np.mgrid[0 : SHAPE[0], 0 : SHAPE[1]].astype(float)
    w = float(scn["width_px"])
    f = np.zeros(SHAPE)
    for _ in range(int(scn["n_bumps"])):
        r, c, a = rng.uniform(10, SHAPE[0] - 10), rng.uniform(10, SHAPE[1] - 10), rng.uniform(0.5, 1.5)
        f += a * np.exp(-((rows - r) ** 2 + (cols - c) ** 2) / (2 * w * w))
    return f / f.max()


def shoelace(poly):
    r, c = poly[:, 0], poly[:, 1]
    return 0.5 * abs(float(np.dot(r, np.roll(c, -1)) - np.dot(c, np.roll(r, -1))))


def main(scn):
    f = field(scn)
    contours = measure.find_contours(f, float(scn["level"]), fully_connected=str(scn["fully_connected"]))
    simplified = [measure.approximate_polygon(c, tolerance=float(scn["tolerance"])) for c in contours]
    closed = [np.allclose(c[0], c[-1]) for c in contours]
    lengths = [float(np.sum(np.hypot(*np.diff(c, axis=0).T))) for c in contours]
    areas = [shoelace(c) for c, ok in zip(contours, closed) if ok]
    overlay = np.zeros(SHAPE, dtype=bool)
    for p in simplified:
        rr, cc = draw.polygon_perimeter(p[:, 0], p[:, 1], shape=SHAPE)
        overlay[rr, cc] = True
    rgb = np.dstack([np.maximum(f, overlay), f * ~overlay, f * ~overlay])
    io.imsave(os.path.join(os.environ["SWR_ARTIFACTS"], "contours.png"), util.img_as_ubyte(rgb), check_contrast=False)
    return {
        "image": "contours.png",
        "n_contours": len(contours),
        "n_closed": sum(closed),
        "total_length": float(sum(lengths)),
        "largest_closed_area": max(areas, default=0.0),
        "vertices": [len(c) for c in contours],
        "simplified_vertices": [len(p) for p in simplified],
    }
