"""Finite-element quadrature on curved elements with gmsh: an annular sector (OpenCASCADE disk minus a disk, cut to
an angle) is meshed with triangles of order 1 or 2 (high-order nodes snapped to the circles), and its area, first
and second moments are integrated with gmsh's Gauss rules and Jacobians (getIntegrationPoints, getJacobians,
getBasisFunctions), then compared with the exact values of the geometry, as one checks the geometric error of
isoparametric elements.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no state survives
between calls.
"""

import math

import gmsh
import numpy as np


def setup(size):
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.option.setNumber("General.Verbosity", 0)
    gmsh.option.setNumber("General.NumThreads", 1)
    gmsh.option.setNumber("Mesh.MaxNumThreads2D", 1)
    gmsh.option.setNumber("Geometry.OCCParallel", 0)
    gmsh.option.setNumber("Mesh.RandomSeed", 1)
    gmsh.option.setNumber("Mesh.MeshSizeMin", size)
    gmsh.option.setNumber("Mesh.MeshSizeMax", size)


def integrals(order, rule):
    """Integrals of 1, x, y, x^2 + y^2 over the mesh with the elements' own geometry."""
    etype = gmsh.model.mesh.getElementType("Triangle", order)
    pts, w = gmsh.model.mesh.getIntegrationPoints(etype, rule)
    _, det, xyz = gmsh.model.mesh.getJacobians(etype, pts)
    w = np.asarray(w, dtype=np.float64)
    det = np.asarray(det, dtype=np.float64).reshape(-1, len(w))
    xyz = np.asarray(xyz, dtype=np.float64).reshape(-1, len(w), 3)
    wd = det * w
    x, y = xyz[..., 0], xyz[..., 1]
    return {"area": float(wd.sum()), "x": float((wd * x).sum()), "y": float((wd * y).sum()),
            "r2": float((wd * (x * x + y * y)).sum()), "elements": int(det.shape[0])}


def main(scenario: dict) -> dict:
    r_out = float(scenario["outer_radius"])
    r_in = float(scenario["inner_ratio"]) * r_out
    angle = math.radians(float(scenario["sector_deg"]))
    order = int(scenario["order"])
    size = float(scenario["mesh_size_frac"]) * (r_out - r_in)
    rule = f"Gauss{int(scenario['gauss_degree'])}"
    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        setup(size)
        gmsh.model.add("sector")
        occ = gmsh.model.occ
        outer = occ.addDisk(0.0, 0.0, 0.0, r_out, r_out)
        inner = occ.addDisk(0.0, 0.0, 0.0, r_in, r_in)
        ring, _ = occ.cut([(2, outer)], [(2, inner)])
        # keep the part between polar angles 0 and `angle`: intersect with a wedge polygon reaching beyond r_out
        big = 3.0 * r_out
        pts = [occ.addPoint(0.0, 0.0, 0.0)]
        pts += [occ.addPoint(big * math.cos(angle * k / 16), big * math.sin(angle * k / 16), 0.0) for k in range(17)]
        loop = occ.addCurveLoop([occ.addLine(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))])
        occ.intersect(ring, [(2, occ.addPlaneSurface([loop]))])
        occ.synchronize()
        gmsh.model.mesh.generate(2)
        gmsh.model.mesh.setOrder(order)
        got = integrals(order, rule)
    finally:
        gmsh.finalize()
    area = 0.5 * angle * (r_out**2 - r_in**2)
    cx = (r_out**3 - r_in**3) / 3.0 * math.sin(angle)
    cy = (r_out**3 - r_in**3) / 3.0 * (1.0 - math.cos(angle))
    polar = angle * (r_out**4 - r_in**4) / 4.0
    return {
        "elements": got["elements"],
        "area": got["area"],
        "centroid": [got["x"] / got["area"], got["y"] / got["area"]],
        "polar_moment": got["r2"],
        "area_rel_error": (got["area"] - area) / area,
        "polar_moment_rel_error": (got["r2"] - polar) / polar,
        "exact_centroid": [cx / area, cy / area],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
