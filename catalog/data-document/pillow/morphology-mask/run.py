"""Clean a noisy binary segmentation mask with Pillow: median and rank filters, binary morphology with
ImageMorph's lookup-table operators (opening, boundary extraction), and save an RGB overlay as PNG.

Entry workflow: served by warm workers that import this module once; main() builds new images per call.
The scene is drawn with numpy's PCG64 generator seeded by the scenario.
"""

import os

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageMorph

W, H = 160, 120


def noisy_mask(scenario: dict) -> Image.Image:
    rng = np.random.default_rng(int(scenario["seed"]))
    img = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(img)
    rmin, rmax = float(scenario["radius_min_px"]), float(scenario["radius_max_px"])
    for _ in range(int(scenario["n_blobs"])):
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        rx, ry = rng.uniform(rmin, rmax), rng.uniform(rmin, rmax)
        d.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=255)
    arr = np.array(img)
    flip = rng.uniform(0.0, 1.0, arr.shape) < float(scenario["noise_fraction"])
    arr[flip] = 255 - arr[flip]
    return Image.fromarray(arr, mode="L")


def main(scenario: dict) -> dict:
    raw = noisy_mask(scenario)
    smooth = raw.filter(ImageFilter.MedianFilter(int(scenario["median_size"])))
    grow, shrink = f"dilation{scenario['connectivity']}", f"erosion{scenario['connectivity']}"
    opened, eroded_px, dilated_px = smooth, 0, 0
    for _ in range(int(scenario["opening_iterations"])):
        n, opened = ImageMorph.MorphOp(op_name=shrink).apply(opened)
        eroded_px += n
    for _ in range(int(scenario["opening_iterations"])):
        n, opened = ImageMorph.MorphOp(op_name=grow).apply(opened)
        dilated_px += n
    edge_count, edges = ImageMorph.MorphOp(op_name="edge").apply(opened)
    thick = opened.filter(ImageFilter.MaxFilter(3))
    overlay = Image.merge("RGB", (opened, edges, raw))
    overlay.save(os.path.join(os.environ["SWR_ARTIFACTS"], "mask.png"), format="PNG")
    on = ImageMorph.MorphOp(op_name="edge")
    return {
        "image": "mask.png",
        "raw_on_pixels": len(on.get_on_pixels(raw)),
        "median_on_pixels": len(on.get_on_pixels(smooth)),
        "eroded_pixels": int(eroded_px),
        "dilated_pixels": int(dilated_px),
        "opened_on_pixels": len(on.get_on_pixels(opened)),
        "edge_changed_pixels": int(edge_count),
        "dilated3x3_on_pixels": len(on.get_on_pixels(thick)),
        "opened_bbox": list(opened.getbbox() or (0, 0, 0, 0)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
