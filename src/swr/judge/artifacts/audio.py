"""Audio comparator: sample rate, channels, length in frames and samples within
atol + rtol·peak, so a lossless re-encode (WAV ↔ FLAC) passes and a truncated or scaled one fails."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ._common import (
    ArtifactResult,
    Budget,
    check,
    finish,
    load_pair,
    options_for,
)

DEFAULTS: dict[str, Any] = {}


def load_audio(path: Path, budget: Budget) -> tuple[np.ndarray, int, str]:
    """Frames as float64 (frames, channels) on the ±1 full-scale, the rate and the subtype.
    The header's frames x channels is admitted to the budget before a sample is decoded."""
    import soundfile

    with soundfile.SoundFile(str(path)) as sf:
        frames, rate, subtype = sf.frames, sf.samplerate, sf.subtype
        budget.admit("samples", frames * sf.channels)
        if rate <= 0:
            raise ValueError(f"sample rate {rate}")
        data = sf.read(frames, dtype="float64", always_2d=True)  # never more than declared
    return np.asarray(data, dtype=np.float64), int(rate), str(subtype)


def compare_audio(
    reference: Path, candidate: Path, atol: float, rtol: float, options: Mapping[str, Any] | None = None
) -> ArtifactResult:
    """Rate, channels and frames exact; max |sample difference| ≤ atol + rtol·peak(reference).
    Lossy formats (OGG Vorbis) need a looser atol/rtol from the task."""
    options_for("audio", options, DEFAULTS)
    pair = load_pair("audio", reference, lambda b: load_audio(reference, b), lambda b: load_audio(candidate, b))
    if isinstance(pair, ArtifactResult):
        return pair
    (ref, r_rate, r_sub), (cand, c_rate, c_sub) = pair

    checks = {
        "sample_rate": check(r_rate == c_rate, r_rate, c_rate),
        "channels": check(ref.shape[1] == cand.shape[1], ref.shape[1], cand.shape[1]),
        "frames": check(ref.shape[0] == cand.shape[0], ref.shape[0], cand.shape[0]),
    }
    if all(c["ok"] for c in checks.values()):
        peak = float(np.abs(ref).max()) if ref.size else 0.0
        tol = atol + rtol * peak
        diff = np.abs(ref - cand)
        worst = float(diff.max()) if diff.size else 0.0
        ok = bool(np.isfinite(worst)) and worst <= tol
        extra: dict[str, Any] = {"peak": peak, "subtypes": [r_sub, c_sub]}
        if not ok and diff.size:
            extra["where"] = f"frame {int(np.argwhere(~(diff <= tol))[0][0])}"
        checks["samples"] = check(ok, 0.0, worst, tol, **extra)
    return finish("audio", checks)
