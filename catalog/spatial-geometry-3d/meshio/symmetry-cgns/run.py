"""Expanding a symmetric half model to the full part for a CFD/FEA code that wants CGNS, with meshio: a tetrahedral
mesh is mirrored across the plane of its lowest (or highest) coordinate along an axis, the copy's cells are
re-oriented, the points lying on the symmetry plane are shared instead of duplicated, and meshio writes the full mesh
as a CGNS file (HDF5), which is read back to check it.

Entry workflow: main(dict) -> dict; the mesh file is read on every call, no module state is mutated. The CGNS file
goes to $SWR_ARTIFACTS, read on every call.
"""

import os

import meshio
import numpy as np

FORMATS = {".vtu": "vtu", ".mesh": "medit", ".inp": "abaqus"}  # named, never guessed
AXES = {"x": 0, "y": 1, "z": 2}


def main(s: dict) -> dict:
    path = str(s["mesh"])
    mesh = meshio.read(path, file_format=FORMATS[path[path.rfind("."):]])
    pts = np.asarray(mesh.points, dtype=np.float64)[:, :3] * np.asarray(s["scale_xyz"], dtype=np.float64)
    tets = np.asarray(mesh.get_cells_type("tetra"), dtype=np.int64)
    axis = AXES[str(s["axis"])]
    lo = float(pts[:, axis].min() if s["side"] == "low" else pts[:, axis].max())
    tol = 1e-9 * float(np.ptp(pts, axis=0).max())
    on_plane = np.abs(pts[:, axis] - lo) <= tol
    # copy i of an off-plane point gets index n + rank among the off-plane points; on-plane points are shared
    n = len(pts)
    new_index = np.arange(n)
    off = np.flatnonzero(~on_plane)
    new_index[off] = n + np.arange(len(off))
    mirrored = pts[off].copy()
    mirrored[:, axis] = 2.0 * lo - mirrored[:, axis]
    all_pts = np.vstack([pts, mirrored])
    copy = new_index[tets][:, [0, 2, 1, 3]]  # a reflection flips orientation: swap two nodes back
    cells = np.vstack([tets, copy])
    name = "full.h5"
    out = os.path.join(os.environ["SWR_ARTIFACTS"], name)
    meshio.write(out, meshio.Mesh(all_pts, [("tetra", cells)]), file_format="cgns")
    back = meshio.read(out, file_format="cgns")  # the solver's view: read the file back
    return {
        "cgns": name,
        "points": int(len(back.points)),
        "shared_points": int(on_plane.sum()),
        "tetra": int(sum(len(c.data) for c in back.cells if c.type == "tetra")),
        "extent": [float(v) for v in np.ptp(np.asarray(back.points, dtype=np.float64), axis=0)],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
