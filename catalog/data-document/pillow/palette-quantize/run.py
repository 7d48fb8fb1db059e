"""Reduce a smooth false-colour scene to a small palette with Pillow's quantizers (median cut, maximum
coverage, fast octree; optional Floyd-Steinberg dithering), save the paletted PNG and
measure what the reduction cost.

Entry workflow: served by warm workers that import this module once; main() builds new images per call.
"""

import math
import os

import numpy as np
from PIL import Image

W, H = 128, 96
METHODS = {
    "mediancut": Image.Quantize.MEDIANCUT,
    "maxcoverage": Image.Quantize.MAXCOVERAGE,
    "fastoctree": Image.Quantize.FASTOCTREE,
}
DITHER = {"none": Image.Dither.NONE, "floydsteinberg": Image.Dither.FLOYDSTEINBERG}


def scene(scenario: dict) -> Image.Image:
    rng = np.random.default_rng(int(scenario["seed"]))
    y, x = np.mgrid[0:H, 0:W].astype(float)
    out = np.zeros((H, W, 3))
    for _ in range(int(scenario["n_bumps"])):
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        s = rng.uniform(8.0, float(scenario["bump_width_px"]))
        colour = rng.uniform(0.0, 255.0, 3)
        out += np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2.0 * s * s))[:, :, None] * colour
    return Image.fromarray(np.clip(np.rint(out), 0, 255).astype(np.uint8), mode="RGB")


def main(scenario: dict) -> dict:
    src = scene(scenario)
    # quantize() builds the palette (it ignores `dither` when it builds one); mapping the scene onto that
    # palette with quantize(palette=...) is where the dithering choice applies
    palette_img = src.quantize(colors=int(scenario["colors"]), method=METHODS[str(scenario["method"])], kmeans=0)
    q = src.quantize(palette=palette_img, dither=DITHER[str(scenario["dither"])])
    q.save(os.path.join(os.environ["SWR_ARTIFACTS"], "quantized.png"), format="PNG")
    back = np.asarray(q.convert("RGB"), dtype=float)
    diff = back - np.asarray(src, dtype=float)
    mse = float(np.mean(diff**2))
    counts = sorted(q.getcolors(), reverse=True)  # (count, index), most used first
    pal = q.getpalette()
    top_count, top_index = counts[0]
    return {
        "image": "quantized.png",
        "colours_used": len(counts),
        "mean_abs_error_rgb": [float(v) for v in np.mean(np.abs(diff), axis=(0, 1))],
        "psnr_db": 10.0 * math.log10(255.0**2 / mse) if mse > 0 else 99.0,
        "dominant_colour": {"rgb": pal[3 * top_index : 3 * top_index + 3], "pixels": int(top_count)},
        "source_distinct_colours": len(src.getcolors(W * H)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
