"""Split touching seeded disks with a marker-based watershed of the distance transform (scikit-image),
saved as a PNG."""

import os

import numpy as np
from scipy import ndimage as ndi
from skimage import color, feature, io, measure, segmentation, util

H, W = 96, 128


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    k = int(scn["n_disks"])
    rmin, rmax = float(scn["min_radius"]), float(scn["max_radius"])
    centers = rng.uniform([rmax, rmax], [H - rmax, W - rmax], size=(k, 2))
    radii = rng.uniform(rmin, rmax, size=k)
    yy, xx = np.mgrid[0:H, 0:W]
    mask = np.zeros((H, W), dtype=bool)
    for (cy, cx), r in zip(centers, radii):
        mask |= (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r

    distance = ndi.distance_transform_edt(mask)
    peaks = feature.peak_local_max(
        distance, min_distance=int(scn["min_distance"]), labels=measure.label(mask), exclude_border=False
    )
    markers = np.zeros((H, W), dtype=np.int32)
    markers[tuple(peaks.T)] = np.arange(1, len(peaks) + 1)
    labels = segmentation.watershed(
        -distance, markers, mask=mask, compactness=float(scn["compactness"]), watershed_line=bool(scn["watershed_line"])
    )
    rgb = color.label2rgb(labels, bg_label=0)
    rgb = segmentation.mark_boundaries(rgb, labels, color=(1.0, 1.0, 1.0), mode="inner")
    areas = sorted((float(p.area) for p in measure.regionprops(labels)), reverse=True)

    io.imsave(os.path.join(os.environ["SWR_ARTIFACTS"], "segments.png"), util.img_as_ubyte(rgb), check_contrast=False)
    return {
        "image": "segments.png",
        "n_markers": float(len(peaks)),
        "n_segments": float(labels.max()),
        "foreground_pixels": float(mask.sum()),
        "segment_areas": areas,
    }
