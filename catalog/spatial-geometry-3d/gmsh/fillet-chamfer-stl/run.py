"""Edge blending in gmsh's OpenCASCADE kernel: a box's vertical edges are filleted (occ.fillet) and its top edges
chamfered (occ.chamfer), the B-rep's mass properties are read (occ.getMass, occ.getCenterOfMass), and its surface is
meshed with triangles and written by gmsh as a binary STL, as one prepares a part for printing.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no state survives
between calls. The STL goes to $SWR_ARTIFACTS, read on every call.
"""

import os

import gmsh

TRIANGLE = 2


def setup(size):
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.option.setNumber("General.Verbosity", 0)
    gmsh.option.setNumber("General.NumThreads", 1)
    gmsh.option.setNumber("Mesh.MaxNumThreads1D", 1)
    gmsh.option.setNumber("Mesh.MaxNumThreads2D", 1)
    gmsh.option.setNumber("Geometry.OCCParallel", 0)
    gmsh.option.setNumber("Mesh.RandomSeed", 1)
    gmsh.option.setNumber("Mesh.MeshSizeMax", size)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 8)
    gmsh.option.setNumber("Mesh.Binary", 1)


def edges_in_box(xmin, ymin, zmin, xmax, ymax, zmax):
    return [t for _, t in gmsh.model.getEntitiesInBoundingBox(xmin, ymin, zmin, xmax, ymax, zmax, 1)]


def main(scenario: dict) -> dict:
    lx, ly, lz = (float(v) for v in scenario["box_size"])
    m = min(lx, ly, lz)
    r = float(scenario["fillet_frac"]) * m / 2.0
    d = float(scenario["chamfer_frac"]) * r
    size = float(scenario["mesh_size_frac"]) * m
    eps = 1e-6 * max(lx, ly, lz)
    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        setup(size)
        gmsh.model.add("blend")
        occ = gmsh.model.occ
        vol = occ.addBox(0.0, 0.0, 0.0, lx, ly, lz)
        occ.synchronize()
        vertical = [t for t in edges_in_box(-eps, -eps, -eps, lx + eps, ly + eps, lz + eps)
                    if abs(gmsh.model.getBoundingBox(1, t)[5] - gmsh.model.getBoundingBox(1, t)[2]) > lz / 2.0]
        if scenario["fillet_edges"] == "two":
            vertical = [t for t in vertical if gmsh.model.getBoundingBox(1, t)[0] > lx / 2.0]
        out = occ.fillet([vol], vertical, [r])
        vol = out[0][1]
        occ.synchronize()
        if bool(scenario["chamfer_top"]):
            top = [t for _, t in gmsh.model.getEntitiesInBoundingBox(-eps, -eps, lz - eps, lx + eps, ly + eps,
                                                                      lz + eps, 2)]
            top_edges = edges_in_box(-eps, -eps, lz - eps, lx + eps, ly + eps, lz + eps)
            out = occ.chamfer([vol], top_edges, top * len(top_edges), [d])
            vol = out[0][1]
            occ.synchronize()
        surfaces = gmsh.model.getEntities(2)
        cad = {
            "surfaces": len(surfaces),
            "curves": len(gmsh.model.getEntities(1)),
            "volume": float(occ.getMass(3, vol)),
            "area": float(sum(occ.getMass(2, t) for _, t in surfaces)),
            "center_of_mass": [float(v) for v in occ.getCenterOfMass(3, vol)],
        }
        gmsh.model.mesh.generate(2)
        tris, _ = gmsh.model.mesh.getElementsByType(TRIANGLE)
        name = "blended.stl"
        gmsh.write(os.path.join(os.environ["SWR_ARTIFACTS"], name))
        return {"mesh": name, "cad": cad, "triangles": int(len(tris))}
    finally:
        gmsh.finalize()


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
