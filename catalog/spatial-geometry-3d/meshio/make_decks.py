"""Converts the shipped Gmsh-made meshes (see make_meshes.py) into the solver decks the newer meshio workflows read:
NETGEN .vol, AVS-UCD .avs, Kratos .mdpa, PERMAS .post, DOLFIN XML and ANSYS .ans, each written by meshio from
the tetra and triangle cells of one shipped mesh, as a user of those codes would hand them over; and the transient
temperature series (XDMF, inline XML data) that hyperthermia-dose reads.

Run once with the catalog's Python after make_meshes.py: `python make_decks.py`; the decks are shipped.
"""
from __future__ import annotations

from pathlib import Path

import meshio
import numpy as np

HERE = Path(__file__).resolve().parent
SOURCES = {"bracket": "bracket.msh", "pipe": "pipe.msh", "lblock": "lblock.vtu", "frustum": "frustum.mesh",
           "stepped_shaft": "stepped_shaft.inp", "drilled_sphere": "drilled_sphere.vtk"}
READ = {".msh": "gmsh", ".vtu": "vtu", ".mesh": "medit", ".inp": "abaqus", ".vtk": "vtk"}
# workflow folder -> (mesh name, meshio format, file suffix)
TARGETS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "xdmf-series": (("bracket", "netgen", ".vol"), ("pipe", "avsucd", ".avs"), ("frustum", "mdpa", ".mdpa")),
    "hydrostatic-skin": (("lblock", "permas", ".post"), ("stepped_shaft", "dolfin-xml", ".xml"),
                 ("bracket", "ansys", ".ans")),
}


# hyperthermia-dose: transient temperature series (XDMF with inline XML data), mesh name -> series file
SERIES = {"drilled_sphere": "sphere_heating.xdmf", "frustum": "frustum_heating.xdmf", "bracket": "bracket_heating.xdmf"}
TIMES_S = (0.0, 120.0, 300.0, 600.0, 900.0, 1200.0, 1500.0, 1800.0)
RISE_C = (0.0, 4.0, 8.5, 10.5, 11.0, 11.0, 9.0, 2.5)


def heating_series(name: str, fname: str) -> None:
    """Focal heating: 37 degC + RISE_C(t) exp(-|x - c|^2/(2 (0.3 L)^2)), c = 0.4 lo + 0.6 hi, L the box diagonal."""
    src = HERE / "surface-convert" / "data" / SOURCES[name]
    mesh = meshio.read(src, file_format=READ[src.suffix])
    tets = np.concatenate([c.data for c in mesh.cells if c.type == "tetra"])
    pts = np.asarray(mesh.points, dtype=np.float64)[:, :3]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    sigma = 0.3 * float(np.linalg.norm(hi - lo))
    shape = np.exp(-np.sum((pts - (0.4 * lo + 0.6 * hi)) ** 2, axis=1) / (2.0 * sigma**2))
    out = HERE / "hyperthermia-dose" / "data" / fname
    out.parent.mkdir(parents=True, exist_ok=True)
    with meshio.xdmf.TimeSeriesWriter(out, data_format="XML") as writer:
        writer.write_points_cells(pts, [("tetra", tets)])
        for t, rise in zip(TIMES_S, RISE_C):
            writer.write_data(t, point_data={"temperature": np.round(37.0 + rise * shape, 4)})
    print(out.relative_to(HERE))


def main() -> None:
    for name, fname in SERIES.items():
        heating_series(name, fname)
    for target, decks in TARGETS.items():
        for name, fmt, suffix in decks:
            src = HERE / "surface-convert" / "data" / SOURCES[name]
            mesh = meshio.read(src, file_format=READ[src.suffix])
            cells = [(t, np.concatenate([c.data for c in mesh.cells if c.type == t])) for t in ("triangle", "tetra")]
            out = HERE / target / "data" / (name + suffix)
            out.parent.mkdir(parents=True, exist_ok=True)
            meshio.write(out, meshio.Mesh(mesh.points, cells), file_format=fmt)
            print(out.relative_to(HERE))


if __name__ == "__main__":
    main()
