"""Celestial World Coordinate System of an imaging detector with astropy.wcs (wcslib): pixel <-> sky
transformations for several spherical projections, the image footprint and a target's pixel position.

Entry workflow: served by warm workers that import this module once; main() builds a new WCS per call.
"""

import numpy as np
from astropy.wcs import WCS


def build(scenario: dict) -> WCS:
    proj = str(scenario["projection"])
    n = int(scenario["naxis"])
    scale = float(scenario["pixel_scale_arcsec"]) / 3600.0
    theta = np.radians(float(scenario["rotation_deg"]))
    w = WCS(naxis=2)
    w.wcs.ctype = [f"RA---{proj}", f"DEC--{proj}"]
    w.wcs.crval = [float(scenario["crval_ra_deg"]), float(scenario["crval_dec_deg"])]
    w.wcs.crpix = [(n + 1) / 2.0, (n + 1) / 2.0]
    w.wcs.cd = scale * np.array([[-np.cos(theta), np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    w.wcs.set()
    return w


def radec(pair) -> dict:
    return {"ra_deg": float(pair[0]) % 360.0, "dec_deg": float(pair[1])}


def main(scenario: dict) -> dict:
    w = build(scenario)
    n = int(scenario["naxis"])
    px = float(scenario["probe_x_frac"]) * (n - 1)
    py = float(scenario["probe_y_frac"]) * (n - 1)
    probe = w.all_pix2world([[px, py]], 0)[0]
    ra_t = float(scenario["crval_ra_deg"]) + float(scenario["target_dra_arcmin"]) / 60.0
    dec_t = float(scenario["crval_dec_deg"]) + float(scenario["target_ddec_arcmin"]) / 60.0
    target = w.all_world2pix([[ra_t, dec_t]], 0)[0]
    corners = w.calc_footprint(axes=(n, n))
    return {
        "probe_world": radec(probe),
        "target_pixel": [float(target[0]), float(target[1])],
        "footprint": [radec(c) for c in corners],
        "native_pole": {"lonpole_deg": float(w.wcs.lonpole), "latpole_deg": float(w.wcs.latpole)},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
