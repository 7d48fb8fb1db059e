"""A drone lawnmower survey planned in the home point's North-East-Down frame and converted with pymap3d
(ned.ned2geodetic, ned.ned2ecef) into geodetic waypoints, with the path length and the Earth-curvature height loss.

Entry workflow: main() builds the plan from the scenario.
"""

import math
import sys

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy if present (2-3 s); none of it is used here

import numpy as np  # noqa: E402
import pymap3d as pm  # noqa: E402
from pymap3d import ned  # noqa: E402


def _plan(s: dict) -> list[tuple[float, float]]:
    """(along, cross) of the waypoints: legs at equal spacing, alternating direction."""
    length, spacing = float(s["length_m"]), float(s["spacing_m"])
    pts = []
    for j in range(math.floor(float(s["width_m"]) / spacing) + 1):
        ends = (0.0, length) if j % 2 == 0 else (length, 0.0)
        pts += [(a, j * spacing) for a in ends]
    return pts


def main(s: dict) -> dict:
    ell = pm.Ellipsoid.from_name(str(s["ellipsoid"]))
    home = (float(s["lat_deg"]), float(s["lon_deg"]), float(s["home_h_m"]))
    hd, agl = math.radians(float(s["heading_deg"])), float(s["agl_m"])
    plan = _plan(s)
    n = np.array([a * math.cos(hd) - c * math.sin(hd) for a, c in plan])
    e = np.array([a * math.sin(hd) + c * math.cos(hd) for a, c in plan])
    d = np.full(len(plan), -agl)
    lat, lon, h = (np.asarray(v, float) for v in ned.ned2geodetic(n, e, d, *home, ell=ell))
    xyz = np.array(ned.ned2ecef(n, e, d, *home, ell=ell), float).T
    far = int(np.argmax(np.hypot(n, e)))
    return {
        "waypoints": [{"lat_deg": float(lat[k]), "lon_deg": float(lon[k]), "h_m": float(h[k])} for k in range(len(n))],
        "n_waypoints": len(plan),
        "path_length_m": float(np.linalg.norm(np.diff(xyz, axis=0), axis=1).sum()),
        "curvature_drop_m": home[2] + agl - float(h[far]),
    }


if __name__ == "__main__":
    import json

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
