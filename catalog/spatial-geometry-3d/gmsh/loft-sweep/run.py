"""Lofting and sweeping in gmsh's OpenCASCADE kernel, as for a duct or a hook: a solid loft through a stack of
elliptical sections (occ.addThruSections, ruled or smooth) and a circular tube swept along a spline path
(occ.addPipe) are built as two solids (the tube starts inside the loft; they are not fused), their exact volumes
and areas read (occ.getMass), and their surfaces meshed with triangles and written by gmsh as one binary STL.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no state survives
between calls. The STL goes to $SWR_ARTIFACTS, read on every call.
"""

import math
import os

import gmsh


def setup(size):
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.option.setNumber("General.Verbosity", 0)
    gmsh.option.setNumber("General.NumThreads", 1)
    gmsh.option.setNumber("Mesh.MaxNumThreads2D", 1)
    gmsh.option.setNumber("Geometry.OCCParallel", 0)
    gmsh.option.setNumber("Mesh.RandomSeed", 1)
    gmsh.option.setNumber("Mesh.MeshSizeMax", size)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 8)
    gmsh.option.setNumber("Mesh.Binary", 1)


def loft(occ, n, length, r0, taper, twist_deg, ruled):
    """Ellipse wires at z = length*i/(n-1), semi-axes r0*(1 + (taper - 1) t) and half that, rotated by twist*t."""
    wires = []
    for i in range(n):
        t = i / (n - 1)
        ra = r0 * (1.0 + (taper - 1.0) * t)
        curve = occ.addEllipse(0.0, 0.0, length * t, ra, 0.5 * ra)
        occ.rotate([(1, curve)], 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, math.radians(twist_deg) * t)
        wires.append(occ.addWire([curve]))
    return occ.addThruSections(wires, makeSolid=True, makeRuled=ruled)


def main(scenario: dict) -> dict:
    n = int(scenario["sections"])
    length = float(scenario["length"])
    r0 = float(scenario["base_radius"])
    bend = float(scenario["hook_rise"])
    tube_r = float(scenario["tube_radius_frac"]) * r0
    size = float(scenario["mesh_size_frac"]) * r0
    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        setup(size)
        gmsh.model.add("loft")
        occ = gmsh.model.occ
        body = loft(occ, n, length, r0, float(scenario["taper"]), float(scenario["twist_deg"]),
                    bool(scenario["ruled"]))
        # hook: a spline from the loft's top centre curving sideways and down
        pts = [occ.addPoint(0.0, 0.0, length - tube_r), occ.addPoint(0.0, 0.0, length + 0.5 * bend),
               occ.addPoint(bend, 0.0, length + bend), occ.addPoint(2.0 * bend, 0.0, length + 0.5 * bend)]
        path = occ.addWire([occ.addSpline(pts)])
        disk = occ.addDisk(0.0, 0.0, length - tube_r, tube_r, tube_r)
        tube = occ.addPipe([(2, disk)], path)
        occ.remove([(2, disk)])  # the profile disk stays a free surface beside the pipe's own start cap
        occ.synchronize()
        loft_volume = sum(occ.getMass(3, t) for _, t in body)
        tube_volume = sum(occ.getMass(3, t) for _, t in tube)
        area = sum(occ.getMass(2, t) for _, t in gmsh.model.getEntities(2))
        gmsh.model.mesh.generate(2)
        name = "hook.stl"
        gmsh.write(os.path.join(os.environ["SWR_ARTIFACTS"], name))
        return {
            "mesh": name,
            "loft_cad_volume": float(loft_volume),
            "tube_cad_volume": float(tube_volume),
            "cad_area": float(area),
        }
    finally:
        gmsh.finalize()


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
