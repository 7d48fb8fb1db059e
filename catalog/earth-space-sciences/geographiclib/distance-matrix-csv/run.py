"""Geodesic distance matrix and minimum spanning tree of a station network with geographiclib (Geodesic(a, f) for
the Earth or a planet's figure; Inverse with DISTANCE | AZIMUTH only), the matrix written as CSV.

Entry workflow: main() draws its stations from the scenario's seed and writes one CSV to $SWR_ARTIFACTS.
"""

import csv
import os
import tomllib
from pathlib import Path

import numpy as np
from geographiclib.geodesic import Geodesic

# The figures' constants the instruction states, read from workflow.toml's [constants] (one source for both).
C = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
FIGURES = {
    "earth": (C["A_EARTH"], 1.0 / C["INV_F_EARTH"]),
    "mars": (C["A_MARS"], (C["A_MARS"] - C["B_MARS"]) / C["A_MARS"]),
    "moon": (C["A_MOON"], 0.0),
    "venus": (C["A_VENUS"], 0.0),
}


def _stations(s: dict) -> list[tuple[float, float]]:
    rng = np.random.default_rng(int(s["seed"]))
    n, spread = int(s["n_stations"]), float(s["spread_deg"])
    dlat = rng.uniform(-spread, spread, n)
    dlon = rng.uniform(-spread, spread, n)
    lat = np.clip(float(s["lat_c_deg"]) + dlat, -89.0, 89.0)
    return [(float(lat[k]), float(s["lon_c_deg"]) + float(dlon[k])) for k in range(n)]


def _prim(dist: np.ndarray) -> list[tuple[int, int]]:
    """Prim's algorithm from station 0: each step the shortest edge from the tree to a station outside it."""
    inside, edges = [0], []
    while len(inside) < len(dist):
        out = [j for j in range(len(dist)) if j not in inside]
        i, j = min(((i, j) for i in inside for j in out), key=lambda e: dist[e])
        edges.append((i, j))
        inside.append(j)
    return edges


def main(s: dict) -> dict:
    g = Geodesic(*FIGURES[str(s["body"])])
    pts = _stations(s)
    n = len(pts)
    names = [f"S{k + 1:02d}" for k in range(n)]
    dist, azi = np.zeros((n, n)), np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:
                r = g.Inverse(*pts[i], *pts[j], Geodesic.DISTANCE | Geodesic.AZIMUTH)
                dist[i, j], azi[i, j] = r["s12"], r["azi1"]
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "distances.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["station", *names])
        w.writerows([names[i], *(repr(float(v)) for v in dist[i])] for i in range(n))
    stations = []
    for i in range(n):
        j = min((j for j in range(n) if j != i), key=lambda j: dist[i, j])
        stations.append({"name": names[i], "lat_deg": pts[i][0], "lon_deg": pts[i][1], "nearest": names[j],
                         "nearest_m": float(dist[i, j]), "nearest_azi_deg": float(azi[i, j])})
    fi, fj = max(((i, j) for i in range(n) for j in range(i + 1, n)), key=lambda e: dist[e])
    edges = _prim(dist)
    return {
        "matrix": "distances.csv",
        "stations": stations,
        "farthest_pair": [names[fi], names[fj]],
        "farthest_m": float(dist[fi, fj]),
        "mst_edges": [[names[i], names[j]] for i, j in edges],
        "mst_length_m": float(sum(dist[e] for e in edges)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
