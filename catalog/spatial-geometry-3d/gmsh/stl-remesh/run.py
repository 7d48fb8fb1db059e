"""Remeshing a triangulated scan with gmsh, as in its tutorial t13: a coarse STL of a box with one rounded face is
merged into gmsh, its triangles are classified into surface patches by a feature angle
(gmsh.model.mesh.classifySurfaces), a parametrised geometry is rebuilt from them (createGeometry), and the patches
are remeshed with a uniform target size (and, optionally, the enclosed volume filled with tetrahedra); the new
surface is written as a binary STL.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no state survives
between calls. The input STL is written into a fresh temporary directory; the output goes to $SWR_ARTIFACTS, read on
every call.
"""

import math
import os
import tempfile

import gmsh
import numpy as np

TRIANGLE, TET = 2, 4


def scan(lx, ly, lz, bulge, n):
    """Closed grid triangulation of the box [0, lx]x[0, ly]x[0, lz] whose top face bulges by bulge*sin*sin."""
    tris = []
    u = np.linspace(0.0, 1.0, n + 1)

    def face(f):
        for i in range(n):
            for j in range(n):
                a, b, c, d = f(u[i], u[j]), f(u[i + 1], u[j]), f(u[i + 1], u[j + 1]), f(u[i], u[j + 1])
                tris.extend([(a, b, c), (a, c, d)])

    def top(s, t):
        return (s * lx, t * ly, lz + bulge * math.sin(math.pi * s) * math.sin(math.pi * t))

    face(top)
    face(lambda s, t: (t * lx, s * ly, 0.0))
    face(lambda s, t: (s * lx, 0.0, t * lz))
    face(lambda s, t: (t * lx, ly, s * lz))
    face(lambda s, t: (0.0, t * ly, s * lz))
    face(lambda s, t: (lx, s * ly, t * lz))
    return tris


def write_stl(path, tris):
    """Binary STL (zero normals: gmsh recomputes them)."""
    rec = np.zeros(len(tris), dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    rec["v"] = np.asarray(tris, dtype=np.float64)
    with open(path, "wb") as fh:
        fh.write(b"scan".ljust(80, b" "))
        fh.write(np.uint32(len(tris)).tobytes())
        fh.write(rec.tobytes())


def main(scenario: dict) -> dict:
    lx, ly, lz = (float(v) for v in scenario["box_size"])
    bulge = float(scenario["bulge_frac"]) * lz
    size = float(scenario["mesh_size_frac"]) * min(lx, ly, lz)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "scan.stl")
        write_stl(src, scan(lx, ly, lz, bulge, int(scenario["scan_cells"])))
        gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
        try:
            gmsh.option.setNumber("General.Terminal", 0)
            gmsh.option.setNumber("General.Verbosity", 0)
            gmsh.option.setNumber("General.NumThreads", 1)
            gmsh.option.setNumber("Mesh.RandomSeed", 1)
            gmsh.option.setNumber("Mesh.Binary", 1)
            gmsh.merge(src)
            angle = math.radians(float(scenario["feature_angle_deg"]))
            gmsh.model.mesh.classifySurfaces(angle, True, False, math.pi)
            gmsh.model.mesh.createGeometry()
            surfaces = [t for _, t in gmsh.model.getEntities(2)]
            if bool(scenario["fill_volume"]):
                gmsh.model.geo.addVolume([gmsh.model.geo.addSurfaceLoop(surfaces)])
            gmsh.model.geo.synchronize()
            field = gmsh.model.mesh.field.add("MathEval")
            gmsh.model.mesh.field.setString(field, "F", repr(size))
            gmsh.model.mesh.field.setAsBackgroundMesh(field)
            gmsh.model.mesh.generate(3 if bool(scenario["fill_volume"]) else 2)
            tris, _ = gmsh.model.mesh.getElementsByType(TRIANGLE)
            tets = gmsh.model.mesh.getElementsByType(TET)[0] if bool(scenario["fill_volume"]) else []
            name = "remeshed.stl"
            gmsh.write(os.path.join(os.environ["SWR_ARTIFACTS"], name))
        finally:
            gmsh.finalize()
    return {
        "mesh": name,
        "patches": len(surfaces),
        "triangles": int(len(tris)),
        "tetrahedra": int(len(tets)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
