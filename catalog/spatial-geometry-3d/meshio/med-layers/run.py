"""Preparing a layered material model for Code_Aster or Salome with meshio: a tetrahedral mesh is read, its cells
are assigned to n_layers material bands along an axis by their centroids, each band gets a Young's modulus from a
list, a linear temperature field is prescribed at the points, and meshio writes the mesh with its point and cell
fields in the MED format (HDF5).

Entry workflow: main(dict) -> dict; the mesh file is read on every call, no module state is mutated. The MED file
goes to $SWR_ARTIFACTS, read on every call.
"""

import os

import meshio
import numpy as np

FORMATS = {".mesh": "medit", ".msh": "gmsh", ".vtu": "vtu"}  # named, never guessed
AXES = {"x": 0, "y": 1, "z": 2}


def main(s: dict) -> dict:
    path = str(s["mesh"])
    mesh = meshio.read(path, file_format=FORMATS[path[path.rfind("."):]])
    pts = np.asarray(mesh.points, dtype=np.float64)[:, :3] * float(s["scale"])
    tets = np.concatenate([c.data for c in mesh.cells if c.type == "tetra"]).astype(np.int64)
    axis = AXES[str(s["axis"])]
    n = int(s["n_layers"])
    moduli = np.asarray(s["moduli_gpa"], dtype=np.float64)[:n]

    coord = pts[:, axis]
    lo, hi = float(coord.min()), float(coord.max())
    centroid = pts[tets].mean(axis=1)[:, axis]
    layer = np.minimum((n * (centroid - lo) / (hi - lo)).astype(np.int64), n - 1)
    p = pts[tets]
    vol = np.abs(np.einsum("ij,ij->i", p[:, 1] - p[:, 0], np.cross(p[:, 2] - p[:, 0], p[:, 3] - p[:, 0]))) / 6.0
    temp = float(s["base_temperature_c"]) + float(s["gradient_c_per_mm"]) * (coord - lo)

    out = meshio.Mesh(pts, [("tetra", tets)], point_data={"temperature": temp},
                      cell_data={"material": [(layer + 1).astype(np.int32)], "young_gpa": [moduli[layer]]})
    name = "layers.h5"
    meshio.write(os.path.join(os.environ["SWR_ARTIFACTS"], name), out, file_format="med")
    layer_vol = [float(vol[layer == k].sum()) for k in range(n)]
    return {
        "med": name,
        "layer_cells": [int(np.sum(layer == k)) for k in range(n)],
        "layer_volume": layer_vol,
        "voigt_modulus_gpa": float(np.dot(layer_vol, moduli) / vol.sum()),
        "reuss_modulus_gpa": float(vol.sum() / np.dot(layer_vol, 1.0 / moduli)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
