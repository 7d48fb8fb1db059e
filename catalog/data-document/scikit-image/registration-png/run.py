"""Register a shifted, noisy copy of a sample image with scikit-image: sub-pixel phase correlation and
ILK optical flow."""

import os

import numpy as np
from skimage import data, io, registration, transform, util


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    stride = int(scn["stride"])
    ref = util.img_as_float(getattr(data, str(scn["image"]))())[::stride, ::stride]
    shift_rc = np.array([float(scn["shift_row"]), float(scn["shift_col"])])
    moving = transform.warp(
        ref, transform.SimilarityTransform(translation=(-shift_rc[1], -shift_rc[0])), order=1, mode="edge"
    )
    moving = moving + float(scn["noise_sd"]) * rng.normal(size=moving.shape)

    norm = None if scn["normalization"] == "none" else "phase"
    shift, _error, _ = registration.phase_cross_correlation(
        ref, moving, upsample_factor=int(scn["upsample"]), normalization=norm
    )
    v, u = registration.optical_flow_ilk(ref, moving, radius=int(scn["flow_radius"]), num_warp=int(scn["num_warp"]))
    rows, cols = np.meshgrid(np.arange(ref.shape[0]), np.arange(ref.shape[1]), indexing="ij")
    unwarped = transform.warp(moving, np.array([rows + v, cols + u]), mode="edge")
    overlay = np.clip(np.dstack([ref, unwarped, moving]), 0.0, 1.0)
    io.imsave(
        os.path.join(os.environ["SWR_ARTIFACTS"], "registration.png"), util.img_as_ubyte(overlay), check_contrast=False
    )
    return {
        "image": "registration.png",
        "phase_shift_rows_cols": [float(s) for s in shift],
        "flow_mean_rows_cols": [float(v.mean()), float(u.mean())],
        "flow_rms_magnitude": float(np.sqrt(np.mean(v**2 + u**2))),
        "residual_rms_before": float(np.sqrt(np.mean((moving - ref) ** 2))),
        "residual_rms_after_flow": float(np.sqrt(np.mean((unwarped - ref) ** 2))),
    }
