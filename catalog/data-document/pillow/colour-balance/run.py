"""Correct the colour cast of a synthetic colour-checker photo with Pillow: gray-world white balance by
per-channel lookup tables, then ImageEnhance (Color, Contrast, Brightness, Sharpness), with HSV and YCbCr
conversions to measure the result; the corrected image is saved as PNG.

Entry workflow: served by warm workers that import this module once; main() builds new images per call.
"""

import os

import numpy as np
from PIL import Image, ImageDraw, ImageEnhance, ImageStat

COLS, ROWS, PATCH, GAP = 6, 4, 20, 4
W, H = COLS * (PATCH + GAP) + GAP, ROWS * (PATCH + GAP) + GAP


def checker(scenario: dict) -> Image.Image:
    rng = np.random.default_rng(int(scenario["seed"]))
    colours = rng.integers(20, 236, size=(ROWS * COLS, 3))
    img = Image.new("RGB", (W, H), (128, 128, 128))
    d = ImageDraw.Draw(img)
    for k, c in enumerate(colours):
        x0, y0 = GAP + (k % COLS) * (PATCH + GAP), GAP + (k // COLS) * (PATCH + GAP)
        d.rectangle([x0, y0, x0 + PATCH - 1, y0 + PATCH - 1], fill=tuple(int(v) for v in c))
    return img


def lut(gain: float) -> list:
    return [min(255, int(round(v * gain))) for v in range(256)]


def main(scenario: dict) -> dict:
    cast = (float(scenario["cast_red"]), 1.0, float(scenario["cast_blue"]))
    photo = checker(scenario).point(lut(cast[0]) + lut(1.0) + lut(cast[2]))
    means = ImageStat.Stat(photo).mean
    grey = sum(means) / 3.0
    gains = [grey / m for m in means]
    balanced = photo.point(lut(gains[0]) + lut(gains[1]) + lut(gains[2]))
    out = ImageEnhance.Color(balanced).enhance(float(scenario["saturation"]))
    out = ImageEnhance.Contrast(out).enhance(float(scenario["contrast"]))
    out = ImageEnhance.Brightness(out).enhance(float(scenario["brightness"]))
    out = ImageEnhance.Sharpness(out).enhance(float(scenario["sharpness"]))
    out.save(os.path.join(os.environ["SWR_ARTIFACTS"], "balanced.png"), format="PNG")
    hsv = ImageStat.Stat(out.convert("HSV"))
    ycc = ImageStat.Stat(out.convert("YCbCr"))
    return {
        "image": "balanced.png",
        "cast_means_rgb": [float(v) for v in means],
        "gray_world_gains": gains,
        "balanced_means_rgb": [float(v) for v in ImageStat.Stat(balanced).mean],
        "final_means_rgb": [float(v) for v in ImageStat.Stat(out).mean],
        "final_hsv_mean": [float(v) for v in hsv.mean],
        "final_ycbcr_mean": [float(v) for v in ycc.mean],
        "final_luma_stddev": float(ycc.stddev[0]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
