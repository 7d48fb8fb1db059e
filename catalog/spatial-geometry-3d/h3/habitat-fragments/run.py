"""Fragmentation of a habitat patch mapped on H3 cells (Uber's H3 v4), as landscape ecology measures it: cells of a
disk removed at random, the patch's boundary found from directed edges (h3.origin_to_directed_edges,
h3.get_directed_edge_destination), its perimeter from edge lengths, its connected fragments by following edges, and
shape metrics (area, compactness, core cells).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import random

import h3


def main(s: dict) -> dict:
    res, k, unit = int(s["resolution"]), int(s["k"]), str(s["unit"])
    centre = h3.latlng_to_cell(float(s["lat"]), float(s["lng"]), res)
    rng = random.Random(int(s["seed"]))
    loss = float(s["loss_rate"])
    region = {c for c in sorted(h3.grid_disk(centre, k)) if c == centre or rng.random() >= loss}
    out_edges = {c: h3.origin_to_directed_edges(c) for c in sorted(region)}
    inner = {c: sorted(h3.get_directed_edge_destination(e) for e in es
                       if h3.get_directed_edge_destination(e) in region) for c, es in out_edges.items()}
    boundary = [e for c in sorted(region) for e in out_edges[c] if h3.get_directed_edge_destination(e) not in region]
    perimeter = sum(h3.edge_length(e, unit=unit) for e in boundary)
    area = sum(h3.cell_area(c, unit=f"{unit}^2") for c in region)
    seen, sizes = set(), []
    for c in sorted(region):
        if c in seen:
            continue
        stack, size = [c], 0
        seen.add(c)
        while stack:
            x = stack.pop()
            size += 1
            for y in inner[x]:
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        sizes.append(size)
    return {
        "centre": centre,
        "cells": len(region),
        "boundary_edges": len(boundary),
        "perimeter": perimeter,
        "area": area,
        "compactness": 4.0 * math.pi * area / perimeter**2,
        "core_cells": sum(1 for c in region if len(inner[c]) == len(out_edges[c])),
        "isolated_cells": sum(1 for c in region if not inner[c]),
        "fragments": len(sizes),
        "fragment_sizes": sorted(sizes, reverse=True),
        "first_boundary_edge_cells": list(h3.directed_edge_to_cells(boundary[0])) if boundary else None,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
