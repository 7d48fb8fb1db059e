"""Radar contacts from a moving platform with pymap3d: azimuth/elevation/range to down-range/cross-range/above
(dca.aer2dca), to geodetic positions (dca.dca2geodetic on a chosen ellipsoid), and their mean position through
n-vectors (nvector.geodetic2nvector, nvector2geodetic).

Entry workflow: main() draws its contacts from the scenario's seed.
"""

import sys

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy if present (2-3 s); none of it is used here

import numpy as np  # noqa: E402
import pymap3d as pm  # noqa: E402
from pymap3d import dca, nvector  # noqa: E402


def _contacts(s: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(int(s["seed"]))
    n = int(s["n_contacts"])
    az = rng.uniform(0.0, 360.0, n)
    el = rng.uniform(-1.0, float(s["max_elevation_deg"]), n)
    rg = rng.uniform(500.0, float(s["max_range_km"]) * 1000.0, n)
    return az, el, rg


def main(s: dict) -> dict:
    ell = pm.Ellipsoid.from_name(str(s["ellipsoid"]))
    lat0, lon0, h0, head = float(s["lat_deg"]), float(s["lon_deg"]), float(s["height_m"]), float(s["heading_deg"])
    az, el, rg = _contacts(s)
    dr, cr, up = dca.aer2dca(az, el, rg, head)
    lat, lon, h = dca.dca2geodetic(dr, cr, up, lat0, lon0, h0, head, ell=ell)
    nv = np.array(nvector.geodetic2nvector(lat, lon))  # 3 x n
    mean = nv.sum(axis=1)
    mean /= np.linalg.norm(mean)
    mlat, mlon = nvector.nvector2geodetic(*mean)
    contacts = [{"dr_m": float(dr[k]), "cr_m": float(cr[k]), "above_m": float(up[k]), "lat_deg": float(lat[k]),
                 "lon_deg": float(lon[k]), "height_m": float(h[k]), "nvector": [float(v) for v in nv[:, k]]}
                for k in range(len(az))]
    return {
        "contacts": contacts,
        "mean_lat_deg": float(mlat), "mean_lon_deg": float(mlon),
        "n_ahead": int(np.count_nonzero(dr > 0.0)), "n_left": int(np.count_nonzero(cr > 0.0)),
    }


if __name__ == "__main__":
    import json

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
