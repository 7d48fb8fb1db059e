"""Anatomy of an H3 index and local IJ coordinates (Uber's H3 v4): a cell's 64-bit integer, base cell and per-
resolution digits (h3.deconstruct_cell, h3.get_index_digit), a sibling rebuilt from edited digits (h3.construct_cell),
and a straight walk in the origin-anchored IJ coordinate system (h3.cell_to_local_ij, h3.local_ij_to_cell).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import h3

AXES = {"+i": (1, 0), "-i": (-1, 0), "+j": (0, 1), "-j": (0, -1), "+i+j": (1, 1), "-i-j": (-1, -1)}


def safe(fn, *args):
    """H3's answer, or None where H3 raises (pentagon distortion, a deleted digit)."""
    try:
        return fn(*args)
    except h3.H3BaseException:
        return None


def main(s: dict) -> dict:
    res = int(s["resolution"])
    origin = h3.latlng_to_cell(float(s["lat"]), float(s["lng"]), res)
    parts = h3.deconstruct_cell(origin)
    digits = [h3.get_index_digit(origin, r) for r in range(1, res + 1)]
    edited = [*digits[:-1], (digits[-1] + int(s["sibling_shift"])) % 7]
    sibling = safe(h3.construct_cell, parts[0], *edited)
    i0, j0 = h3.cell_to_local_ij(origin, origin)
    di, dj = AXES[str(s["axis"])]
    walk = []
    for k in range(1, int(s["n_steps"]) + 1):
        cell = safe(h3.local_ij_to_cell, origin, i0 + k * di, j0 + k * dj)
        walk.append({
            "step": k,
            "cell": cell,
            "grid_distance": safe(h3.grid_distance, origin, cell) if cell else None,
            "neighbor": h3.are_neighbor_cells(origin, cell) if cell else None,
        })
    return {
        "origin": origin,
        "origin_int": str(h3.str_to_int(origin)),
        "base_cell": parts[0],
        "digits": digits,
        "sibling": sibling,
        "sibling_distance": safe(h3.grid_distance, origin, sibling) if sibling else None,
        "origin_ij": [i0, j0],
        "walk": walk,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
