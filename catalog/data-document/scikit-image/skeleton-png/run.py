"""Skeletons of seeded binary blobs with scikit-image (skeletonize Zhang/Lee, thin, medial_axis) and
their graph counts."""

import os

import numpy as np
from scipy import ndimage as ndi
from skimage import data, io, measure, morphology, util


def skeleton_of(mask, scn):
    method = str(scn["method"])
    if method == "zhang":
        return morphology.skeletonize(mask)
    if method == "lee":
        return morphology.skeletonize(mask, method="lee") > 0
    if method == "thin":
        return morphology.thin(mask, max_num_iter=int(scn["thin_iterations"]))
    return morphology.medial_axis(mask, rng=int(scn["seed"]))


def main(scn):
    mask = data.binary_blobs(
        length=int(scn["size"]),
        blob_size_fraction=float(scn["blob_size_fraction"]),
        volume_fraction=float(scn["volume_fraction"]),
        rng=int(scn["seed"]),
    )
    mask = morphology.remove_small_holes(mask, max_size=int(scn["hole_area"]))
    skel = skeleton_of(mask, scn)
    dist = ndi.distance_transform_edt(mask)
    neighbours = ndi.convolve(skel.astype(np.int64), np.ones((3, 3), dtype=np.int64), mode="constant") - skel
    ends = skel & (neighbours == 1)
    branches = skel & (neighbours >= 3)
    rgb = np.dstack([0.35 * mask + 0.65 * skel, 0.35 * mask, 0.35 * mask + 0.65 * ends])
    io.imsave(
        os.path.join(os.environ["SWR_ARTIFACTS"], "skeleton.png"),
        util.img_as_ubyte(np.clip(rgb, 0, 1)),
        check_contrast=False,
    )
    return {
        "image": "skeleton.png",
        "foreground_pixels": float(mask.sum()),
        "skeleton_pixels": float(skel.sum()),
        "end_points": float(ends.sum()),
        "branch_pixels": float(branches.sum()),
        "components": float(measure.label(skel, connectivity=2).max()),
        "mean_skeleton_distance": float(dist[skel].mean()) if skel.any() else 0.0,
    }
