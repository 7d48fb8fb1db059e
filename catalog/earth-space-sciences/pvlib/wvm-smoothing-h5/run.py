"""Geographic smoothing of cloud-driven irradiance variability over a PV plant with pvlib's wavelet variability
model (pvlib.scaling.wvm: wavelet decomposition of a point sensor's clear-sky index, scaled by the plant's
spatial decorrelation), as a grid-integration engineer sizes ramp-rate control; the series are written as HDF5.

Entry workflow: main(dict) -> dict; the HDF5 file goes to $SWR_ARTIFACTS.
"""

import os

import numpy as np
from pvlib import scaling


def _clear_sky_index(s: dict) -> np.ndarray:
    """A two-state (clear / cloudy) Markov record at 1 s: the state flips where u < switch_probability."""
    rng = np.random.default_rng(int(s["seed"]))
    u = rng.random(int(s["duration_s"]))
    cloudy = np.cumsum(u < float(s["switch_probability"])) % 2 == 1
    return np.where(cloudy, float(s["cloudy_csi"]), 1.0)


def _ramp(x: np.ndarray, lag: int) -> float:
    return float(np.max(np.abs(x[lag:] - x[:-lag])))


def main(s: dict) -> dict:
    import h5py

    csi = _clear_sky_index(s)
    nx, ny, d = int(s["n_x"]), int(s["n_y"]), float(s["spacing_m"])
    pos = np.array([[i * d, j * d] for i in range(nx) for j in range(ny)], dtype=float)
    smooth, wavelet, scales = scaling.wvm(csi, pos, float(s["cloud_speed_m_s"]), dt=1.0)
    with h5py.File(os.path.join(os.environ["SWR_ARTIFACTS"], "wvm.h5"), "w") as h5:
        h5.create_dataset("time", data=np.arange(csi.size, dtype=float)).attrs["units"] = "s"
        h5.create_dataset("clear_sky_index", data=csi).attrs["units"] = "1"
        h5.create_dataset("smoothed", data=np.asarray(smooth, float)).attrs["units"] = "1"
        h5.create_dataset("timescales", data=np.asarray(scales, float)).attrs["units"] = "s"
    dp, ds = np.diff(csi), np.diff(np.asarray(smooth, float))
    sd = float(np.std(dp))
    return {
        "series": "wvm.h5",
        "n_units": int(pos.shape[0]),
        "n_timescales": int(len(scales)),
        "n_state_changes": int(np.count_nonzero(dp)),
        "variability_ratio": float(np.std(ds)) / sd if sd > 0.0 else 0.0,
        "max_ramp_1s_point": _ramp(csi, 1),
        "max_ramp_1s_plant": _ramp(np.asarray(smooth, float), 1),
        "max_ramp_60s_plant": _ramp(np.asarray(smooth, float), 60),
        "mean_plant_csi": float(np.mean(smooth)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
