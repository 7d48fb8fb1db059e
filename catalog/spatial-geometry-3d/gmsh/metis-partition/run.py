"""Domain decomposition of a finite-element mesh with gmsh's METIS partitioner, as for a parallel solver: a plate
with a row of holes (OpenCASCADE) is meshed with triangles, partitioned into n parts (gmsh.model.mesh.partition,
METIS k-way or recursive), and the element count of every part, the load imbalance and the size of the partition
interfaces (nodes shared by parts) are reported.

Entry workflow: every call initialises gmsh, builds a fresh model and finalises gmsh again, so no state survives
between calls.
"""

import gmsh
import numpy as np

TRIANGLE = 2
ALGORITHMS = {"recursive": 1, "kway": 2}


def setup(size, algo):
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.option.setNumber("General.Verbosity", 0)
    gmsh.option.setNumber("General.NumThreads", 1)
    gmsh.option.setNumber("Mesh.MaxNumThreads2D", 1)
    gmsh.option.setNumber("Mesh.RandomSeed", 1)
    gmsh.option.setNumber("Mesh.MeshSizeMin", size)
    gmsh.option.setNumber("Mesh.MeshSizeMax", size)
    gmsh.option.setNumber("Mesh.MetisAlgorithm", algo)
    gmsh.option.setNumber("Mesh.PartitionCreateTopology", 1)
    gmsh.option.setNumber("Mesh.PartitionCreateGhostCells", 0)


def main(scenario: dict) -> dict:
    w, h = (float(v) for v in scenario["plate_size"])
    holes = int(scenario["holes"])
    r = float(scenario["hole_radius_frac"]) * min(h / 2.0, w / (2.0 * holes))
    size = float(scenario["mesh_size_frac"]) * h
    parts = int(scenario["parts"])
    gmsh.initialize(argv=["gmsh"], readConfigFiles=False, run=False, interruptible=False)
    try:
        setup(size, ALGORITHMS[str(scenario["algorithm"])])
        gmsh.model.add("plate")
        occ = gmsh.model.occ
        plate = occ.addRectangle(0.0, 0.0, 0.0, w, h)
        disks = [(2, occ.addDisk(w * (k + 0.5) / holes, h / 2.0, 0.0, r, r)) for k in range(holes)]
        occ.cut([(2, plate)], disks)
        occ.synchronize()
        gmsh.model.mesh.generate(2)
        total = len(gmsh.model.mesh.getElementsByType(TRIANGLE)[0])
        gmsh.model.mesh.partition(parts)
        counts = np.zeros(parts, dtype=np.int64)
        for dim, tag in gmsh.model.getEntities(2):
            owner = gmsh.model.getPartitions(dim, tag)
            if len(owner) == 1:
                types, elems, _ = gmsh.model.mesh.getElements(dim, tag)
                counts[int(owner[0]) - 1] += sum(len(e) for t, e in zip(types, elems) if t == TRIANGLE)
        shared = set()
        for dim, tag in gmsh.model.getEntities(1) + gmsh.model.getEntities(0):
            if len(gmsh.model.getPartitions(dim, tag)) > 1:
                shared.update(int(n) for n in gmsh.model.mesh.getNodes(dim, tag, includeBoundary=True)[0])
    finally:
        gmsh.finalize()
    return {
        "triangles": int(total),
        "part_triangles": sorted(int(c) for c in counts),
        "imbalance": float(counts.max() * parts / counts.sum()),
        "interface_nodes": len(shared),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
