"""Quadrilateral meshing by recombination with gmsh, as for a shell or 2D solid model that prefers quads: a
perforated plate (OpenCASCADE rectangle minus disks) is triangulated with a chosen 2D algorithm, the triangles are
recombined into quadrangles (Mesh.RecombineAll, simple or Blossom matching), optionally subdivided into an all-quad
mesh (Mesh.SubdivisionAlgorithm 1), and the element counts and the scaled-Jacobian quality of the quads are reported.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no state survives
between calls.
"""

import gmsh
import numpy as np

TRIANGLE, QUAD = 2, 3
ALGORITHMS = {"delaunay": 5, "frontal": 6, "frontal_quads": 8}
RECOMBINE = {"simple": 0, "blossom": 1}


def main(scenario: dict) -> dict:
    w, h = (float(v) for v in scenario["plate_size"])
    holes = int(scenario["holes"])
    r = float(scenario["hole_frac"]) * min(h / 2.0, w / (2.0 * holes))
    size = float(scenario["mesh_size_frac"]) * min(w, h)
    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setNumber("General.Verbosity", 0)
        gmsh.option.setNumber("General.NumThreads", 1)
        gmsh.option.setNumber("Mesh.MaxNumThreads2D", 1)
        gmsh.option.setNumber("Mesh.RandomSeed", 1)
        gmsh.option.setNumber("Mesh.MeshSizeMin", size)
        gmsh.option.setNumber("Mesh.MeshSizeMax", size)
        gmsh.option.setNumber("Mesh.Algorithm", ALGORITHMS[str(scenario["algorithm"])])
        gmsh.option.setNumber("Mesh.RecombineAll", 1)
        gmsh.option.setNumber("Mesh.RecombinationAlgorithm", RECOMBINE[str(scenario["recombination"])])
        gmsh.option.setNumber("Mesh.SubdivisionAlgorithm", 1 if bool(scenario["all_quads"]) else 0)
        gmsh.model.add("plate")
        occ = gmsh.model.occ
        plate = occ.addRectangle(0.0, 0.0, 0.0, w, h)
        occ.cut([(2, plate)], [(2, occ.addDisk(w * (k + 0.5) / holes, h / 2.0, 0.0, r, r)) for k in range(holes)])
        occ.synchronize()
        gmsh.model.mesh.generate(2)
        tris, _ = gmsh.model.mesh.getElementsByType(TRIANGLE)
        quads, _ = gmsh.model.mesh.getElementsByType(QUAD)
        nodes, _, _ = gmsh.model.mesh.getNodes()
        q = np.asarray(gmsh.model.mesh.getElementQualities(quads, "minSJ"), dtype=np.float64)
        area = np.asarray(gmsh.model.mesh.getElementQualities(list(quads) + list(tris), "volume"), dtype=np.float64)
    finally:
        gmsh.finalize()
    return {
        "nodes": int(len(nodes)),
        "quadrangles": int(len(quads)),
        "triangles": int(len(tris)),
        "quad_fraction": float(len(quads) / (len(quads) + len(tris))),
        "min_scaled_jacobian": float(q.min()),
        "mean_scaled_jacobian": float(q.mean()),
        "mesh_area": float(area.sum()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
