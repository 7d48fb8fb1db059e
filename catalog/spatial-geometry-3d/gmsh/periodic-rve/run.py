"""A periodic representative volume element (RVE) of a unidirectional fibre composite for homogenisation, meshed
with gmsh: the cross-section cell (OpenCASCADE rectangle) holds the fibres of a square or hexagonal packing (disks
cut to the cell with occ.intersect, merged conformally with occ.fragment), and the mesh is made periodic with
gmsh.model.mesh.setPeriodic (right edges copy the left, top copy the bottom, by translation) so that periodic
boundary conditions can tie node pairs; gmsh.model.mesh.getPeriodicNodes reports those pairs. The mesh is written
as an STL of the cell's triangles (or quads split by gmsh).

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no state survives
between calls. The STL goes to $SWR_ARTIFACTS.
"""

import math
import os

import gmsh
import numpy as np

ALGORITHMS = {"meshadapt": 1, "delaunay": 5, "frontal": 6}
EPS = 1e-7  # bounding-box slack, relative to the cell size


def fibres(w, h, vf, packing):
    """(x, y, r) of the fibre disks: one at the centre (square), or the centre plus the four corners (hexagonal)."""
    n = 1 if packing == "square" else 2
    r = math.sqrt(vf * w * h / (n * math.pi))
    centres = [(w / 2, h / 2)] + ([(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)] if packing == "hexagonal" else [])
    return [(x, y, r) for x, y in centres]


def edge_curves(x0, y0, x1, y1, tol):
    """Curves inside a box, ordered by the centre of their own bounding box (the same order on opposite edges)."""
    tags = [t for _, t in gmsh.model.getEntitiesInBoundingBox(x0 - tol, y0 - tol, -tol, x1 + tol, y1 + tol, tol, 1)]
    return sorted(tags, key=lambda t: tuple(np.round(np.reshape(gmsh.model.getBoundingBox(1, t), (2, 3)).mean(0), 9)))


def periodic_pairs(tags):
    return sum(len(gmsh.model.mesh.getPeriodicNodes(1, t)[1]) for t in tags)


def main(s: dict) -> dict:
    w = float(s["cell_width_um"])
    h = float(s["aspect"]) * w
    disks = fibres(w, h, float(s["fibre_fraction"]), str(s["packing"]))
    size = float(s["mesh_size_frac"]) * disks[0][2]
    tol = EPS * w
    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setNumber("General.Verbosity", 0)
        gmsh.option.setNumber("General.NumThreads", 1)
        gmsh.option.setNumber("Mesh.MaxNumThreads2D", 1)
        gmsh.option.setNumber("Mesh.RandomSeed", 1)
        gmsh.option.setNumber("Mesh.MeshSizeMin", size)
        gmsh.option.setNumber("Mesh.MeshSizeMax", size)
        gmsh.option.setNumber("Mesh.Algorithm", ALGORITHMS[str(s["algorithm"])])
        gmsh.model.add("rve")
        occ = gmsh.model.occ
        cell = occ.addRectangle(0.0, 0.0, 0.0, w, h)
        clip = occ.addRectangle(0.0, 0.0, 0.0, w, h)
        pieces, _ = occ.intersect([(2, occ.addDisk(x, y, 0.0, r, r)) for x, y, r in disks], [(2, clip)])
        _, out_map = occ.fragment([(2, cell)], pieces)
        occ.synchronize()
        fibre_tags = sorted({t for m in out_map[1:] for _, t in m})
        left = edge_curves(0.0, 0.0, 0.0, h, tol)
        right = edge_curves(w, 0.0, w, h, tol)
        bottom = edge_curves(0.0, 0.0, w, 0.0, tol)
        top = edge_curves(0.0, h, w, h, tol)
        shift_x = [1, 0, 0, w, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        shift_y = [1, 0, 0, 0, 0, 1, 0, h, 0, 0, 1, 0, 0, 0, 0, 1]
        gmsh.model.mesh.setPeriodic(1, right, left, shift_x)
        gmsh.model.mesh.setPeriodic(1, top, bottom, shift_y)
        gmsh.model.mesh.generate(2)
        nodes, _, _ = gmsh.model.mesh.getNodes()
        counts = {}
        for _, tag in gmsh.model.getEntities(2):
            elems, _ = gmsh.model.mesh.getElementsByType(2, tag)
            area = float(np.sum(gmsh.model.mesh.getElementQualities(elems, "volume"))) if len(elems) else 0.0
            kind = "fibre" if tag in fibre_tags else "matrix"
            n, a = counts.get(kind, (0, 0.0))
            counts[kind] = (n + len(elems), a + area)
        pairs_x, pairs_y = periodic_pairs(right), periodic_pairs(top)
        gmsh.write(os.path.join(os.environ["SWR_ARTIFACTS"], "rve.stl"))
    finally:
        gmsh.finalize()
    total = counts["fibre"][1] + counts["matrix"][1]
    return {
        "mesh": "rve.stl",
        "nodes": int(len(nodes)),
        "fibre_triangles": int(counts["fibre"][0]),
        "matrix_triangles": int(counts["matrix"][0]),
        "mesh_fibre_fraction": counts["fibre"][1] / total,
        "fibre_radius_um": disks[0][2],
        "periodic_pairs_x": int(pairs_x),
        "periodic_pairs_y": int(pairs_y),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
