"""Propagate a catalogue of nearby high-proper-motion stars to another epoch with skyfield's space-motion model
(skyfield.starlib.Star with proper motion, parallax and radial velocity, observed from the solar-system barycentre:
Barycentric(...).observe(star)), as an astrometrist updates finder coordinates; the table is written as CSV.

Entry workflow: main(dict) -> dict; the CSV goes to $SWR_ARTIFACTS.
"""

import csv
import os

from skyfield.api import Star, load
from skyfield.positionlib import Barycentric


def _stars(path: str, use_rv: bool) -> list:
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return [(r["name"], Star(ra_hours=float(r["ra_deg"]) / 15.0, dec_degrees=float(r["dec_deg"]),
                             ra_mas_per_year=float(r["pmra_mas_yr"]), dec_mas_per_year=float(r["pmdec_mas_yr"]),
                             parallax_mas=float(r["parallax_mas"]),
                             radial_km_per_s=float(r["rv_km_s"]) if use_rv else 0.0)) for r in rows]


def _observe(star, t):
    return Barycentric([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], t=t).observe(star)


def main(s: dict) -> dict:
    ts = load.timescale(builtin=True)
    t0, t1 = ts.J(2000.0), ts.J(float(s["target_epoch_year"]))
    rows = []
    for name, star in _stars(str(s["catalog"]), bool(s["use_radial_velocity"])):
        p0, p1 = _observe(star, t0), _observe(star, t1)
        ra, dec, dist = p1.radec()
        rows.append({"name": name, "ra_deg": float(ra.hours) * 15.0, "dec_deg": float(dec.degrees),
                     "distance_au": float(dist.au), "displacement_arcsec": float(p1.separation_from(p0).arcseconds())})
    if str(s["sort_by"]) == "displacement":
        rows.sort(key=lambda r: -r["displacement_arcsec"])
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "positions.csv"), "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["name", "ra_deg", "dec_deg", "distance_au", "displacement_arcsec"])
        for r in rows:
            w.writerow([r["name"], f"{r['ra_deg']:.9f}", f"{r['dec_deg']:.9f}", f"{r['distance_au']:.6f}",
                        f"{r['displacement_arcsec']:.9f}"])
    limit = float(s["min_displacement_arcsec"])
    return {
        "positions": "positions.csv",
        "order": [r["name"] for r in rows],
        "n_displaced": sum(1 for r in rows if r["displacement_arcsec"] > limit),
        "max_displacement_arcsec": max(r["displacement_arcsec"] for r in rows),
        "mean_distance_au": sum(r["distance_au"] for r in rows) / len(rows),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
