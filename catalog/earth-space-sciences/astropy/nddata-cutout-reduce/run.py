"""Cut a sky-position stamp out of a WCS image and bin it with astropy.nddata: Cutout2D (trim or partial mode,
WCS carried along), block_reduce, and NDDataArray arithmetic with StdDevUncertainty propagating Poisson errors
through the sky subtraction.

Entry workflow: warm workers import this module once; main() builds a new image per call with numpy's PCG64
generator seeded by the scenario.
"""

import astropy.units as u
import numpy as np
from astropy.coordinates import SkyCoord
from astropy.nddata import Cutout2D, NDDataArray, StdDevUncertainty, block_reduce
from astropy.wcs import WCS

N = 64
PIXEL_ARCSEC = 1.5


def image(scenario: dict) -> tuple[np.ndarray, WCS]:
    rng = np.random.default_rng(int(scenario["seed"]))
    w = WCS(naxis=2)
    w.wcs.ctype = ["RA---TAN", "DEC--TAN"]
    w.wcs.crval = [150.0, 2.0]
    w.wcs.crpix = [32.5, 32.5]
    w.wcs.cdelt = [-PIXEL_ARCSEC / 3600.0, PIXEL_ARCSEC / 3600.0]
    yy, xx = np.mgrid[0:N, 0:N].astype(float)
    model = np.full((N, N), float(scenario["sky_adu"]))
    for _ in range(12):
        x0, y0, f = rng.uniform(0, N), rng.uniform(0, N), rng.uniform(500, 5000)
        model += f / (2 * np.pi * 2.0**2) * np.exp(-((xx - x0) ** 2 + (yy - y0) ** 2) / (2 * 2.0**2))
    return rng.poisson(model).astype(float), w


def main(scenario: dict) -> dict:
    data, w = image(scenario)
    centre = SkyCoord(150.0 * u.deg, 2.0 * u.deg)
    pos = centre.spherical_offsets_by(
        float(scenario["ra_offset_arcsec"]) * u.arcsec, float(scenario["dec_offset_arcsec"]) * u.arcsec
    )
    size = float(scenario["size_arcsec"]) * u.arcsec
    cut = Cutout2D(data, pos, size, wcs=w, mode=scenario["mode"], fill_value=np.nan)
    stamp = NDDataArray(cut.data, uncertainty=StdDevUncertainty(np.sqrt(np.abs(cut.data))), unit="adu")
    sky = NDDataArray(
        float(scenario["sky_adu"]), uncertainty=StdDevUncertainty(np.sqrt(float(scenario["sky_adu"]))), unit="adu"
    )
    net = stamp.subtract(sky, propagate_uncertainties=True)
    good = np.isfinite(net.data)
    k = int(scenario["block"])
    func = np.sum if scenario["reduce"] == "sum" else np.mean
    binned = block_reduce(np.where(good, net.data, 0.0), k, func=func)
    return {
        "cutout_shape": list(cut.data.shape),
        "origin_original": [int(v) for v in cut.origin_original],
        "cutout_crpix": [float(v) for v in cut.wcs.wcs.crpix],
        "position_pixel": [float(v) for v in cut.position_cutout],
        "valid_pixels": int(good.sum()),
        "net_flux_adu": float(net.data[good].sum()),
        "net_flux_error_adu": float(np.sqrt(np.sum(net.uncertainty.array[good] ** 2))),
        "binned_shape": list(binned.shape),
        "binned_max_adu": float(binned.max()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
