"""Handing a transient result to ParaView: a tetrahedral mesh read with meshio carries the analytic temperature of a
cooling brick (the first Fourier mode of the heat equation in the mesh's bounding box, Dirichlet walls at the ambient
temperature) at time t as point data, and each tetrahedron's volume and mean nodal temperature as cell data; meshio
writes XDMF with its heavy data in HDF5.

Entry workflow: main(dict) -> dict; the mesh file is read on every call, no module state is mutated. The XDMF and
its .h5 go to $SWR_ARTIFACTS, read on every call.
"""

import math
import os

import meshio
import numpy as np

FORMATS = {".msh": "gmsh", ".mesh": "medit", ".inp": "abaqus"}  # named, never guessed


def main(s: dict) -> dict:
    path = str(s["mesh"])
    mesh = meshio.read(path, file_format=FORMATS[path[path.rfind("."):]])
    pts = np.asarray(mesh.points, dtype=np.float64)[:, :3] * float(s["scale"])
    tets = np.concatenate([c.data for c in mesh.cells if c.type == "tetra"]).astype(np.int64)
    t_amb, t0 = float(s["ambient_c"]), float(s["initial_c"])
    alpha, time = float(s["diffusivity_mm2_s"]), float(s["time_s"])

    lo, hi = pts.min(axis=0), pts.max(axis=0)
    size = hi - lo
    decay = math.exp(-alpha * math.pi**2 * float(np.sum(1.0 / size**2)) * time)
    shape = np.prod(np.sin(math.pi * (pts - lo) / size), axis=1)
    temp = t_amb + (t0 - t_amb) * decay * shape

    p = pts[tets]
    vol = np.abs(np.einsum("ij,ij->i", p[:, 1] - p[:, 0], np.cross(p[:, 2] - p[:, 0], p[:, 3] - p[:, 0]))) / 6.0
    t_cell = temp[tets].mean(axis=1)
    cell_data = {"volume": [vol], "mean_temperature": [t_cell]}
    if bool(s["with_hot_flag"]):
        cell_data["hot"] = [(t_cell > float(s["hot_threshold_c"])).astype(np.int32)]
    out = meshio.Mesh(pts, [("tetra", tets)], point_data={"temperature": temp}, cell_data=cell_data)
    meshio.write(os.path.join(os.environ["SWR_ARTIFACTS"], "thermal.xdmf"), out, file_format="xdmf")
    total = float(vol.sum())
    return {
        "heavy_data": "thermal.h5",
        "decay_factor": decay,
        "max_temperature_c": float(temp.max()),
        "mean_temperature_c": float(np.dot(vol, t_cell) / total),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
