"""Texture analysis with scikit-image's feature.texture module: grey-level co-occurrence matrices per tile
(feature.graycomatrix, feature.graycoprops) and rotation-invariant uniform local binary patterns
(feature.local_binary_pattern), and a nearest-histogram tile classification of a two-texture mosaic."""

import os

import numpy as np
from skimage import data, feature, io, util

SIDE = 128
ANGLES = [0.0, np.pi / 4, np.pi / 2, 3 * np.pi / 4]


def mosaic(scn):
    """128 x 256 uint8 image: the left texture in columns 0..127, the right one in 128..255."""
    s = int(scn["stride"])
    halves = [getattr(data, str(scn[k]))()[::s, ::s][:SIDE, :SIDE] for k in ("texture_left", "texture_right")]
    return util.img_as_ubyte(np.hstack(halves))


def glcm_map(img, scn):
    """Per-tile GLCM property (mean over the four angles) on the image quantised to `levels` grey levels."""
    levels, t = int(scn["levels"]), int(scn["tile"])
    q = (img // (256 // levels)).astype(np.uint8)
    out = np.zeros((img.shape[0] // t, img.shape[1] // t))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            m = feature.graycomatrix(
                q[i * t : (i + 1) * t, j * t : (j + 1) * t],
                [int(scn["distance"])],
                ANGLES,
                levels=levels,
                symmetric=True,
                normed=True,
            )
            out[i, j] = feature.graycoprops(m, str(scn["prop"])).mean()
    return out


def histograms(lbp, n_bins, t):
    """Normalised LBP histogram of every tile, tiles in row-major order."""
    rows, cols = lbp.shape[0] // t, lbp.shape[1] // t
    return np.array(
        [
            np.bincount(lbp[i * t : (i + 1) * t, j * t : (j + 1) * t].ravel(), minlength=n_bins) / (t * t)
            for i in range(rows)
            for j in range(cols)
        ]
    )


def entropy_bits(h):
    h = h[h > 0]
    return float(-(h * np.log2(h)).sum())


def main(scn):
    img = mosaic(scn)
    t, r = int(scn["tile"]), int(scn["lbp_radius"])
    prop = glcm_map(img, scn)
    lbp = feature.local_binary_pattern(img, 8 * r, r, method="uniform").astype(np.int64)
    n_bins = 8 * r + 2
    hists = histograms(lbp, n_bins, t)
    cols = img.shape[1] // t
    right = np.array([k % cols >= cols // 2 for k in range(len(hists))])
    refs = [hists[~right].mean(axis=0), hists[right].mean(axis=0)]

    def chi2(h, ref):
        den = h + ref
        return float((np.where(den > 0, (h - ref) ** 2 / np.where(den > 0, den, 1.0), 0.0)).sum())

    guess = np.array([chi2(h, refs[1]) < chi2(h, refs[0]) for h in hists])
    half = prop.shape[1] // 2
    peak = prop.max()
    prop_img = np.kron(prop / peak if peak > 0 else prop, np.ones((t, t)))
    rgb = np.dstack([img / 255.0, np.clip(prop_img, 0, 1), lbp / (n_bins - 1)])
    io.imsave(os.path.join(os.environ["SWR_ARTIFACTS"], "texture.png"), util.img_as_ubyte(rgb), check_contrast=False)
    return {
        "image": "texture.png",
        "prop_left_mean": float(prop[:, :half].mean()),
        "prop_right_mean": float(prop[:, half:].mean()),
        "lbp_entropy_left": entropy_bits(np.bincount(lbp[:, :SIDE].ravel(), minlength=n_bins) / lbp[:, :SIDE].size),
        "lbp_entropy_right": entropy_bits(np.bincount(lbp[:, SIDE:].ravel(), minlength=n_bins) / lbp[:, SIDE:].size),
        "tile_accuracy": float((guess == right).mean()),
    }
