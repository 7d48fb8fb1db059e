"""Spatial join of sampling stations to habitat patches through a shapely STRtree: containment counts,
overlapping patches, stations within a search radius and the nearest patch of every uncovered station.

Entry workflow: served by warm workers that import this module once; main() builds a new tree per call.
"""

import numpy as np
import shapely
from shapely import STRtree


def layout(scenario: dict):
    rng = np.random.default_rng(int(scenario["seed"]))
    size = float(scenario["extent"])
    n_p, n_s = int(scenario["n_patches"]), int(scenario["n_stations"])
    centres = rng.uniform(0.0, size, (n_p, 2))
    radii = rng.uniform(float(scenario["radius_min"]), float(scenario["radius_max"]), n_p)
    stations = rng.uniform(0.0, size, (n_s, 2))
    patches = shapely.buffer(shapely.points(centres), radii, quad_segs=int(scenario["quad_segs"]))
    return patches, shapely.points(stations)


def main(scenario: dict) -> dict:
    patches, stations = layout(scenario)
    tree = STRtree(patches)
    inside = tree.query(stations, predicate="within")  # [station, patch] with station within patch
    per_station = np.bincount(inside[0], minlength=len(stations))
    pairs = tree.query(patches, predicate="overlaps")
    n_overlaps = int(np.sum(pairs[0] < pairs[1]))
    near = tree.query(stations, predicate="dwithin", distance=float(scenario["search_radius"]))
    outside = np.flatnonzero(per_station == 0)
    nearest = []
    if outside.size:
        idx, dist = tree.query_nearest(stations[outside], return_distance=True)
        nearest = [[int(outside[i]), int(j), float(d)] for (i, j), d in zip(idx.T, dist)]
    return {
        "stations_covered": int(np.sum(per_station > 0)),
        "coverage_histogram": [int(np.sum(per_station == k)) for k in range(3)] + [int(np.sum(per_station >= 3))],
        "overlapping_patch_pairs": n_overlaps,
        "station_patch_pairs_within_radius": int(near.shape[1]),
        "nearest_patch_of_uncovered": nearest,
        "total_patch_area": float(np.sum(shapely.area(patches))),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
