"""Compose, warp and filter a synthetic poster with Pillow and save it as PNG."""

import math
import os

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps

W, H = 200, 150


def main(scn):
    out_dir = os.environ["SWR_ARTIFACTS"]
    grad = Image.linear_gradient("L").rotate(float(scn["gradient_angle_deg"]), resample=Image.Resampling.BILINEAR)
    grad = grad.resize((W, H), resample=Image.Resampling.BILINEAR)
    img = ImageOps.colorize(grad, black=(10, 20, 80), white=(250, 200, 60))

    d = ImageDraw.Draw(img)
    cx, cy = float(scn["shape_x"]) * W, float(scn["shape_y"]) * H
    d.regular_polygon((cx, cy, float(scn["shape_radius"]) * H), int(scn["n_sides"]),
                      rotation=float(scn["shape_rotation_deg"]), fill=(200, 30, 120), outline=(255, 255, 255))
    d.arc([20, 20, W - 20, H - 20], start=0, end=float(scn["arc_extent_deg"]), fill=(0, 230, 200), width=4)

    shear = math.tan(math.radians(float(scn["shear_deg"])))
    img = img.transform((W, H), Image.Transform.AFFINE, (1.0, shear, -shear * H / 2.0, 0.0, 1.0, 0.0),
                        resample=Image.Resampling.BILINEAR, fillcolor=(0, 0, 0))
    img = img.filter(ImageFilter.UnsharpMask(radius=float(scn["unsharp_radius"]), percent=150, threshold=2))
    vignette = Image.radial_gradient("L").resize((W, H), resample=Image.Resampling.BILINEAR)
    vignette = ImageOps.invert(vignette).convert("RGB")
    img = ImageChops.multiply(img, vignette)
    img = ImageOps.posterize(img, int(scn["posterize_bits"]))
    img.save(os.path.join(out_dir, "poster.png"), format="PNG")
    return {"image": "poster.png"}
