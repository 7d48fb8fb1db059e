"""Generalise a cadastral parcel map without opening gaps: shapely's polygonal-coverage tools
(coverage_is_valid, coverage_simplify, coverage_union_all) on a tiling whose parcels share wiggly edges, and
prepared point-in-polygon sampling (prepare + contains_xy) to count survey points per parcel.

Entry workflow: warm workers import this module once; main() builds new parcels per call with numpy's PCG64
generator seeded by the scenario. Shared edges are built once and used by both neighbours, so the tiling is an
exact coverage (no slivers) before simplification.
"""

import numpy as np
import shapely

N_SAMPLES = 400


def edge(rng, a, b, m: int, amp: float) -> np.ndarray:
    """Polyline from a to b with m interior points offset along the normal by amp rng.uniform(-1, 1)."""
    t = np.arange(1, m + 1) / (m + 1)
    d = b - a
    normal = np.array([-d[1], d[0]]) / np.hypot(*d)
    off = amp * rng.uniform(-1.0, 1.0, m)
    return np.vstack([a, a + t[:, None] * d + off[:, None] * normal, b])


def parcels(scenario: dict, rng) -> list:
    nx_, ny_, c = int(scenario["nx"]), int(scenario["ny"]), float(scenario["cell_size_m"])
    jit, m = float(scenario["jitter_fraction"]) * c, int(scenario["points_per_edge"])
    amp = float(scenario["wiggle_fraction"]) * c
    v = np.zeros((nx_ + 1, ny_ + 1, 2))
    for i in range(nx_ + 1):
        for j in range(ny_ + 1):
            inner = 0 < i < nx_ and 0 < j < ny_
            v[i, j] = np.array([i * c, j * c]) + (rng.uniform(-jit, jit, 2) if inner else 0.0)
    h = {(i, j): edge(rng, v[i, j], v[i + 1, j], m, amp) for j in range(ny_ + 1) for i in range(nx_)}
    w = {(i, j): edge(rng, v[i, j], v[i, j + 1], m, amp) for i in range(nx_ + 1) for j in range(ny_)}
    out = []
    for j in range(ny_):
        for i in range(nx_):
            ring = np.vstack([h[i, j][:-1], w[i + 1, j][:-1], h[i, j + 1][::-1][:-1], w[i, j][::-1]])
            out.append(shapely.Polygon(ring))
    return out


def main(scenario: dict) -> dict:
    rng = np.random.default_rng(int(scenario["seed"]))
    geoms = np.array(parcels(scenario, rng), dtype=object)
    c = float(scenario["cell_size_m"])
    simple = shapely.coverage_simplify(
        geoms, float(scenario["tolerance_fraction"]) * c, simplify_boundary=bool(scenario["simplify_boundary"])
    )
    pts = rng.uniform(0.0, 1.0, (N_SAMPLES, 2)) * [int(scenario["nx"]) * c, int(scenario["ny"]) * c]
    shapely.prepare(simple)
    counts = [int(shapely.contains_xy(g, pts[:, 0], pts[:, 1]).sum()) for g in simple]
    before, after = shapely.area(geoms), shapely.area(simple)
    union = shapely.coverage_union_all(simple)
    return {
        "n_parcels": len(geoms),
        "input_valid_coverage": bool(shapely.coverage_is_valid(geoms)),
        "output_valid_coverage": bool(shapely.coverage_is_valid(simple)),
        "vertices_before": int(shapely.get_num_coordinates(geoms).sum()),
        "vertices_after": int(shapely.get_num_coordinates(simple).sum()),
        "max_area_change_m2": float(np.max(np.abs(after - before))),
        "union_area_m2": float(union.area),
        "union_perimeter_m": float(union.length),
        "points_per_parcel": counts,
        "points_outside": N_SAMPLES - sum(counts),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
