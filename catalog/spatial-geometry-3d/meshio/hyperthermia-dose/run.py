"""Thermal dose of a hyperthermia treatment from a transient temperature series: the series (XDMF, mesh once and a
temperature field per time step) is read with meshio's XDMF TimeSeriesReader, and each node's cumulative
equivalent minutes at 43 degC (CEM43, Sapareto and Dewey) is summed over the intervals between steps; the dose, the
peak temperature and the damaged cells go to an HDF5 mesh file (meshio's hmf writer).

Entry workflow: main(dict) -> dict; the series is read on every call, no module state is mutated.
"""

import os

import meshio
import numpy as np


def interval_temperature(a, b, rule):
    """The temperature an interval [t_i, t_i+1] is dosed at, from its end temperatures."""
    if rule == "left":
        return a
    if rule == "trapezoid":
        return 0.5 * (a + b)
    return np.maximum(a, b)


def main(s: dict) -> dict:
    with meshio.xdmf.TimeSeriesReader(str(s["series"])) as reader:
        points, cells = reader.read_points_cells()
        steps = [reader.read_data(k) for k in range(reader.num_steps)]
    pts = np.asarray(points, dtype=np.float64)[:, :3] * float(s["scale"])
    tets = np.concatenate([c.data for c in cells if c.type == "tetra"]).astype(np.int64)
    times = np.array([float(t) for t, _, _ in steps])
    temps = np.array([pd["temperature"] for _, pd, _ in steps], dtype=np.float64) + float(s["offset_c"])

    cem = np.zeros(len(pts))
    for k in range(len(times) - 1):
        t = interval_temperature(temps[k], temps[k + 1], str(s["rule"]))
        r = np.where(t >= 43.0, 0.5, 0.25)
        cem += (times[k + 1] - times[k]) / 60.0 * r ** (43.0 - t)
    hit = cem >= float(s["dose_threshold_min"])
    damaged = hit[tets].all(axis=1)

    point_data = {"cem43": cem}
    if bool(s["with_peak"]):
        point_data["peak_temperature"] = temps.max(axis=0)
    out = meshio.Mesh(pts, [("tetra", tets)], point_data=point_data,
                      cell_data={"damaged": [damaged.astype(np.int32)]})
    meshio.write(os.path.join(os.environ["SWR_ARTIFACTS"], "dose.h5"), out, file_format="hmf")
    return {
        "dose": "dose.h5",
        "max_cem43_min": float(cem.max()),
        "damaged_points": int(hit.sum()),
        "peak_temperature_c": float(temps.max()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
