"""Image comparator: size, channel count after mode normalisation, and per-pixel tolerance,
so a lossless re-encode (PNG, BMP, TIFF, PPM) passes and a moved block of pixels fails.

Pixels are compared as a viewer shows them: the EXIF Orientation applied, an embedded ICC profile
converted to sRGB, a PNG gAMA other than sRGB's applied. Colour metadata that cannot be converted
must then be the same as the reference's (the `colour` check): an ICC profile that cannot be applied,
and a PNG cHRM whose primaries or white point are not sRGB's (a colour-managed viewer maps the
pixels through them; absent an sRGB or iCCP chunk, which take precedence, cHRM changes what is
shown). A re-encoding that keeps the same chunks (other compression or filtering) still passes."""

from __future__ import annotations

import hashlib
import io
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
    "pixel_tol": 2.0,  # max |difference| per channel, on the 0-255 scale
    "max_bad_fraction": 0.0,  # fraction of pixels allowed beyond pixel_tol
}
# Modes whose channels are not 0-255 samples of the picture as shown: convert first.
_TO_RGB = {"CMYK", "YCbCr", "LAB", "HSV", "RGBX"}
_WIDE = {"I;16", "I;16L", "I;16B", "I;16N"}
# Decoders for the image suffixes only: by content PIL would pick any of its plugins (EPS runs
# Ghostscript) for bytes a candidate wrote.
_FORMATS = ("PNG", "JPEG", "BMP", "TIFF", "PPM")  # JPEG includes multi-picture (MPO) files
_SRGB_GAMMA = 1 / 2.2  # the file gamma of an sRGB-encoded image, as PNG's gAMA spells it
_ICC_MODES = {"RGB": "RGB", "RGBA": "RGB", "L": "L", "LA": "L", "CMYK": "CMYK"}
# cHRM of sRGB (white x, y, red x, y, green x, y, blue x, y); PNG stores each to 1e-5
_SRGB_CHRM = (0.3127, 0.329, 0.64, 0.33, 0.3, 0.6, 0.15, 0.06)
_CHRM_TOL = 5e-4  # encoders round sRGB's chromaticities differently (0.3127 vs 0.31270); all within this


def _profile_to_srgb(im: Any, icc: bytes) -> Any:
    """The image converted from its embedded ICC profile to sRGB (alpha kept); unchanged when the
    profile is itself sRGB. Raises when the profile cannot be applied to the image's mode."""
    from PIL import ImageCms

    src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    if "srgb" in ImageCms.getProfileDescription(src).lower():
        return im
    if im.mode in ("P", "PA", "1"):  # the profile describes the colours, not the palette indices
        im = im.convert("L" if im.mode == "1" else "RGBA" if "transparency" in im.info or im.mode == "PA" else "RGB")
    mode = im.mode
    if mode not in _ICC_MODES:
        raise ValueError(f"no ICC conversion for mode {mode}")
    alpha = im.getchannel("A") if mode in ("RGBA", "LA") else None
    base = im.convert(_ICC_MODES[mode]) if alpha is not None else im
    out = ImageCms.profileToProfile(base, src, ImageCms.createProfile("sRGB"), outputMode="RGB")
    assert out is not None  # None only for inPlace=True
    if mode in ("L", "LA"):
        out = out.convert("L")
    if alpha is not None:
        out.putalpha(alpha)
    return out


def _as_viewed(im: Any) -> tuple[Any, float | None, str | None]:
    """The decoded frame as a viewer shows it: EXIF-transposed and ICC-converted. Returns the image,
    the exponent still to apply for a PNG gAMA, and a signature of colour metadata not applied."""
    from PIL import ImageCms, ImageOps

    icc, gamma, srgb = im.info.get("icc_profile"), im.info.get("gamma"), "srgb" in im.info
    im = ImageOps.exif_transpose(im)
    if srgb:  # an sRGB chunk overrides gAMA and iCCP
        return im, None, None
    if icc:
        try:
            return _profile_to_srgb(im, icc), None, None
        except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
            return im, None, "icc:" + hashlib.sha256(icc).hexdigest()[:16]
    chrm = _chromaticity(im.info.get("chromaticity"))
    if isinstance(gamma, (int, float)) and gamma > 0 and abs(gamma / _SRGB_GAMMA - 1) > 0.01:
        return im, _SRGB_GAMMA / gamma, chrm
    return im, None, chrm


