"""A helical coil (a compression spring or a heat-exchanger tube) by sweeping a wire cross-section along a helix with
trimesh.creation.sweep_polygon: the section (a shapely polygon: round, square or a tube's annulus) is carried along
the helix polyline, optionally twisted step by step, and capped at both ends by triangulating the section
(trimesh.creation.triangulate_polygon through manifold3d). The coil is written as a binary STL with its mass and the
wire's centre-line length.

Entry workflow: main() builds new meshes per call and never mutates module state. The STL goes to $SWR_ARTIFACTS.
"""

import math
import os

import numpy as np
import trimesh
from shapely.geometry import Point, box


def section(kind, size, sides):
    """The wire cross-section in its own plane, centred at the origin."""
    if kind == "square":
        return box(-size, -size, size, size)
    circle = Point(0.0, 0.0).buffer(size, quad_segs=sides // 4)
    if kind == "tube":
        return circle.difference(Point(0.0, 0.0).buffer(0.5 * size, quad_segs=sides // 4))
    return circle


def main(s: dict) -> dict:
    radius, size = float(s["coil_radius"]), float(s["wire_size"])
    pitch = float(s["pitch_factor"]) * 2.0 * size
    turns, per_turn = float(s["turns"]), int(s["points_per_turn"])
    n = int(math.ceil(turns * per_turn)) + 1
    theta = np.linspace(0.0, 2.0 * math.pi * turns, n)
    path = np.column_stack([radius * np.cos(theta), radius * np.sin(theta), pitch * theta / (2.0 * math.pi)])
    angles = np.full(n, math.radians(float(s["twist_deg"])) / (n - 1))
    angles[0] = 0.0
    poly = section(str(s["section"]), size, int(s["section_sides"]))
    coil = trimesh.creation.sweep_polygon(poly, path, angles=angles, cap=True, engine="manifold")
    name = "coil.stl"
    coil.export(os.path.join(os.environ["SWR_ARTIFACTS"], name), file_type="stl")
    return {
        "mesh": name,
        "mass_g": float(coil.volume * float(s["density_g_cm3"]) / 1000.0),
        "centreline_length": float(np.linalg.norm(np.diff(path, axis=0), axis=1).sum()),
        "path_points": n,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
