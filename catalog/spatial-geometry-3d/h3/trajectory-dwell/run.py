"""A GPS trajectory snapped to H3 cells (Uber's H3 v4), as mobility studies do it: fixes from a seeded correlated random
walk binned to cells (h3.latlng_to_cell), consecutive fixes in one cell merged into visits with dwell times, jumps
between non-adjacent cells (h3.are_neighbor_cells, h3.grid_distance) filled by h3.grid_path_cells, and the distance
travelled (h3.great_circle_distance between fixes).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import random
import tomllib
from pathlib import Path

import h3

CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
EARTH_RADIUS_KM = CONSTANTS["EARTH_RADIUS_KM"]


def fixes(s: dict) -> list[tuple[float, float]]:
    """Correlated random walk: heading += gauss(0, turn_sd_deg) per step, step = speed * interval *
    (0.5 + rng.random())."""
    rng = random.Random(int(s["seed"]))
    lat, lng = float(s["lat"]), float(s["lng"])
    heading = rng.uniform(0.0, 360.0)
    step_km = float(s["speed_kmh"]) * float(s["interval_s"]) / 3600.0
    out = [(lat, lng)]
    for _ in range(int(s["n_fixes"]) - 1):
        heading += rng.gauss(0.0, float(s["turn_sd_deg"]))
        d = step_km * (0.5 + rng.random())
        east, north = d * math.sin(math.radians(heading)), d * math.cos(math.radians(heading))
        lat += math.degrees(north / EARTH_RADIUS_KM)
        lng += math.degrees(east / (EARTH_RADIUS_KM * math.cos(math.radians(lat))))
        out.append((lat, lng))
    return out


def main(s: dict) -> dict:
    res, dt = int(s["resolution"]), float(s["interval_s"])
    pts = fixes(s)
    cells = [h3.latlng_to_cell(a, b, res) for a, b in pts]
    visits: list[list] = []
    for i, c in enumerate(cells):
        if visits and visits[-1][0] == c:
            visits[-1][2] += dt
        else:
            visits.append([c, i * dt, 0.0])
    filled, jumps, unreachable = 0, 0, 0
    for (a, _, _), (b, _, _) in zip(visits, visits[1:]):
        if not h3.are_neighbor_cells(a, b):
            jumps += 1
            try:
                filled += len(h3.grid_path_cells(a, b)) - 2
            except h3.H3BaseException:
                unreachable += 1
    longest = max(visits, key=lambda v: (v[2], v[0]))
    return {
        "visits": len(visits),
        "unique_cells": len(set(cells)),
        "jumps": jumps,
        "filled_cells": filled,
        "unfillable_jumps": unreachable,
        "max_grid_jump": max((h3.grid_distance(a[0], b[0]) for a, b in zip(visits, visits[1:])), default=0),
        "longest_dwell_cell": longest[0],
        "longest_dwell_s": longest[2],
        "distance_km": sum(h3.great_circle_distance(p, q, unit="km") for p, q in zip(pts, pts[1:])),
        "first_visits": [[c, t0, d] for c, t0, d in visits[:10]],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
