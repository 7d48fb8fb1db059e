"""Grid distortion around one of H3's twelve pentagons (Uber's H3 v4): the pentagon's base cell, icosahedron faces and
vertices (h3.cell_to_vertexes, h3.vertex_to_latlng), and ring by ring (h3.grid_ring) the number of cells and how
their exact areas compare with the resolution's average hexagon area.

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import h3


def main(s: dict) -> dict:
    res, k, unit = int(s["resolution"]), int(s["k"]), str(s["area_unit"])
    pentagon = sorted(h3.get_pentagons(res))[int(s["pentagon_index"])]
    mean_hex = h3.average_hexagon_area(res, unit=unit)
    rings, faces = [], set(h3.get_icosahedron_faces(pentagon))
    for d in range(1, k + 1):
        ring = sorted(h3.grid_ring(pentagon, d))
        areas = [h3.cell_area(c, unit=unit) for c in ring]
        for c in ring:
            faces.update(h3.get_icosahedron_faces(c))
        rings.append({
            "distance": d,
            "cells": len(ring),
            "mean_area": sum(areas) / len(areas),
            "min_area_ratio": min(areas) / mean_hex,
            "max_area_ratio": max(areas) / mean_hex,
            "pentagons": sum(1 for c in ring if h3.is_pentagon(c)),
        })
    vertexes = h3.cell_to_vertexes(pentagon)
    return {
        "pentagon": pentagon,
        "base_cell": h3.get_base_cell_number(pentagon),
        "class_iii": h3.is_res_class_III(pentagon),
        "faces": sorted(h3.get_icosahedron_faces(pentagon)),
        "faces_touched": sorted(faces),
        "vertexes": vertexes,
        "vertex_latlng": [list(h3.vertex_to_latlng(v)) for v in vertexes],
        "area": h3.cell_area(pentagon, unit=unit),
        "area_ratio": h3.cell_area(pentagon, unit=unit) / mean_hex,
        "mean_hexagon_area": mean_hex,
        "rings": rings,
        "cells_at_resolution": h3.get_num_cells(res),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
