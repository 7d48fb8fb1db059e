"""Converts the shipped Gmsh-made meshes (see make_meshes.py) into the solver decks the newer meshio workflows read:
NETGEN .vol, AVS-UCD .avs, Kratos .mdpa, PERMAS .post, DOLFIN XML and ANSYS .ans, each written by meshio from
the tetra and triangle cells of one shipped mesh, as a user of those codes would hand them over.

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


def main() -> None:
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
