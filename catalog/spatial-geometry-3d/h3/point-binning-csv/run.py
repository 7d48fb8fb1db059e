"""Binning scattered point observations into H3 cells (Uber's H3 v4) and rolling the bins up the hierarchy: per
occupied cell its count and mean value, its ancestor and its position among the ancestor's children, written as a
CSV table; the occupied set compacted to mixed resolutions.

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import csv
import math
import os
import random
import tomllib
from pathlib import Path

import h3

CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
EARTH_RADIUS_KM = CONSTANTS["EARTH_RADIUS_KM"]


def points(s: dict) -> list[tuple[float, float, float]]:
    """(lat, lng, value) of the observations: Gaussian east/north offsets in km around the centre, mapped to
    degrees on the local tangent plane, each with a uniform value."""
    rng = random.Random(int(s["seed"]))
    lat0, lng0, sigma = float(s["lat"]), float(s["lng"]), float(s["spread_km"])
    out = []
    for _ in range(int(s["n_points"])):
        east, north = rng.gauss(0.0, sigma), rng.gauss(0.0, sigma)
        value = rng.uniform(0.0, 100.0)
        lat = lat0 + math.degrees(north / EARTH_RADIUS_KM)
        lng = lng0 + math.degrees(east / (EARTH_RADIUS_KM * math.cos(math.radians(lat0))))
        out.append((lat, lng, value))
    return out


def main(s: dict) -> dict:
    res, up = int(s["resolution"]), int(s["rollup_levels"])
    bins: dict[str, list[float]] = {}
    for lat, lng, value in points(s):
        bins.setdefault(h3.latlng_to_cell(lat, lng, res), []).append(value)
    cells = sorted(bins)
    parents: dict[str, int] = {}
    rows = []
    for c in cells:
        parent = h3.cell_to_parent(c, res - up)
        parents[parent] = parents.get(parent, 0) + len(bins[c])
        clat, clng = h3.cell_to_latlng(c)
        rows.append([c, len(bins[c]), repr(sum(bins[c]) / len(bins[c])), parent, h3.cell_to_child_pos(c, res - up),
                     repr(clat), repr(clng)])
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "bins.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["cell", "count", "mean_value", "parent", "child_pos", "center_lat", "center_lng"])
        w.writerows(rows)
    compact = sorted(h3.compact_cells(cells))
    busiest = max(parents, key=lambda p: (parents[p], p))
    return {
        "table": "bins.csv",
        "occupied_cells": len(cells),
        "parent_cells": len(parents),
        "busiest_parent": busiest,
        "busiest_parent_count": parents[busiest],
        "busiest_parent_children": h3.cell_to_children_size(busiest, res),
        "busiest_parent_center_child": h3.cell_to_center_child(busiest, res),
        "compacted": compact,
        "compacted_resolutions": [h3.get_resolution(c) for c in compact],
        "uncompacted_cells": len(h3.uncompact_cells(compact, res)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
