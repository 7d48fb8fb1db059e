"""Photograph a synthetic document page in perspective and rectify it back with Pillow's geometric
transforms (Image.transform PERSPECTIVE and QUAD), saving both as PNG and measuring the round trip.

Entry workflow: served by warm workers that import this module once; main() builds new images per call.
"""

import math
import os

import numpy as np
from PIL import Image, ImageDraw, ImageOps

PAGE_W, PAGE_H = 120, 90
PHOTO_W, PHOTO_H = 200, 150
RESAMPLE = {
    "nearest": Image.Resampling.NEAREST,
    "bilinear": Image.Resampling.BILINEAR,
    "bicubic": Image.Resampling.BICUBIC,
}


def page(scenario: dict) -> Image.Image:
    rng = np.random.default_rng(int(scenario["seed"]))
    img = Image.new("RGB", (PAGE_W, PAGE_H), (250, 250, 245))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, PAGE_W - 1, 13], fill=(30, 80, 160))
    n = int(scenario["n_lines"])
    for i in range(n):
        y = 20 + i * (PAGE_H - 26) / n
        length = rng.uniform(30, PAGE_W - 16)
        d.rectangle([8, y, 8 + length, y + 3], fill=(40, 40, 40))
    d.rectangle([0, 0, PAGE_W - 1, PAGE_H - 1], outline=(200, 30, 30), width=2)
    return img


def corners(scenario: dict) -> list:
    """Page corners in the photo: upper-left, lower-left, lower-right, upper-right."""
    s, k = float(scenario["scale"]), float(scenario["keystone"])
    a = math.radians(float(scenario["rotation_deg"]))
    hw, hh = s * PAGE_W * 0.55, s * PAGE_H * 0.55
    local = [(-hw * (1 - k), -hh), (-hw, hh), (hw, hh), (hw * (1 - k), -hh)]
    shift = float(scenario["skew_px"])
    out = []
    for x, y in local:
        x += shift * (y < 0)
        out.append((PHOTO_W / 2 + x * math.cos(a) - y * math.sin(a), PHOTO_H / 2 + x * math.sin(a) + y * math.cos(a)))
    return out


def perspective_coeffs(dst: list, src: list) -> list:
    """Pillow PERSPECTIVE data mapping output (photo) pixel dst[i] to input (page) pixel src[i]."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return [float(c) for c in np.linalg.solve(np.array(rows, float), np.array(rhs, float))]


def main(scenario: dict) -> dict:
    out_dir = os.environ["SWR_ARTIFACTS"]
    src = page(scenario)
    quad = corners(scenario)
    page_corners = [(0, 0), (0, PAGE_H), (PAGE_W, PAGE_H), (PAGE_W, 0)]
    coeffs = perspective_coeffs(quad, page_corners)
    photo = src.transform(
        (PHOTO_W, PHOTO_H),
        Image.Transform.PERSPECTIVE,
        coeffs,
        resample=RESAMPLE[str(scenario["resample"])],
        fillcolor=(60, 60, 60),
    )
    rect = photo.transform(
        (PAGE_W, PAGE_H), Image.Transform.QUAD, [v for c in quad for v in c], resample=Image.Resampling.BILINEAR
    )
    photo.save(os.path.join(out_dir, "photo.png"), format="PNG")
    rect.save(os.path.join(out_dir, "rectified.png"), format="PNG")
    diff = np.abs(np.asarray(rect, float) - np.asarray(src, float))
    ink = ImageOps.grayscale(rect).point(lambda v: 255 if v < 100 else 0)
    return {
        "photo": "photo.png",
        "rectified": "rectified.png",
        "perspective_coefficients": coeffs,
        "roundtrip_mean_abs_diff": float(diff.mean()),
        "roundtrip_max_abs_diff": float(diff.max()),
        "rectified_ink_pixels": int(np.count_nonzero(np.asarray(ink))),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
