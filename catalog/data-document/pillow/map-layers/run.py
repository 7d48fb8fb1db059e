"""Compose a thematic map from raster layers with Pillow: a palette-tinted elevation field, an embossed
relief blended in with an ImageChops light mode, a translucent RGBA zone overlay (alpha_composite) and an
inset masked in by Image.composite; saved as PNG.

Entry workflow: served by warm workers that import this module once; main() builds new images per call.
The elevation field is drawn with numpy's PCG64 generator seeded by the scenario.
"""

import os

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageStat

W, H = 160, 120
BLENDS = {
    "soft_light": ImageChops.soft_light,
    "hard_light": ImageChops.hard_light,
    "overlay": ImageChops.overlay,
    "screen": ImageChops.screen,
}
# Hypsometric palette: index i -> (R, G, B), green lowlands through brown to white peaks
STOPS = [(0, (20, 90, 40)), (110, (150, 170, 80)), (190, (140, 100, 60)), (255, (250, 250, 250))]


def palette() -> list:
    out = []
    for i in range(256):
        for (i0, c0), (i1, c1) in zip(STOPS, STOPS[1:]):
            if i0 <= i <= i1:
                t = (i - i0) / (i1 - i0)
                out += [int(round(a + (b - a) * t)) for a, b in zip(c0, c1)]
                break
    return out


def elevation(scenario: dict) -> Image.Image:
    rng = np.random.default_rng(int(scenario["seed"]))
    y, x = np.mgrid[0:H, 0:W].astype(float)
    z = np.zeros((H, W))
    for _ in range(int(scenario["n_waves"])):
        direction, k, phase = rng.uniform(0.0, 2.0 * np.pi), rng.uniform(0.04, 0.1), rng.uniform(0.0, 2.0 * np.pi)
        z += np.sin(k * (np.cos(direction) * x + np.sin(direction) * y) + phase)
    z = (z - z.min()) / (z.max() - z.min())
    return Image.fromarray(np.rint(255.0 * z).astype(np.uint8), mode="L")


def main(scenario: dict) -> dict:
    z = elevation(scenario)
    tinted = z.copy()
    tinted.putpalette(palette())  # an 'L' image given a palette becomes mode 'P'
    base = tinted.convert("RGB")
    gain = float(scenario["relief_gain"])
    stretch = [min(255, max(0, int(round(128 + gain * (v - 128))))) for v in range(256)]
    relief = z.filter(ImageFilter.EMBOSS).point(stretch)
    relief = relief.convert("RGB")
    shaded = BLENDS[str(scenario["blend_mode"])](base, relief)

    zone = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    cx, cy, r = float(scenario["zone_x"]) * W, float(scenario["zone_y"]) * H, float(scenario["zone_r"]) * H
    alpha = int(round(255 * float(scenario["zone_opacity"])))
    ImageDraw.Draw(zone).ellipse(
        [cx - r, cy - r, cx + r, cy + r], fill=(220, 40, 40, alpha), outline=(120, 0, 0, 255), width=2
    )
    mapped = Image.alpha_composite(shaded.convert("RGBA"), zone).convert("RGB")

    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).rounded_rectangle([W - 54, 4, W - 5, 41], radius=6, fill=255)
    inset = Image.new("RGB", (W, H), (0, 0, 0))
    inset.paste(z.reduce(3).convert("RGB"), (W - 54, 4))  # a 53x40 overview of the elevation
    final = Image.composite(inset, mapped, mask)
    final.save(os.path.join(os.environ["SWR_ARTIFACTS"], "map.png"), format="PNG")
    st = ImageStat.Stat(final)
    return {
        "image": "map.png",
        "mean_rgb": [float(v) for v in st.mean],
        "zone_changed_bbox": list(ImageChops.difference(shaded, mapped).getbbox() or (0, 0, 0, 0)),
        "relief_mean": float(ImageStat.Stat(relief).mean[0]),
        "shading_mean_abs_change": float(np.mean(np.abs(np.asarray(shaded, float) - np.asarray(base, float)))),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
