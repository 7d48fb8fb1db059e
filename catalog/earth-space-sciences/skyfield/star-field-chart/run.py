"""A generated star field around a chart centre: each star's IAU constellation (skyfield.constellationlib, boundaries
of B1875 precessed from ICRS), its stereographic chart coordinates (skyfield.projections), its separation from the
centre, and its coordinates formatted as an atlas prints them (skyfield.units.Angle.hstr / dstr).

Entry workflow: main(dict) -> dict; no module state is mutated (the constellation map is a pure lookup).
"""

import math

import numpy as np
from skyfield.api import load_constellation_map, load_constellation_names, position_of_radec
from skyfield.projections import build_stereographic_projection

CONSTELLATION_AT = load_constellation_map()
NAMES = dict(load_constellation_names())
DEG = math.pi / 180.0


def offsets(s: dict) -> tuple[np.ndarray, np.ndarray]:
    """Seeded star positions in a cap: distance radius sqrt(u1), position angle 360 u2 (from north through east)."""
    rng = np.random.default_rng(int(s["seed"]))
    u = rng.random((int(s["n_stars"]), 2))
    ra0, d0 = float(s["center_ra_hours"]) * 15.0 * DEG, float(s["center_dec_deg"]) * DEG
    r = float(s["field_radius_deg"]) * DEG * np.sqrt(u[:, 0])
    th = 2.0 * np.pi * u[:, 1]
    dec = np.arcsin(np.sin(d0) * np.cos(r) + np.cos(d0) * np.sin(r) * np.cos(th))
    ra = ra0 + np.arctan2(np.sin(th) * np.sin(r) * np.cos(d0), np.cos(r) - np.sin(d0) * np.sin(dec))
    return np.mod(ra / DEG / 15.0, 24.0), dec / DEG


def main(s: dict) -> dict:
    centre = position_of_radec(float(s["center_ra_hours"]), float(s["center_dec_deg"]))
    project = build_stereographic_projection(centre)
    ra_h, dec_d = offsets(s)
    places = int(s["places"])
    stars = []
    for ra, dec in zip(ra_h, dec_d):
        pos = position_of_radec(float(ra), float(dec))
        x, y = project(pos)
        ra_a, dec_a, _ = pos.radec()
        abbr = str(CONSTELLATION_AT(pos))
        stars.append({
            "ra_hours": float(ra), "dec_deg": float(dec),
            "constellation": abbr, "constellation_name": NAMES[abbr],
            "chart_x": float(x), "chart_y": float(y),
            "separation_deg": float(pos.separation_from(centre).degrees),
            "ra_text": ra_a.hstr(places=places), "dec_text": dec_a.dstr(places=places),
        })
    counts: dict[str, int] = {}
    for st in stars:
        counts[st["constellation"]] = counts.get(st["constellation"], 0) + 1
    return {
        "centre_constellation": str(CONSTELLATION_AT(centre)),
        "stars": stars,
        "constellation_counts": [{"constellation": k, "stars": n} for k, n in sorted(counts.items())],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
