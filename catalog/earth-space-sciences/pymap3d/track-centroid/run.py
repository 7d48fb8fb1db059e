"""A track densified with pymap3d (vincenty.track2) and summarised: geographic means on the authalic sphere
(lox.meanm) and meridian distances (lox.meridian_dist).

Entry workflow: main() draws its fixes from the scenario's seed.
"""

import sys

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy if present (2-3 s); none of it is used here

import numpy as np  # noqa: E402
import pymap3d as pm  # noqa: E402
from pymap3d import lox, vincenty  # noqa: E402


def main(s: dict) -> dict:
    ell = pm.Ellipsoid.from_name(str(s["ellipsoid"]))
    n = int(s["n_points"])
    lats, lons = vincenty.track2(float(s["lat1_deg"]), float(s["lon1_deg"]), float(s["lat2_deg"]),
                                 float(s["lon2_deg"]), ell, npts=n)
    lats, lons = np.asarray(lats, float), np.asarray(lons, float)
    rng = np.random.default_rng(int(s["seed"]))
    d = float(s["scatter_deg"])
    fixes = []
    for _ in range(int(s["n_fixes"])):
        k = int(rng.integers(0, n))
        fixes.append([float(lats[k] + rng.uniform(-d, d)), float(lons[k] + rng.uniform(-d, d))])
    f = np.array(fixes)
    tlat, tlon = lox.meanm(lats, lons, ell)
    flat, flon = lox.meanm(f[:, 0], f[:, 1], ell)
    mdist = np.array([float(lox.meridian_dist(float(la), ell)) for la in lats])
    return {
        "track": [[float(a), float(b)] for a, b in zip(lats, lons)],
        "fixes": fixes,
        "track_mean": {"lat_deg": float(tlat), "lon_deg": float(tlon)},
        "fixes_mean": {"lat_deg": float(flat), "lon_deg": float(flon)},
        "meridian_dist_max_m": float(mdist.max()),
        "meridian_dist_min_m": float(mdist.min()),
    }


if __name__ == "__main__":
    import json

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
