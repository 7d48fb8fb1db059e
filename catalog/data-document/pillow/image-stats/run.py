"""Draw a synthetic scene with Pillow, transform and filter it, and report image statistics."""

from PIL import Image, ImageDraw, ImageFilter, ImageOps, ImageStat

W, H = 160, 120


def scene(scn):
    img = Image.new("RGB", (W, H), (20, 30, 60))
    d = ImageDraw.Draw(img)
    cx, cy, r = float(scn["circle_x"]) * W, float(scn["circle_y"]) * H, float(scn["circle_r"]) * H
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(230, 80, 40))
    x0, y0 = float(scn["rect_x"]) * W, float(scn["rect_y"]) * H
    d.rectangle([x0, y0, x0 + 0.35 * W, y0 + 0.25 * H], fill=(40, 200, 90), outline=(255, 255, 255), width=2)
    d.line([(0, H - 1), (W - 1, float(scn["line_end_y"]) * H)], fill=(250, 240, 120), width=3)
    return img


def stats(img):
    st = ImageStat.Stat(img)
    return {"mean": [float(v) for v in st.mean], "stddev": [float(v) for v in st.stddev],
            "median": [float(v) for v in st.median],
            "extrema": [[float(a), float(b)] for a, b in st.extrema]}


def main(scn):
    img = scene(scn)
    rot = img.rotate(float(scn["angle_deg"]), resample=Image.Resampling.BICUBIC, expand=True,
                     fillcolor=(0, 0, 0))
    blur = rot.filter(ImageFilter.GaussianBlur(radius=float(scn["blur_radius"])))
    gray = ImageOps.grayscale(blur)
    eq = ImageOps.equalize(gray)
    edges = gray.filter(ImageFilter.FIND_EDGES)
    thumb = blur.resize((40, 30), resample=Image.Resampling.LANCZOS)
    hist = gray.histogram()
    bins16 = [float(sum(hist[i:i + 16])) for i in range(0, 256, 16)]
    bright = gray.point(lambda v: 255 if v > int(scn["threshold"]) else 0)
    return {
        "rotated_size": [float(rot.width), float(rot.height)],
        "original": stats(img),
        "blurred": stats(blur),
        "gray": stats(gray),
        "gray_hist16": bins16,
        "gray_entropy": float(gray.entropy()),
        "equalized_mean": float(ImageStat.Stat(eq).mean[0]),
        "edges_mean": float(ImageStat.Stat(edges).mean[0]),
        "bright_fraction": float(ImageStat.Stat(bright).mean[0] / 255.0),
        "bright_bbox": [float(v) for v in (bright.getbbox() or (0, 0, 0, 0))],
        "thumb_center_rgb": [float(v) for v in thumb.getpixel((20, 15))],
    }
