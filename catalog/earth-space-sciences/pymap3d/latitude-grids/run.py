"""Latitude grids built in auxiliary latitudes and converted back to geodetic latitude with pymap3d's latitude module:
authalic2geodetic (equal-area bands), geodetic2isometric / isometric2geodetic (Mercator parallels),
rectifying2geodetic, conformal2geodetic, parametric2geodetic and geocentric2geodetic.

Entry workflow: main() computes from the scenario.
"""

import sys

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy if present (2-3 s); none of it is used here

import numpy as np  # noqa: E402
import pymap3d as pm  # noqa: E402
from pymap3d import latitude  # noqa: E402


def _floats(values: object) -> list[float]:
    return [float(v) for v in np.atleast_1d(np.asarray(values, dtype=float))]


def main(s: dict) -> dict:
    ell = pm.Ellipsoid.from_name(str(s["ellipsoid"]))
    n = int(s["n_area_bands"])
    authalic = np.degrees(np.arcsin(-1.0 + 2.0 * np.arange(n + 1) / n))
    edges = np.asarray(latitude.authalic2geodetic(authalic, ell), float)
    psi_max = float(latitude.geodetic2isometric(float(s["mercator_lat_max_deg"]), ell))
    merc = latitude.isometric2geodetic(np.linspace(-psi_max, psi_max, int(s["n_mercator"])), ell)
    rect = latitude.rectifying2geodetic(np.linspace(-90.0, 90.0, int(s["n_rectifying"])), ell)
    widths = np.diff(edges)
    return {
        "area_band_edges_deg": _floats(edges),
        "mercator_parallels_deg": _floats(merc),
        "rectifying_marks_deg": _floats(rect),
        "conformal_edges_deg": _floats(latitude.conformal2geodetic(authalic, ell)),
        "parametric_edges_deg": _floats(latitude.parametric2geodetic(authalic, ell)),
        "widest_band_deg": float(widths.max()),
        "narrowest_band_deg": float(widths.min()),
        "fix_geodetic_lat_deg": float(latitude.geocentric2geodetic(float(s["geocentric_lat_deg"]),
                                                                   float(s["alt_m"]), ell)),
    }


if __name__ == "__main__":
    import json

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
