"""Ground footprint of a conically scanning sensor with pymap3d: line-of-sight intersection with the ellipsoid
(los.lookAtSpheroid), North-East-Down offsets and local incidence (ned.geodetic2ned, ned.ned2aer) and angular
separation from nadir (haversine.anglesep, Meeus).

Entry workflow: warm workers import this module once; main() builds its rays from the scenario.
"""

import sys

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy if present (2-3 s); the Meeus path needs none

import numpy as np  # noqa: E402
from pymap3d import haversine, los, ned  # noqa: E402


def _rays(s: dict) -> list[tuple[int, float, float]]:
    """(ring, azimuth, tilt) of every ray: rings at equal fractions of the outer tilt, azimuths from the heading."""
    n, rings, tilt = int(s["n_rays"]), int(s["n_rings"]), float(s["tilt_deg"])
    return [(r, (float(s["heading_deg"]) + 360.0 * k / n) % 360.0, tilt * r / rings)
            for r in range(1, rings + 1) for k in range(n)]


def _ray(lat0: float, lon0: float, h0: float, az: float, tilt: float) -> dict:
    """Ground point of one ray, its NED offset from the platform, incidence and central angle from nadir."""
    lat, lon, rng = (float(v) for v in los.lookAtSpheroid(lat0, lon0, h0, az, tilt))
    n, e, d = (float(v) for v in ned.geodetic2ned(lat, lon, 0.0, lat0, lon0, h0))
    bn, be, bd = ned.geodetic2ned(lat0, lon0, h0, lat, lon, 0.0)
    _, el, _ = ned.ned2aer(bn, be, bd)
    return {
        "lat_deg": lat, "lon_deg": lon, "slant_range_m": rng, "ned_m": [n, e, d],
        "incidence_deg": 90.0 - float(el),
        "separation_deg": float(haversine.anglesep(lon0, lat0, lon, lat, force_non_astropy=True)),
    }


def main(s: dict) -> dict:
    lat0, lon0, h0 = float(s["lat_deg"]), float(s["lon_deg"]), float(s["altitude_km"]) * 1000.0
    rays = [{"ring": r, "azimuth_deg": az, "tilt_deg": tilt, **_ray(lat0, lon0, h0, az, tilt)}
            for r, az, tilt in _rays(s)]
    outer = [r["separation_deg"] for r in rays if r["ring"] == int(s["n_rings"])]
    return {
        "rays": rays,
        "max_slant_range_m": max(r["slant_range_m"] for r in rays),
        "max_incidence_deg": max(r["incidence_deg"] for r in rays),
        "outer_ring_mean_separation_deg": float(np.mean(outer)),
    }


if __name__ == "__main__":
    import json

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
