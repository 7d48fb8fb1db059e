"""Image comparator: size, channel count after mode normalisation, and per-pixel tolerance,
so a lossless re-encode (PNG, BMP, TIFF, PPM) passes and a moved block of pixels fails."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ._common import (
    ArtifactConfigError,
    ArtifactResult,
    Budget,
    check,
    finish,
    load_pair,
    options_for,
    tol_value,
)

DEFAULTS: dict[str, Any] = {
    "pixel_tol": 2.0,          # max |difference| per channel, on the 0-255 scale
    "max_bad_fraction": 0.0,   # fraction of pixels allowed beyond pixel_tol
}
# Modes whose channels are not 0-255 samples of the picture as shown: convert first.
_TO_RGB = {"CMYK", "YCbCr", "LAB", "HSV", "RGBX"}
_WIDE = {"I;16", "I;16L", "I;16B", "I;16N"}
# Decoders for the image suffixes only: by content PIL would pick any of its plugins (EPS runs
# Ghostscript) for bytes a candidate wrote.
_FORMATS = ("PNG", "JPEG", "BMP", "TIFF", "PPM")  # JPEG includes multi-picture (MPO) files


def load_image(path: Path, budget: Budget) -> np.ndarray:
    """Pixels as float64 (H, W, C) on a 0-255 scale; palette/bilevel/colour-space modes
    normalised, 16-bit scaled by 1/257, and a fully opaque alpha channel dropped.
    The header's size is admitted to the budget before any pixel is decoded."""
    from PIL import Image

    with Image.open(path, formats=_FORMATS) as im:  # lazy: reads the header only
        im.seek(0)  # multi-frame files: the first frame is the picture compared
        budget.admit("pixels", im.size[0] * im.size[1])
        im.load()
        mode = im.mode
        if mode in ("P", "PA"):
            im = im.convert("RGBA" if ("transparency" in im.info or mode == "PA") else "RGB")
        elif mode == "1":
            im = im.convert("L")
        elif mode in _TO_RGB:
            im = im.convert("RGB")
        elif mode == "RGBa":
            im = im.convert("RGBA")
        elif mode == "La":
            im = im.convert("LA")
        arr = np.asarray(im, dtype=np.float64)
        if im.mode in _WIDE:
            arr = arr / 257.0
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if arr.ndim != 3 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"unsupported pixel layout {arr.shape}")
    if arr.shape[2] in (2, 4) and np.all(arr[:, :, -1] >= 255.0):
        arr = arr[:, :, :-1]  # an opaque alpha says nothing: RGBA-all-255 equals RGB
    return arr


def compare_image(reference: Path, candidate: Path, atol: float, rtol: float,
                  options: Mapping[str, Any] | None = None) -> ArtifactResult:
    """Same size and channels; every pixel (but max_bad_fraction of them) within pixel_tol in
    every channel. atol/rtol are unused: pixel tolerances are in pixel units, set by options."""
    opts = options_for("image", options, DEFAULTS)
    pixel_tol = tol_value("pixel_tol", opts["pixel_tol"])
    max_bad = tol_value("max_bad_fraction", opts["max_bad_fraction"])
    if max_bad > 1:
        raise ArtifactConfigError(f"max_bad_fraction must be <= 1, got {max_bad}")
    pair = load_pair("image", reference, lambda b: load_image(reference, b),
                     lambda b: load_image(candidate, b))
    if isinstance(pair, ArtifactResult):
        return pair
    ref, cand = pair

    (rh, rw, rc), (ch, cw, cc) = ref.shape, cand.shape
    checks = {
        "size": check((rw, rh) == (cw, ch), [rw, rh], [cw, ch]),
        "channels": check(rc == cc, rc, cc),
    }
    if checks["size"]["ok"] and checks["channels"]["ok"]:
        diff = np.abs(ref - cand).max(axis=2)
        bad = diff > pixel_tol
        n_bad, total = int(bad.sum()), rh * rw
        extra: dict[str, Any] = {"bad_pixels": n_bad, "max_bad_fraction": max_bad}
        if n_bad:
            y, x = np.argwhere(bad)[0]
            extra["where"] = f"pixel x={int(x)}, y={int(y)}"
        checks["pixels"] = check(n_bad <= max_bad * total, 0.0, float(diff.max()), pixel_tol,
                                 **extra)
    return finish("image", checks)