def _chromaticity(chrm: Any) -> str | None:
    """A signature of a PNG cHRM that is not sRGB's (None for sRGB's, or none): its primaries change the
    colours a colour-managed viewer shows, and are compared rather than converted."""
    if not isinstance(chrm, (tuple, list)) or len(chrm) != 8:
        return None
    try:
        vals = tuple(float(v) for v in chrm)
    except (TypeError, ValueError):
        return "chrm:unreadable"
    if all(abs(v - s) <= _CHRM_TOL for v, s in zip(vals, _SRGB_CHRM)):
        return None
    return "chrm:" + ",".join(f"{v:.4f}" for v in vals)


def load_image(path: Path, budget: Budget) -> tuple[np.ndarray, str | None]:
    """Pixels as float64 (H, W, C) on a 0-255 scale, as a viewer shows them (see the module
    docstring); palette/bilevel/colour-space modes normalised, 16-bit scaled by 1/257, and a fully
    opaque alpha channel dropped. Also the signature of colour metadata that could not be applied.
    The header's size is admitted to the budget before any pixel is decoded."""
    from PIL import Image

    with Image.open(path, formats=_FORMATS) as im:  # lazy: reads the header only
        im.seek(0)  # multi-frame files: the first frame is the picture compared
        budget.admit("pixels", im.size[0] * im.size[1])
        im.load()
        im, exponent, colour = _as_viewed(im)
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
    if exponent is not None:  # gAMA: decode to linear light, re-encode for an sRGB display
        colours = arr.shape[2] - (arr.shape[2] in (2, 4))
        arr[:, :, :colours] = 255.0 * (np.clip(arr[:, :, :colours], 0, 255) / 255.0) ** exponent
    if arr.shape[2] in (2, 4) and np.all(arr[:, :, -1] >= 255.0):
        arr = arr[:, :, :-1]  # an opaque alpha says nothing: RGBA-all-255 equals RGB
    return arr, colour


def compare_image(
    reference: Path, candidate: Path, atol: float, rtol: float, options: Mapping[str, Any] | None = None
) -> ArtifactResult:
    """Same size and channels; every pixel (but max_bad_fraction of them) within pixel_tol in
    every channel. atol/rtol are unused: pixel tolerances are in pixel units, set by options."""
    opts = options_for("image", options, DEFAULTS)
    pixel_tol = tol_value("pixel_tol", opts["pixel_tol"])
    max_bad = tol_value("max_bad_fraction", opts["max_bad_fraction"])
    if max_bad > 1:
        raise ArtifactConfigError(f"max_bad_fraction must be <= 1, got {max_bad}")
    pair = load_pair("image", reference, lambda b: load_image(reference, b), lambda b: load_image(candidate, b))
    if isinstance(pair, ArtifactResult):
        return pair
    (ref, ref_colour), (cand, cand_colour) = pair

    (rh, rw, rc), (ch, cw, cc) = ref.shape, cand.shape
    checks = {
        "size": check((rw, rh) == (cw, ch), [rw, rh], [cw, ch]),
        "channels": check(rc == cc, rc, cc),
    }
    if ref_colour or cand_colour:  # colour metadata not applied must at least be the same
        checks["colour"] = check(ref_colour == cand_colour, ref_colour, cand_colour)
    if checks["size"]["ok"] and checks["channels"]["ok"]:
        diff = np.abs(ref - cand).max(axis=2)
        bad = diff > pixel_tol
        n_bad, total = int(bad.sum()), rh * rw
        extra: dict[str, Any] = {"bad_pixels": n_bad, "max_bad_fraction": max_bad}
        if n_bad:
            y, x = np.argwhere(bad)[0]
            extra["where"] = f"pixel x={int(x)}, y={int(y)}"
        checks["pixels"] = check(n_bad <= max_bad * total, 0.0, float(diff.max()), pixel_tol, **extra)
    return finish("image", checks)
