"""Distances of open clusters from member parallaxes with astropy.table and astropy.units: a QTable with units,
row selection, the parallax equivalency, distance modulus to absolute magnitude, group_by + aggregate per cluster,
join with the cluster list, and both tables written as FITS binary-table HDUs (table_to_hdu) with units and header
keywords.

Entry workflow: warm workers import this module once; main() draws a new catalogue per call with numpy's PCG64
generator seeded by the scenario.
"""

import os

import astropy.units as u
import numpy as np
from astropy.io import fits
from astropy.table import QTable, join


def catalogue(scenario: dict) -> tuple[QTable, QTable]:
    rng = np.random.default_rng(int(scenario["seed"]))
    names, dists, rows = [], [], []
    sig = float(scenario["parallax_error_mas"])
    for j in range(int(scenario["n_clusters"])):
        d = rng.uniform(100.0, 1500.0)
        names.append(f"C{j + 1}")
        dists.append(d)
        for _ in range(int(scenario["members_per_cluster"])):
            plx = 1000.0 / d + rng.normal(0.0, sig)
            m_abs = rng.uniform(-1.0, 8.0)
            g = m_abs + 5.0 * np.log10(d / 10.0) + float(scenario["extinction_mag"])
            rows.append((f"C{j + 1}", plx, g))
    stars = QTable(rows=rows, names=["cluster", "parallax", "gmag"])
    stars["star_id"] = np.arange(1, len(stars) + 1, dtype=np.int32)
    stars["parallax"].unit, stars["gmag"].unit = u.mas, u.mag
    clusters = QTable({"cluster": names, "true_distance": np.array(dists) * u.pc})
    return stars, clusters


def main(scenario: dict) -> dict:
    stars, clusters = catalogue(scenario)
    sig = float(scenario["parallax_error_mas"]) * u.mas
    good = stars[stars["parallax"] / sig > float(scenario["min_parallax_snr"])]
    good["distance"] = good["parallax"].to(u.pc, equivalencies=u.parallax())
    ext = float(scenario["extinction_mag"]) * u.mag
    good["abs_gmag"] = good["gmag"] - 5.0 * np.log10(good["distance"] / (10.0 * u.pc)) * u.mag - ext
    good = good["star_id", "cluster", "parallax", "distance", "gmag", "abs_gmag"]
    by = good.group_by("cluster")
    if scenario["distance_method"] == "inverse_mean_parallax":
        agg = by["cluster", "parallax"].groups.aggregate(np.mean)
        agg["distance"] = agg["parallax"].to(u.pc, equivalencies=u.parallax())
        agg.remove_column("parallax")
    else:
        agg = by["cluster", "distance"].groups.aggregate(np.median)
    agg["n_members"] = np.diff(by.groups.indices).astype(np.int32)
    if len(agg):
        summary = join(clusters, agg, keys="cluster", join_type="left")
    else:  # no member anywhere: join refuses an empty table
        summary = clusters.copy()
        summary["distance"] = np.full(len(clusters), np.nan) * u.pc
        summary["n_members"] = np.zeros(len(clusters), dtype=np.int32)
    summary["distance"] = np.ma.filled(summary["distance"].to_value(u.pc), np.nan) * u.pc
    summary["n_members"] = np.ma.filled(np.asarray(summary["n_members"]), 0).astype(np.int32)
    summary["distance_error"] = summary["distance"] - summary["true_distance"]
    members = fits.table_to_hdu(good)
    members.name = "MEMBERS"
    members.header["SNRMIN"] = float(scenario["min_parallax_snr"])
    members.header["EXTMAG"] = float(scenario["extinction_mag"])
    summ = fits.table_to_hdu(summary)
    summ.name = "CLUSTERS"
    summ.header["DISTMETH"] = scenario["distance_method"]
    fits.HDUList([fits.PrimaryHDU(), members, summ]).writeto(os.path.join(os.environ["SWR_ARTIFACTS"], "clusters.fits"))
    d = summary["distance"]
    return {
        "catalogue": "clusters.fits",
        "n_stars": len(stars),
        "n_members_kept": len(good),
        "cluster_distances_pc": [None if np.isnan(v) else float(v) for v in d.to_value(u.pc)],
        "brightest_abs_gmag": float(good["abs_gmag"].min().to_value(u.mag)) if len(good) else None,
        "median_abs_gmag": float(np.median(good["abs_gmag"]).to_value(u.mag)) if len(good) else None,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
