"""A transient result as a time series for ParaView: the temperature field of an instantaneous point heat source
(the heat equation's Green's function in an infinite medium) on a tetrahedral mesh read from a solver deck with
meshio, written step by step with meshio's XDMF TimeSeriesWriter, the mesh once and the fields per time step, all
heavy data in one HDF5 file.

Entry workflow: main(dict) -> dict; the deck is read on every call, no module state is mutated (the writer puts its
.h5 in the working directory, so the call enters $SWR_ARTIFACTS for the write and leaves it after).
"""

import contextlib
import math
import os

import meshio
import numpy as np

FORMATS = {".vol": "netgen", ".avs": "avsucd", ".mdpa": "mdpa"}  # named, never guessed


def main(s: dict) -> dict:
    path = str(s["mesh"])
    mesh = meshio.read(path, file_format=FORMATS[path[path.rfind("."):]])
    pts = np.asarray(mesh.points, dtype=np.float64)[:, :3] * float(s["scale"])
    tets = np.concatenate([c.data for c in mesh.cells if c.type == "tetra"]).astype(np.int64)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    x0 = lo + np.asarray(s["source_frac"], dtype=np.float64) * (hi - lo)
    amb, energy, alpha = float(s["ambient_c"]), float(s["energy"]), float(s["diffusivity_mm2_s"])
    n = int(s["n_steps"])
    times = np.linspace(float(s["t_start_s"]), float(s["t_end_s"]), n)

    p = pts[tets]
    vol = np.abs(np.einsum("ij,ij->i", p[:, 1] - p[:, 0], np.cross(p[:, 2] - p[:, 0], p[:, 3] - p[:, 0]))) / 6.0
    r2 = np.sum((pts - x0) ** 2, axis=1)
    peak, mean, content = [], [], []
    with contextlib.chdir(os.environ["SWR_ARTIFACTS"]), meshio.xdmf.TimeSeriesWriter("series.xdmf") as writer:
        writer.write_points_cells(pts, [("tetra", tets)])
        for t in times:
            temp = amb + energy / (4.0 * math.pi * alpha * t) ** 1.5 * np.exp(-r2 / (4.0 * alpha * t))
            t_cell = temp[tets].mean(axis=1)
            cell_data = {"mean_temperature": [t_cell]} if bool(s["with_cell_mean"]) else None
            writer.write_data(float(t), point_data={"temperature": temp}, cell_data=cell_data)
            peak.append(float(temp.max()))
            mean.append(float(np.dot(vol, t_cell) / vol.sum()))
            content.append(float(np.dot(vol, t_cell - amb)))
    return {
        "series": "series.h5",
        "times_s": [float(t) for t in times],
        "peak_temperature_c": peak,
        "mean_temperature_c": mean,
        "heat_content": content,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
