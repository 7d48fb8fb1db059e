"""Sphere radii approximating a reference ellipsoid with pymap3d (rsphere.eqavol, authalic, rectifying, biaxial,
curve, euler), their great-circle distances, and geocentric spherical coordinates (spherical.geodetic2spherical).

Entry workflow: main() computes from the scenario.
"""

import math
import sys

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy if present (2-3 s); none of it is used here

import pymap3d as pm  # noqa: E402
from pymap3d import rsphere, spherical  # noqa: E402


def _central_angle(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Haversine central angle (radians) on the geodetic latitudes."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2.0) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2.0) ** 2
    return 2.0 * math.asin(math.sqrt(h))


def main(s: dict) -> dict:
    ell = pm.Ellipsoid.from_name(str(s["ellipsoid"]))
    lat1, lon1, lat2, lon2 = (float(s[k]) for k in ("lat1_deg", "lon1_deg", "lat2_deg", "lon2_deg"))
    method = str(s["radius_method"])
    radii = {
        "eqavol": rsphere.eqavol(ell), "authalic": rsphere.authalic(ell), "rectifying": rsphere.rectifying(ell),
        "biaxial": rsphere.biaxial(ell, method=method),
        "curve": rsphere.curve((lat1 + lat2) / 2.0, ell, method=method),
        "euler": rsphere.euler(lat1, lon1, lat2, lon2, ell),
    }
    radii = {k: float(v) for k, v in radii.items()}
    c = _central_angle(lat1, lon1, lat2, lon2)
    dist = {k: r * c for k, r in radii.items()}
    sph = {}
    for name, lat, lon, h in (("P1", lat1, lon1, float(s["h1_m"])), ("P2", lat2, lon2, float(s["h2_m"]))):
        la, lo, r = spherical.geodetic2spherical(lat, lon, h, ell)
        sph[name] = {"lat_deg": float(la), "lon_deg": float(lo), "radius_m": float(r)}
    return {
        "radii_m": radii,
        "distances_m": dist,
        "central_angle_deg": math.degrees(c),
        "distance_spread_m": max(dist.values()) - min(dist.values()),
        "spherical": sph,
    }


if __name__ == "__main__":
    import json

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
