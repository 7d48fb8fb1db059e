"""Local refinement with gmsh mesh-size fields, as around a crack tip in a fracture-mechanics plate: a Distance field
from the tip point feeds a Threshold field (fine within dist_min, coarse beyond dist_max), optionally combined by a
Min field with a Box field that refines a band along the crack's path; the plate is meshed with triangles (only the
fields set the size) and the element sizes near and far from the tip are measured.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no state survives
between calls. The triangulation goes to $SWR_ARTIFACTS as a binary STL, read on every call.
"""

import os

import gmsh
import numpy as np

TRIANGLE = 2


def setup():
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.option.setNumber("General.Verbosity", 0)
    gmsh.option.setNumber("General.NumThreads", 1)
    gmsh.option.setNumber("Mesh.MaxNumThreads2D", 1)
    gmsh.option.setNumber("Mesh.RandomSeed", 1)
    gmsh.option.setNumber("Mesh.Algorithm", 6)  # Frontal-Delaunay
    gmsh.option.setNumber("Mesh.MeshSizeExtendFromBoundary", 0)
    gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
    gmsh.option.setNumber("Mesh.Binary", 1)


def fields(tip, size_min, size_max, d_min, d_max, band):
    f = gmsh.model.mesh.field
    dist = f.add("Distance")
    f.setNumbers(dist, "PointsList", [tip])
    thr = f.add("Threshold")
    f.setNumber(thr, "InField", dist)
    f.setNumber(thr, "SizeMin", size_min)
    f.setNumber(thr, "SizeMax", size_max)
    f.setNumber(thr, "DistMin", d_min)
    f.setNumber(thr, "DistMax", d_max)
    use = thr
    if band is not None:
        box = f.add("Box")
        for key, val in zip(("XMin", "XMax", "YMin", "YMax"), band):
            f.setNumber(box, key, val)
        f.setNumber(box, "VIn", 3.0 * size_min)
        f.setNumber(box, "VOut", size_max)
        use = f.add("Min")
        f.setNumbers(use, "FieldsList", [thr, box])
    f.setAsBackgroundMesh(use)


def main(scenario: dict) -> dict:
    w, h = (float(v) for v in scenario["plate_size"])
    a = float(scenario["crack_frac"]) * w
    size_max = float(scenario["size_max_frac"]) * min(w, h)
    size_min = float(scenario["refine_ratio"]) * size_max
    d_min = float(scenario["dist_min_sizes"]) * size_min
    d_max = 4.0 * d_min
    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        setup()
        gmsh.model.add("plate")
        occ = gmsh.model.occ
        surf = occ.addRectangle(0.0, -h / 2.0, 0.0, w, h)
        tip = occ.addPoint(a, 0.0, 0.0)
        occ.fragment([(2, surf)], [(0, tip)])  # the tip becomes a mesh node inside the plate
        occ.synchronize()
        band = (a, w, -2.0 * d_min, 2.0 * d_min) if bool(scenario["path_band"]) else None
        fields(tip, size_min, size_max, d_min, d_max, band)
        gmsh.model.mesh.generate(2)
        tris, conn = gmsh.model.mesh.getElementsByType(TRIANGLE)
        tags, coords, _ = gmsh.model.mesh.getNodes()
        name = "plate.stl"
        gmsh.write(os.path.join(os.environ["SWR_ARTIFACTS"], name))
    finally:
        gmsh.finalize()
    xyz = np.zeros((int(tags.max()) + 1, 3))
    xyz[np.asarray(tags, dtype=np.int64)] = np.asarray(coords, dtype=np.float64).reshape(-1, 3)
    p = xyz[np.asarray(conn, dtype=np.int64).reshape(-1, 3)]
    area = 0.5 * np.abs(np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])[:, 2])
    centroid = p.mean(axis=1)
    r = np.hypot(centroid[:, 0] - a, centroid[:, 1])
    near = r < d_min
    return {
        "mesh": name,
        "triangles": int(len(tris)),
        "nodes": int(len(tags)),
        "near_tip_triangles": int(near.sum()),
        "near_tip_mean_area": float(area[near].mean()),
        "far_mean_area": float(area[r > d_max].mean()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
