"""2D triangular mesh of a rectangular plate with an off-centre elliptical hole, built with gmsh's
built-in (geo) kernel, meshed single-threaded; reports counts and element-quality statistics.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no
state survives between calls.
"""

import math

import gmsh
import numpy as np

ALGORITHMS = {"meshadapt": 1, "delaunay": 5, "frontal-delaunay": 6}
TRIANGLE = 2
LINE = 1


def stats(values):
    v = np.asarray(values, dtype=np.float64)
    return {"min": float(v.min()), "mean": float(v.mean()), "max": float(v.max())}


def build(w, h, cx, cy, a, b, ang, lc, lc_hole):
    geo = gmsh.model.geo
    corners = [geo.addPoint(x, y, 0.0, lc) for x, y in ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))]
    outer = [geo.addLine(corners[i], corners[(i + 1) % 4]) for i in range(4)]
    centre = geo.addPoint(cx, cy, 0.0, lc_hole)
    ca, sa = math.cos(ang), math.sin(ang)
    ends = [(a, 0.0), (0.0, b), (-a, 0.0), (0.0, -b)]
    hp = [geo.addPoint(cx + u * ca - v * sa, cy + u * sa + v * ca, 0.0, lc_hole) for u, v in ends]
    major = hp[0]
    arcs = [geo.addEllipseArc(hp[i], centre, major, hp[(i + 1) % 4]) for i in range(4)]
    loop_out = geo.addCurveLoop(outer)
    loop_in = geo.addCurveLoop(arcs)
    surf = geo.addPlaneSurface([loop_out, loop_in])
    geo.synchronize()
    gmsh.model.addPhysicalGroup(1, outer, 1)
    gmsh.model.addPhysicalGroup(1, arcs, 2)
    gmsh.model.addPhysicalGroup(2, [surf], 3)
    return surf, outer, arcs


def main(scenario: dict) -> dict:
    w = float(scenario["width"])
    h = float(scenario["height"])
    cx = float(scenario["hole_center_frac"][0]) * w
    cy = float(scenario["hole_center_frac"][1]) * h
    a = float(scenario["hole_semi_major_frac"]) * min(w, h) / 2.0
    b = float(scenario["hole_axis_ratio"]) * a
    ang = math.radians(float(scenario["hole_angle_deg"]))
    lc = float(scenario["mesh_size_frac"]) * min(w, h)
    lc_hole = float(scenario["hole_mesh_size_ratio"]) * lc
    algo = ALGORITHMS[str(scenario["algorithm"])]

    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setNumber("General.Verbosity", 0)
        gmsh.option.setNumber("General.NumThreads", 1)
        gmsh.option.setNumber("Mesh.MaxNumThreads2D", 1)
        gmsh.option.setNumber("Mesh.RandomSeed", 1)
        gmsh.option.setNumber("Mesh.Algorithm", algo)
        gmsh.model.add("plate")
        surf, outer, arcs = build(w, h, cx, cy, a, b, ang, lc, lc_hole)
        gmsh.model.mesh.generate(2)

        node_tags, _, _ = gmsh.model.mesh.getNodes()
        tri_tags, _ = gmsh.model.mesh.getElementsByType(TRIANGLE)
        line_tags, _ = gmsh.model.mesh.getElementsByType(LINE)
        hole_lines = sum(len(gmsh.model.mesh.getElements(1, c)[1][0]) for c in arcs)
        quality = {name: stats(gmsh.model.mesh.getElementQualities(tri_tags, name))
                   for name in ("minSICN", "gamma")}
        areas = gmsh.model.mesh.getElementQualities(tri_tags, "volume")
        edge_nodes, _ = gmsh.model.mesh.getNodesForPhysicalGroup(1, 2)
        return {
            "nodes": int(len(node_tags)),
            "triangles": int(len(tri_tags)),
            "boundary_segments": int(len(line_tags)),
            "hole_segments": int(hole_lines),
            "hole_nodes": int(len(edge_nodes)),
            "mesh_area": float(np.sum(areas)),
            "exact_area": float(w * h - math.pi * a * b),
            "element_area": stats(areas),
            "quality": quality,
        }
    finally:
        gmsh.finalize()


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
