"""Voronoi tessellation and Delaunay triangulation of seeded random sites with shapely (GEOS): the
cells clipped to a study area, the cell holding a probe point, and the triangulation's measures.

Entry workflow: served by warm workers that import this module once; main() builds new geometries per call.
"""

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Point, box


def sites(scenario: dict) -> np.ndarray:
    rng = np.random.default_rng(int(scenario["seed"]))
    n = int(scenario["n_sites"])
    return np.column_stack(
        [rng.uniform(0.0, float(scenario["width"]), n), rng.uniform(0.0, float(scenario["height"]), n)]
    )


def main(scenario: dict) -> dict:
    pts = sites(scenario)
    w, h, m = float(scenario["width"]), float(scenario["height"]), float(scenario["margin"])
    area = box(-m, -m, w + m, h + m)
    mp = MultiPoint(pts)
    cells = [
        shapely.clip_by_rect(c, -m, -m, w + m, h + m)
        for c in shapely.get_parts(shapely.voronoi_polygons(mp, extend_to=area))
    ]
    probe = Point(float(scenario["probe_x_frac"]) * w, float(scenario["probe_y_frac"]) * h)
    holder = [c for c in cells if c.covers(probe)]
    site_of_probe = int(np.argmin(np.hypot(pts[:, 0] - probe.x, pts[:, 1] - probe.y)))
    tris = list(shapely.get_parts(shapely.delaunay_triangles(mp)))
    edges = shapely.delaunay_triangles(mp, only_edges=True)
    tri_areas = sorted(float(t.area) for t in tris)
    return {
        "cell_areas_desc": sorted((float(c.area) for c in cells), reverse=True),
        "probe_cell": {
            "site": site_of_probe,
            "cell_area": float(holder[0].area) if holder else 0.0,
            "neighbours": int(sum(1 for c in cells if c.touches(holder[0]))) if holder else 0,
        },
        "delaunay": {
            "triangles": len(tris),
            "edges": int(shapely.get_num_geometries(edges)),
            "edge_length": float(edges.length),
            "hull_area": float(sum(tri_areas)),
            "min_triangle_area": tri_areas[0],
            "max_triangle_area": tri_areas[-1],
        },
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
