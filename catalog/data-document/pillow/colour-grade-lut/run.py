"""Colour-grade an image with a 3-D lookup table in Pillow: ImageFilter.Color3DLUT.generate from a grading
function (lift / gamma / gain, saturation), an optional warm white-balance with Color3DLUT.transform, applied as
a filter (trilinear interpolation), compared with the exact per-pixel grade; the graded image saved as PNG.

Entry workflow: warm workers import this module once; main() builds a new image and LUT per call.
"""

import os

import numpy as np
from PIL import Image, ImageFilter, ImageStat

W, H = 128, 96
LUMA = (0.2126, 0.7152, 0.0722)


def test_chart() -> Image.Image:
    """HSV chart: hue along x, saturation along y, value 230, converted to RGB."""
    hue = np.tile(np.rint(255.0 * np.arange(W) / W).astype(np.uint8), (H, 1))
    sat = np.tile(np.rint(255.0 * np.arange(H) / (H - 1)).astype(np.uint8)[:, None], (1, W))
    val = np.full((H, W), 230, dtype=np.uint8)
    return Image.merge("HSV", [Image.fromarray(a, mode="L") for a in (hue, sat, val)]).convert("RGB")


def grader(scenario: dict):
    lift, gamma, gain = float(scenario["lift"]), float(scenario["gamma"]), float(scenario["gain"])
    sat = float(scenario["saturation"])

    def grade(r: float, g: float, b: float) -> tuple:
        c = [
            min(1.0, max(0.0, gain * (v + lift * (1.0 - v)) ** (1.0 / gamma) if v + lift * (1.0 - v) > 0 else 0.0))
            for v in (r, g, b)
        ]
        y = LUMA[0] * c[0] + LUMA[1] * c[1] + LUMA[2] * c[2]
        return tuple(min(1.0, max(0.0, y + sat * (v - y))) for v in c)

    return grade


def main(scenario: dict) -> dict:
    chart = test_chart()
    grade = grader(scenario)
    lut = ImageFilter.Color3DLUT.generate(int(scenario["lut_size"]), grade)
    if scenario["warm"]:
        lut = lut.transform(lambda r, g, b: (min(1.0, r * 1.06), g, b * 0.94))
    graded = chart.filter(lut)
    graded.save(os.path.join(os.environ["SWR_ARTIFACTS"], "graded.png"), format="PNG")
    src = np.asarray(chart, dtype=float) / 255.0
    exact = np.array([grade(*px) for px in src.reshape(-1, 3)]).reshape(H, W, 3)
    if scenario["warm"]:
        exact[..., 0] = np.minimum(1.0, exact[..., 0] * 1.06)
        exact[..., 2] = exact[..., 2] * 0.94
    err = np.abs(np.asarray(graded, dtype=float) - np.rint(255.0 * exact))
    return {
        "image": "graded.png",
        "lut_entries": len(lut.table) // 3,
        "graded_means": ImageStat.Stat(graded).mean,
        "graded_extrema": [list(e) for e in graded.getextrema()],
        "lut_mean_abs_error": float(err.mean()),
        "lut_max_abs_error": float(err.max()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
