"""False-colour composite of a three-channel fluorescence micrograph with Pillow: spectral bleed-through removed by
Image.convert with a colour matrix, per-channel ImageOps.autocontrast with a percentile cutoff, channels split and
recombined, an Image.blend with the brightfield, saved as PNG.

Entry workflow: warm workers import this module once; main() builds new images per call with numpy's PCG64
generator seeded by the scenario.
"""

import os

import numpy as np
from PIL import Image, ImageChops, ImageOps, ImageStat

W, H = 128, 96
SIGMAS = (3.0, 8.0, 5.0)  # nucleus, cytoplasm, mitochondria spot widths (px)


def channels(scenario: dict) -> tuple[np.ndarray, np.ndarray]:
    """True dye images (3 x H x W, 0-255 floats) and the brightfield (H x W)."""
    rng = np.random.default_rng(int(scenario["seed"]))
    yy, xx = np.mgrid[0:H, 0:W].astype(float)
    dyes = np.zeros((3, H, W))
    for _ in range(int(scenario["n_cells"])):
        cx, cy = rng.uniform(8, W - 8), rng.uniform(8, H - 8)
        amp = rng.uniform(0.4, 1.0, 3)
        for k in range(3):
            dyes[k] += amp[k] * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * SIGMAS[k] ** 2))
    counts = rng.poisson(float(scenario["photons"]) * np.clip(dyes, 0, 1.5) + 2.0)
    dyes = np.clip(counts * (180.0 / (1.5 * float(scenario["photons"]) + 2.0)), 0, 255)
    bright = 200.0 - 60.0 * np.clip(dyes[1] / 255.0, 0, 1)
    return dyes, bright


def main(scenario: dict) -> dict:
    dyes, bright = channels(scenario)
    b = float(scenario["bleed_fraction"])
    mix = np.array([[1.0, b, 0.0], [b, 1.0, b], [0.0, b, 1.0]])  # each detector sees its neighbours' dye
    observed = np.clip(np.rint(np.einsum("ij,jhw->hwi", mix, dyes)), 0, 255).astype(np.uint8)
    rgb = Image.fromarray(observed, mode="RGB")
    if scenario["unmix"]:
        inv = np.linalg.inv(mix)
        matrix = tuple(float(v) for row in inv for v in (*row, 0.0))
        rgb = rgb.convert("RGB", matrix)
    cut = float(scenario["cutoff_percent"])
    stretched = [ImageOps.autocontrast(rgb.getchannel(c), cutoff=cut) for c in "RGB"]
    composite = Image.merge("RGB", stretched)
    field = Image.fromarray(np.rint(bright).astype(np.uint8), mode="L").convert("RGB")
    final = Image.blend(composite, field, float(scenario["brightfield_alpha"]))
    final.save(os.path.join(os.environ["SWR_ARTIFACTS"], "composite.png"), format="PNG")
    return {
        "image": "composite.png",
        "stretch_input_extrema": [list(e) for e in rgb.getextrema()],
        "stretched_means": [ImageStat.Stat(ch).mean[0] for ch in stretched],
        "final_means": ImageStat.Stat(final).mean,
        "final_stddev": ImageStat.Stat(final).stddev,
        "unmix_change_bbox": list(
            ImageChops.difference(Image.fromarray(observed, mode="RGB"), rgb).getbbox() or (0, 0, 0, 0)
        ),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
