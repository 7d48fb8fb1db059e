"""OpenCASCADE solid modelling in gmsh: a box with a cylindrical bore fused with a sphere, then a
single-threaded tetrahedral mesh; reports CAD mass properties, entity counts, mesh counts and
tetrahedron quality statistics.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no
state survives between calls.
"""

import math

import gmsh
import numpy as np

CURVATURE_POINTS = 8  # mesh size follows curvature: this many elements per 2*pi of arc
TET = 4
TRIANGLE = 2


def stats(values):
    v = np.asarray(values, dtype=np.float64)
    return {"min": float(v.min()), "mean": float(v.mean()), "max": float(v.max())}


def main(scenario: dict) -> dict:
    lx, ly, lz = (float(v) for v in scenario["box_size"])
    bore_r = float(scenario["bore_radius_frac"]) * min(lx, ly) / 2.0
    sph_r = float(scenario["sphere_radius_frac"]) * min(lx, ly, lz)
    theta = math.radians(float(scenario["sphere_azimuth_deg"]))
    lc = float(scenario["mesh_size_frac"]) * (lx * ly * lz) ** (1.0 / 3.0)
    # Sphere centred on the top face, at 0.4*(lx, ly) from the box centre along the azimuth direction.
    sc = (lx / 2.0 + 0.4 * lx * math.cos(theta) / 2.0, ly / 2.0 + 0.4 * ly * math.sin(theta) / 2.0, lz)

    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setNumber("General.Verbosity", 0)
        gmsh.option.setNumber("General.NumThreads", 1)
        gmsh.option.setNumber("Mesh.MaxNumThreads1D", 1)
        gmsh.option.setNumber("Mesh.MaxNumThreads2D", 1)
        gmsh.option.setNumber("Mesh.MaxNumThreads3D", 1)
        gmsh.option.setNumber("Geometry.OCCParallel", 0)
        gmsh.option.setNumber("Mesh.RandomSeed", 1)
        gmsh.option.setNumber("Mesh.Algorithm3D", 1)
        gmsh.option.setNumber("Mesh.MeshSizeMax", lc)
        gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", CURVATURE_POINTS)
        gmsh.model.add("part")
        occ = gmsh.model.occ
        box = occ.addBox(0.0, 0.0, 0.0, lx, ly, lz)
        bore = occ.addCylinder(lx / 2.0, ly / 2.0, -1.0, 0.0, 0.0, lz + 2.0, bore_r)
        ball = occ.addSphere(*sc, sph_r)
        cut, _ = occ.cut([(3, box)], [(3, bore)])
        fused, _ = occ.fuse(cut, [(3, ball)])
        occ.synchronize()

        vols = gmsh.model.getEntities(3)
        cad_volume = sum(occ.getMass(3, t) for _, t in vols)
        surfaces = gmsh.model.getEntities(2)
        cad_area = sum(occ.getMass(2, t) for _, t in surfaces)
        com = occ.getCenterOfMass(3, vols[0][1]) if len(vols) == 1 else (0.0, 0.0, 0.0)

        gmsh.model.mesh.generate(3)
        node_tags, _, _ = gmsh.model.mesh.getNodes()
        tets, _ = gmsh.model.mesh.getElementsByType(TET)
        tris, _ = gmsh.model.mesh.getElementsByType(TRIANGLE)
        tet_vol = np.asarray(gmsh.model.mesh.getElementQualities(tets, "volume"), dtype=np.float64)
        return {
            "cad": {
                "volumes": int(len(vols)),
                "surfaces": int(len(surfaces)),
                "curves": int(len(gmsh.model.getEntities(1))),
                "volume": float(cad_volume),
                "area": float(cad_area),
                "center_of_mass": [float(v) for v in com],
            },
            "mesh": {
                "nodes": int(len(node_tags)),
                "tetrahedra": int(len(tets)),
                "surface_triangles": int(len(tris)),
                "volume": float(tet_vol.sum()),
            },
            "quality": {name: stats(gmsh.model.mesh.getElementQualities(tets, name))
                        for name in ("minSICN", "gamma")},
        }
    finally:
        gmsh.finalize()


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
