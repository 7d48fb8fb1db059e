"""Look angles (azimuth, elevation, slant range) of generated targets from a ground site with pymap3d, with
their ECEF and ENU coordinates, the reciprocal look angles and the line-of-sight clearance over the ellipsoid.

Entry workflow: warm workers import this module once; main() draws its own targets from the scenario's seed.
"""

import sys

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy for ECI frames if present (2-3 s); none are used here

import numpy as np  # noqa: E402
import pymap3d as pm  # noqa: E402

LOS_STEPS = 20  # the segment is sampled at k / LOS_STEPS, k = 1 .. LOS_STEPS - 1 (ends excluded)


def _targets(s: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Target latitudes, longitudes and heights: uniform in a lat/lon box around the site and in height."""
    rng = np.random.default_rng(int(s["seed"]))
    n, span = int(s["n_targets"]), float(s["span_deg"])
    dlat = rng.uniform(-span, span, n)
    dlon = rng.uniform(-span, span, n)
    h = rng.uniform(0.0, float(s["max_height_m"]), n)
    lat = np.clip(float(s["lat_deg"]) + dlat, -89.9, 89.9)
    lon = (float(s["lon_deg"]) + dlon + 180.0) % 360.0 - 180.0
    return lat, lon, h


def _los_min_height(site: tuple, target: tuple, ell: pm.Ellipsoid) -> float:
    """Lowest ellipsoidal height inside the straight segment between two ECEF points (earth-bulge clearance)."""
    f = np.arange(1, LOS_STEPS) / LOS_STEPS
    pts = [a + f * (b - a) for a, b in zip(site, target)]
    _, _, h = pm.ecef2geodetic(*pts, ell=ell)
    return float(np.min(h))


def main(scenario: dict) -> dict:
    ell = pm.Ellipsoid.from_name(str(scenario["ellipsoid"]))
    lat0, lon0, h0 = float(scenario["lat_deg"]), float(scenario["lon_deg"]), float(scenario["height_m"])
    mask = float(scenario["elevation_mask_deg"])
    site = pm.geodetic2ecef(lat0, lon0, h0, ell=ell)
    out = []
    for lat, lon, h in zip(*_targets(scenario)):
        x, y, z = pm.geodetic2ecef(lat, lon, h, ell=ell)
        e, n, u = pm.geodetic2enu(lat, lon, h, lat0, lon0, h0, ell=ell)
        az, el, rng = pm.geodetic2aer(lat, lon, h, lat0, lon0, h0, ell=ell)
        baz, bel, _ = pm.geodetic2aer(lat0, lon0, h0, lat, lon, h, ell=ell)
        out.append({
            "lat_deg": float(lat), "lon_deg": float(lon), "height_m": float(h),
            "ecef_m": [float(x), float(y), float(z)], "enu_m": [float(e), float(n), float(u)],
            "azimuth_deg": float(az), "elevation_deg": float(el), "slant_range_m": float(rng),
            "back_azimuth_deg": float(baz), "back_elevation_deg": float(bel),
            "los_min_height_m": _los_min_height(site, (x, y, z), ell),
            "visible": bool(el >= mask),
        })
    return {
        "site_ecef_m": [float(v) for v in site],
        "targets": out,
        "visible_count": sum(t["visible"] for t in out),
        "max_elevation_deg": max(t["elevation_deg"] for t in out),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
