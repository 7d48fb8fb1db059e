"""Coverage of a field by directional sensors (radar or camera sectors) with shapely's vectorized API:
sectors built with shapely.polygons from coordinate arrays, pairwise shapely.intersects by broadcasting,
union_all for 1-coverage and for 2-coverage (union of pairwise intersections), and shapely.dwithin /
shapely.contains_xy detection counts of targets.

Entry workflow: warm workers import this module once; main() builds new geometries per call with numpy's PCG64
generator seeded by the scenario.
"""

import numpy as np
import shapely


def sectors(rng, scenario: dict) -> tuple[np.ndarray, np.ndarray]:
    n, f = int(scenario["n_sensors"]), float(scenario["field_size_m"])
    r, width = float(scenario["range_m"]), np.radians(float(scenario["beam_width_deg"]))
    m = int(scenario["arc_segments"])
    xy = rng.uniform(0.0, f, (n, 2))
    heading = rng.uniform(0.0, 2 * np.pi, n)
    ang = heading[:, None] + width * (np.arange(m + 1) / m - 0.5)[None, :]
    arc = xy[:, None, :] + r * np.stack([np.cos(ang), np.sin(ang)], axis=-1)
    rings = np.concatenate([xy[:, None, :], arc, xy[:, None, :]], axis=1)
    return shapely.polygons(rings), xy


def main(scenario: dict) -> dict:
    rng = np.random.default_rng(int(scenario["seed"]))
    geoms, xy = sectors(rng, scenario)
    f = float(scenario["field_size_m"])
    field = shapely.box(0.0, 0.0, f, f)
    hit = shapely.intersects(geoms[:, None], geoms[None, :])
    iu = np.triu_indices(len(geoms), 1)
    pairs = shapely.intersection(geoms[iu[0]], geoms[iu[1]])
    cover1 = shapely.intersection(shapely.union_all(geoms), field)
    cover2 = shapely.intersection(shapely.union_all(pairs), field) if pairs.size else shapely.Polygon()
    targets = rng.uniform(0.0, f, (int(scenario["n_targets"]), 2))
    inside = np.array([shapely.contains_xy(g, targets[:, 0], targets[:, 1]) for g in geoms])
    near = shapely.dwithin(shapely.points(xy)[:, None], shapely.points(targets)[None, :], float(scenario["range_m"]))
    return {
        "overlapping_pairs": int(hit[iu].sum()),
        "coverage_fraction": cover1.area / field.area,
        "double_coverage_fraction": cover2.area / field.area,
        "covered_boundary_m": float(cover1.length),
        "targets_detected": int(inside.any(axis=0).sum()),
        "targets_in_range": int(near.any(axis=0).sum()),
        "detections_per_sensor": [int(v) for v in inside.sum(axis=1)],
        "sector_area_m2": float(shapely.area(geoms[0])),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
