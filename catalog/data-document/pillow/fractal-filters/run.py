"""Render a Mandelbrot-set escape-time image with Pillow's effect_mandelbrot and run it through a bank of
convolution and rank filters (ImageFilter.Kernel, RankFilter, BoxBlur) and point operations (a gamma
lookup table, solarize), saving a 2x2 mosaic of the panels as PNG.

Entry workflow: served by warm workers that import this module once; main() builds new images per call.
"""

import os

from PIL import Image, ImageFilter, ImageOps, ImageStat

W, H = 96, 72
# Points on the set's boundary (escape-time structure at every zoom): centre before panning
REGIONS = {
    "seahorse_valley": (-0.745, 0.11),
    "double_spiral": (-0.7436, 0.1318),
    "elephant_valley": (0.28, 0.008),
    "triple_spiral": (-0.088, 0.654),
    "needle": (-1.768, 0.0014),
}
KERNELS = {  # 3x3 weights, row-major; scale = sum of weights (1 when it is 0), offset
    "laplacian": ([0, -1, 0, -1, 4, -1, 0, -1, 0], 1, 128),
    "sharpen": ([0, -1, 0, -1, 5, -1, 0, -1, 0], 1, 0),
    "sobel_x": ([-1, 0, 1, -2, 0, 2, -1, 0, 1], 1, 128),
    "gaussian": ([1, 2, 1, 2, 4, 2, 1, 2, 1], 16, 0),
}


def main(scenario: dict) -> dict:
    width = float(scenario["view_width"])
    half_w, half_h = 0.5 * width, 0.5 * width * H / W
    re0, im0 = REGIONS[str(scenario["region"])]
    cx, cy = re0 + float(scenario["pan_x"]) * width, im0 + float(scenario["pan_y"]) * width
    fractal = Image.effect_mandelbrot(
        (W, H), (cx - half_w, cy - half_h, cx + half_w, cy + half_h), int(scenario["quality"])
    )
    weights, scale, offset = KERNELS[str(scenario["kernel"])]
    convolved = fractal.filter(ImageFilter.Kernel((3, 3), weights, scale=scale, offset=offset))
    rank = int(scenario["rank"])
    ranked = fractal.filter(ImageFilter.RankFilter(3, rank))
    blurred = fractal.filter(ImageFilter.BoxBlur(float(scenario["box_radius"])))
    inv_gamma = 1.0 / float(scenario["gamma"])
    brightened = blurred.point([int(round(255.0 * (v / 255.0) ** inv_gamma)) for v in range(256)])
    solar = ImageOps.solarize(brightened, threshold=int(scenario["solarize_threshold"]))
    mosaic = Image.new("L", (2 * W, 2 * H))
    for panel, at in ((fractal, (0, 0)), (convolved, (W, 0)), (ranked, (0, H)), (solar, (W, H))):
        mosaic.paste(panel, at)
    mosaic.save(os.path.join(os.environ["SWR_ARTIFACTS"], "mosaic.png"), format="PNG")
    return {
        "image": "mosaic.png",
        "fractal": {"mean": float(ImageStat.Stat(fractal).mean[0]), "zero_pixels": int(fractal.histogram()[0])},
        "convolved_mean": float(ImageStat.Stat(convolved).mean[0]),
        "ranked_mean": float(ImageStat.Stat(ranked).mean[0]),
        "brightened_mean": float(ImageStat.Stat(brightened).mean[0]),
        "solarized_mean": float(ImageStat.Stat(solar).mean[0]),
        "solarized_extrema": list(solar.getextrema()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
