"""A synthetic sky image with a TAN world coordinate system and its source catalogue, written as one FITS file with
astropy: the image in the primary HDU (WCS keywords in its header, BUNIT), the catalogue as a binary table HDU named
SOURCES whose sky positions come from the WCS (all_pix2world, 0-based) and whose fluxes are aperture sums of the image.

Entry workflow: main() builds everything from the scenario; nothing depends on the clock (no DATE card, no checksum).
"""

import os

import numpy as np


def _wcs(s: dict, n: int):
    """A gnomonic (TAN) WCS centred on (ra, dec) with a square pixel scale and a rotation."""
    from astropy.wcs import WCS

    w = WCS(naxis=2)
    w.wcs.ctype = ["RA---TAN", "DEC--TAN"]
    w.wcs.crval = [float(s["ra_deg"]), float(s["dec_deg"])]
    w.wcs.crpix = [(n + 1) / 2.0, (n + 1) / 2.0]
    scale = float(s["pixel_scale_arcsec"]) / 3600.0
    th = np.deg2rad(float(s["rotation_deg"]))
    w.wcs.cdelt = [-scale, scale]
    w.wcs.pc = [[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]]
    w.wcs.cunit = ["deg", "deg"]
    w.wcs.radesys = "ICRS"
    return w


def main(s: dict) -> dict:
    from astropy.io import fits

    n = int(s["size_px"])
    rng = np.random.default_rng(int(s["seed"]))
    k = int(s["n_sources"])
    x, y = rng.uniform(5, n - 6, k), rng.uniform(5, n - 6, k)
    flux = rng.uniform(100.0, 5000.0, k)
    sigma = float(s["psf_sigma_px"])
    yy, xx = np.mgrid[0:n, 0:n]
    img = np.full((n, n), float(s["background"]))
    for xi, yi, fi in zip(x, y, flux):
        img += fi / (2 * np.pi * sigma**2) * np.exp(-((xx - xi) ** 2 + (yy - yi) ** 2) / (2 * sigma**2))
    w = _wcs(s, n)
    ra, dec = w.all_pix2world(x, y, 0)
    r = 3.0 * sigma
    ap = np.array([img[(xx - xi) ** 2 + (yy - yi) ** 2 <= r * r].sum() for xi, yi in zip(x, y)])
    npix = np.array([np.count_nonzero((xx - xi) ** 2 + (yy - yi) ** 2 <= r * r) for xi, yi in zip(x, y)])
    net = ap - npix * float(s["background"])

    primary = fits.PrimaryHDU(img.astype(np.float32), header=w.to_header())
    primary.header["BUNIT"] = "adu"
    primary.header["OBJECT"] = "synthetic field"
    primary.header["PSFSIGMA"] = (sigma, "Gaussian PSF sigma [pixel]")
    cols = [
        fits.Column("id", "J", array=np.arange(1, k + 1)),
        fits.Column("x", "D", unit="pix", array=x),
        fits.Column("y", "D", unit="pix", array=y),
        fits.Column("ra", "D", unit="deg", array=ra),
        fits.Column("dec", "D", unit="deg", array=dec),
        fits.Column("flux_true", "D", unit="adu", array=flux),
        fits.Column("flux_aperture", "D", unit="adu", array=net),
        fits.Column("npix", "J", array=npix),
    ]
    table = fits.BinTableHDU.from_columns(cols, name="SOURCES")
    table.header["APRADIUS"] = (r, "aperture radius [pixel]")
    fits.HDUList([primary, table]).writeto(os.path.join(os.environ["SWR_ARTIFACTS"], "field.fits"))
    corner_ra, corner_dec = w.all_pix2world([0.0], [0.0], 0)
    return {
        "image": "field.fits",
        "corner_ra_deg": float(corner_ra[0]),
        "corner_dec_deg": float(corner_dec[0]),
        "total_net_flux": float(net.sum()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
