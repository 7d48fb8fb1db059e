"""SLIC superpixels of a colour sample image merged by a region adjacency graph threshold cut
(scikit-image), as a PNG."""

import os

import numpy as np
from skimage import color, data, graph, io, segmentation, util


def main(scn):
    stride = int(scn["stride"])
    img = util.img_as_float(getattr(data, str(scn["image"]))())[::stride, ::stride, :3]
    labels = segmentation.slic(
        img,
        n_segments=int(scn["n_segments"]),
        compactness=float(scn["compactness"]),
        sigma=float(scn["sigma"]),
        start_label=1,
        slic_zero=bool(scn["slic_zero"]),
    )
    rag = graph.rag_mean_color(img, labels, mode="distance")
    merged = graph.cut_threshold(labels, rag, float(scn["merge_threshold"]))
    avg = color.label2rgb(merged, img, kind="avg", bg_label=-1)
    bounds = segmentation.find_boundaries(merged, mode="thick")
    out = segmentation.mark_boundaries(avg, merged, color=(0.0, 0.0, 0.0), mode="thick")
    io.imsave(
        os.path.join(os.environ["SWR_ARTIFACTS"], "superpixels.png"),
        util.img_as_ubyte(np.clip(out, 0, 1)),
        check_contrast=False,
    )
    sizes = np.bincount(merged.ravel())
    sizes = sizes[sizes > 0]
    return {
        "image": "superpixels.png",
        "n_superpixels": float(len(np.unique(labels))),
        "n_merged": float(len(sizes)),
        "largest_region_fraction": float(sizes.max() / merged.size),
        "boundary_fraction": float(bounds.mean()),
        "rag_edges": float(rag.number_of_edges()),
    }
