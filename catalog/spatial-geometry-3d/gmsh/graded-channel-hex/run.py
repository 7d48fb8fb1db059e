"""A structured, wall-graded hexahedral grid of a channel with gmsh's built-in (geo) kernel, as for a CFD boundary
layer: the rectangle of the channel's cross-stream plane gets transfinite curves (a geometric Progression or a Bump
distribution towards both walls), a transfinite, recombined surface (quadrangles), and is extruded along the flow
with a fixed number of recombined layers into hexahedra; reports the node and element counts, the first-cell height
at the wall, the cell volumes and aspect ratios.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no state survives
between calls.
"""

import gmsh
import numpy as np

HEX = 5
QUAD = 3


def setup():
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.option.setNumber("General.Verbosity", 0)
    gmsh.option.setNumber("General.NumThreads", 1)
    gmsh.option.setNumber("Mesh.RandomSeed", 1)


def main(scenario: dict) -> dict:
    height = float(scenario["height"])
    width = float(scenario["width"])
    length = float(scenario["length"])
    ny = int(scenario["cells_wall_normal"])
    nz = int(scenario["cells_span"])
    nx = int(scenario["cells_flow"])
    ratio = float(scenario["progression"])
    bump = float(scenario["bump"])
    law = str(scenario["distribution"])
    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        setup()
        gmsh.model.add("channel")
        geo = gmsh.model.geo
        # cross-stream rectangle in the y-z plane at x = 0: y across the channel height (walls at y = 0, height)
        p = [geo.addPoint(0.0, 0.0, 0.0), geo.addPoint(0.0, height, 0.0),
             geo.addPoint(0.0, height, width), geo.addPoint(0.0, 0.0, width)]
        c = [geo.addLine(p[0], p[1]), geo.addLine(p[1], p[2]), geo.addLine(p[2], p[3]), geo.addLine(p[3], p[0])]
        s = geo.addPlaneSurface([geo.addCurveLoop(c)])
        if law == "Bump":
            for tag in (c[0], c[2]):
                geo.mesh.setTransfiniteCurve(tag, ny + 1, "Bump", bump)
        else:
            # one geometric progression across the channel, finest at the wall y = 0 (c[2] runs the other way)
            geo.mesh.setTransfiniteCurve(c[0], ny + 1, "Progression", ratio)
            geo.mesh.setTransfiniteCurve(c[2], ny + 1, "Progression", 1.0 / ratio)
        for tag in (c[1], c[3]):
            geo.mesh.setTransfiniteCurve(tag, nz + 1)
        geo.mesh.setTransfiniteSurface(s)
        geo.mesh.setRecombine(2, s)
        geo.extrude([(2, s)], length, 0.0, 0.0, numElements=[nx], recombine=True)
        geo.synchronize()
        gmsh.model.mesh.generate(3)

        nodes, _, _ = gmsh.model.mesh.getNodes()
        hexes, _ = gmsh.model.mesh.getElementsByType(HEX)
        quads, _ = gmsh.model.mesh.getElementsByType(QUAD)
        vol = np.asarray(gmsh.model.mesh.getElementQualities(hexes, "volume"), dtype=np.float64)
        _, edge, _ = gmsh.model.mesh.getNodes(1, c[0], includeBoundary=True)
        dy = np.diff(np.sort(np.asarray(edge, dtype=np.float64).reshape(-1, 3)[:, 1]))
    finally:
        gmsh.finalize()
    dx, dz = length / nx, width / nz
    return {
        "nodes": int(len(nodes)),
        "hexahedra": int(len(hexes)),
        "boundary_quads": int(len(quads)),
        "first_cell_height": float(dy[0]),
        "last_cell_height": float(dy[-1]),
        "max_cell_height": float(dy.max()),
        "volume_total": float(vol.sum()),
        "volume_min": float(vol.min()),
        "volume_max": float(vol.max()),
        "wall_aspect_ratio": float(max(dx, dz) / dy[0]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
