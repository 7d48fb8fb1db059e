"""Outline and shape descriptors of a point colony with shapely (GEOS): concave hull, minimum bounding
circle, maximum inscribed circle (pole of inaccessibility), minimum clearance and minimum width.

Entry workflow: served by warm workers that import this module once; main() builds new geometries per call.
"""

import math

import numpy as np
import shapely

MIC_TOLERANCE = 1e-7  # maximum_inscribed_circle tolerance, as a fraction of the colony radius


def colony(scenario: dict) -> np.ndarray:
    rng = np.random.default_rng(int(scenario["seed"]))
    n = int(scenario["n_points"])
    radius = float(scenario["radius"])
    theta = rng.uniform(0.0, 2.0 * math.pi, n)
    u = rng.uniform(0.0, 1.0, n)
    h2 = float(scenario["hole_fraction"]) ** 2
    lobe = 1.0 + float(scenario["lobe_amplitude"]) * np.cos(int(scenario["lobes"]) * theta)
    r = radius * lobe * np.sqrt(h2 + (1.0 - h2) * u)
    return np.column_stack([r * np.cos(theta), r * np.sin(theta)])


def main(scenario: dict) -> dict:
    pts = shapely.MultiPoint(colony(scenario))
    radius = float(scenario["radius"])
    hull = shapely.concave_hull(pts, ratio=float(scenario["concave_ratio"]), allow_holes=True)
    convex = shapely.convex_hull(pts)
    mbc_r = float(shapely.minimum_bounding_radius(hull))
    mbc_c = shapely.centroid(shapely.minimum_bounding_circle(hull))  # the circle polygon's centre
    mic = shapely.maximum_inscribed_circle(hull, tolerance=MIC_TOLERANCE * radius)
    area, perim = float(hull.area), float(hull.length)
    return {
        "hull_vertices": int(shapely.get_num_coordinates(hull.exterior)) - 1,
        "hull_holes": int(shapely.get_num_interior_rings(hull)),
        "hull_area": area,
        "hull_perimeter": perim,
        "compactness": 4.0 * math.pi * area / perim**2,
        "solidity": area / float(convex.area),
        "bounding_circle_radius": mbc_r,
        "bounding_circle_centre": [float(mbc_c.x), float(mbc_c.y)],
        "inscribed_circle_radius": float(mic.length),
        "minimum_clearance": float(shapely.minimum_clearance(hull)),
        "minimum_width": float(shapely.minimum_width(hull).length),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
