"""How much H3 cells vary in size over the globe (Uber's H3 v4, integer API h3.api.basic_int): every cell of a
resolution enumerated from the 122 base cells (get_res0_cells, uncompact_cells), their exact areas and edge lengths
(cell_area, origin_to_directed_edges, edge_length) summarised globally and by latitude band of the cell centres.

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

from h3.api import basic_int as h3


def main(s: dict) -> dict:
    res, band, unit = int(s["resolution"]), int(s["band_deg"]), str(s["unit"])
    cells = h3.uncompact_cells(h3.get_res0_cells(), res)
    pentagons = [c for c in cells if h3.is_pentagon(c)]
    if s["cells"] == "hexagons":
        cells = [c for c in cells if not h3.is_pentagon(c)]
    areas = [h3.cell_area(c, unit=f"{unit}^2") for c in cells]
    edges = [h3.edge_length(e, unit=unit) for c in cells for e in h3.origin_to_directed_edges(c)]
    bands: dict[int, list[float]] = {}
    for c, a in zip(cells, areas):
        lat = h3.cell_to_latlng(c)[0]
        bands.setdefault(min(int((lat + 90.0) // band), 180 // band - 1), []).append(a)
    return {
        "n_cells": len(cells),
        "n_pentagons": len(pentagons),
        "total_area": sum(areas),
        "area_min": min(areas),
        "area_max": max(areas),
        "area_mean": sum(areas) / len(areas),
        "area_ratio": max(areas) / min(areas),
        "edge_min": min(edges),
        "edge_max": max(edges),
        "edge_mean": sum(edges) / len(edges),
        "bands": [{"lat_min": -90 + b * band, "lat_max": -90 + (b + 1) * band, "cells": len(v),
                   "mean_area": sum(v) / len(v)}
                  for b, v in sorted(bands.items())],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
