"""Lay out a contact sheet of differently sized frames with Pillow's ImageOps geometry helpers (fit, pad,
contain), orientation transposes, borders and paste, and save it as PNG.

Entry workflow: warm workers import this module once; main() builds new images per call. Frames are
colour gradients whose sizes and blue level come from numpy's PCG64 generator seeded by the scenario, so the
layout problem (aspect ratios that do not match the cell) is exercised without any input file.
"""

import math
import os

import numpy as np
from PIL import Image, ImageOps, ImageStat

BACKGROUND = (32, 32, 32)
PAD_COLOUR = (255, 0, 255)
BORDER_COLOUR = (255, 255, 255)
ORIENT = {
    "none": None,
    "mirror": ImageOps.mirror,
    "flip": ImageOps.flip,
    "rotate_90": lambda im: im.transpose(Image.Transpose.ROTATE_90),
    "transpose": lambda im: im.transpose(Image.Transpose.TRANSPOSE),
}


def frame(rng: np.random.Generator) -> Image.Image:
    """A w x h RGB gradient: R follows x, G follows y, B constant (drawn after w and h)."""
    w, h = int(rng.integers(40, 121)), int(rng.integers(40, 121))
    blue = int(rng.integers(0, 256))
    x = np.rint(255.0 * np.arange(w) / (w - 1))
    y = np.rint(255.0 * np.arange(h) / (h - 1))
    arr = np.empty((h, w, 3), dtype=np.uint8)
    arr[:, :, 0] = x[None, :]
    arr[:, :, 1] = y[:, None]
    arr[:, :, 2] = blue
    return Image.fromarray(arr, mode="RGB")


def shape(im: Image.Image, scenario: dict) -> Image.Image:
    """Fit the frame to the square cell with the chosen ImageOps helper."""
    s = int(scenario["tile_px"])
    centering = (float(scenario["centering_x"]), 0.5)
    mode = scenario["fit_mode"]
    if mode == "fit":
        return ImageOps.fit(im, (s, s), method=Image.Resampling.BICUBIC, centering=centering)
    if mode == "pad":
        return ImageOps.pad(im, (s, s), method=Image.Resampling.BICUBIC, color=PAD_COLOUR, centering=centering)
    return ImageOps.contain(im, (s, s), method=Image.Resampling.BICUBIC)


def main(scenario: dict) -> dict:
    rng = np.random.default_rng(int(scenario["seed"]))
    n, cols = int(scenario["n_tiles"]), int(scenario["columns"])
    border = int(scenario["border_px"])
    cell = int(scenario["tile_px"]) + 2 * border
    rows = math.ceil(n / cols)
    sheet = Image.new("RGB", (cols * cell, rows * cell), BACKGROUND)
    turn = ORIENT[scenario["orientation"]]
    sizes, means = [], []
    for k in range(n):
        src = frame(rng)
        tile = shape(src, scenario)
        if turn is not None:
            tile = turn(tile)
        tile = ImageOps.expand(tile, border=border, fill=BORDER_COLOUR)
        sheet.paste(tile, ((k % cols) * cell, (k // cols) * cell))
        sizes.append([src.width, src.height, tile.width, tile.height])
        means.append([round(v, 6) for v in ImageStat.Stat(tile).mean])
    sheet.save(os.path.join(os.environ["SWR_ARTIFACTS"], "sheet.png"), format="PNG")
    grey = ImageOps.grayscale(sheet)
    return {
        "image": "sheet.png",
        "sheet_size": [sheet.width, sheet.height],
        "tile_sizes": sizes,
        "tile_means": means,
        "sheet_mean": ImageStat.Stat(sheet).mean,
        "background_pixels": int(np.count_nonzero(np.all(np.array(sheet) == BACKGROUND, axis=2))),
        "grey_median": ImageStat.Stat(grey).median[0],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
