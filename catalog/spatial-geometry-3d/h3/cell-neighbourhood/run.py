"""Hexagonal-grid indexing of a point with Uber's H3: the cell that holds it, its centre, boundary and area,
its parent, the k-ring neighbourhood around it, and the grid distance to a second point.

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import tomllib
from pathlib import Path

import h3


# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

EARTH_RADIUS_KM = CONSTANTS["EARTH_RADIUS_KM"]  # IUGG mean Earth radius, for the offset (H3's own areas and
# distances use its own sphere, [constants] H3_EARTH_RADIUS_KM)


def offset_point(lat: float, lng: float, distance_km: float, bearing_deg: float) -> tuple[float, float]:
    """The point distance_km away along a great circle at the given initial bearing (spherical Earth)."""
    p1, l1, d, b = math.radians(lat), math.radians(lng), distance_km / EARTH_RADIUS_KM, math.radians(bearing_deg)
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    return math.degrees(p2), (math.degrees(l2) + 540.0) % 360.0 - 180.0


def grid_distance(a: str, b: str) -> int:
    """H3 grid distance, or -1 where H3 cannot unfold the grid between the cells (across a pentagon)."""
    try:
        return int(h3.grid_distance(a, b))
    except h3.H3BaseException:
        return -1


def main(s: dict) -> dict:
    lat, lng, res, k = float(s["lat"]), float(s["lng"]), int(s["resolution"]), int(s["k"])
    cell = h3.latlng_to_cell(lat, lng, res)
    clat, clng = h3.cell_to_latlng(cell)
    disk = sorted(h3.grid_disk(cell, k))
    edge = h3.average_hexagon_edge_length(res, unit="km")
    blat, blng = offset_point(lat, lng, float(s["offset_edges"]) * edge, float(s["bearing_deg"]))
    other = h3.latlng_to_cell(blat, blng, res)
    return {
        "cell": cell,
        "base_cell": h3.get_base_cell_number(cell),
        "center": [clat, clng],
        "boundary": [[a, b] for a, b in h3.cell_to_boundary(cell)],
        "area_km2": h3.cell_area(cell, unit="km^2"),
        "center_distance_km": h3.great_circle_distance((lat, lng), (clat, clng), unit="km"),
        "parent": h3.cell_to_parent(cell, res - 1),
        "disk": disk,
        "ring_size": len(h3.grid_ring(cell, k)),
        "disk_area_km2": sum(h3.cell_area(c, unit="km^2") for c in disk),
        "other_point": [blat, blng],
        "other_cell": other,
        "grid_distance": grid_distance(cell, other),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
