"""Regenerates the volume meshes the meshio workflows read: six small tetrahedral meshes made by Gmsh's
OpenCASCADE kernel, each written by meshio in a different format, as a user's solver or mesher would hand them over.

Run once with the catalog's Python (needs gmsh and meshio): `python make_meshes.py`; the files are shipped,
so the workflows themselves never call Gmsh. Gmsh's output can change between its versions; the shipped files,
not this script, are what the tasks are built from.
"""
from __future__ import annotations

from pathlib import Path

import gmsh
import meshio
import numpy as np

HERE = Path(__file__).resolve().parent
# workflow folder -> the file names it ships (None: all six)
TARGETS: dict[str, tuple[str, ...] | None] = {
    "surface-convert": None,
    "tet-quality": None,
    "xdmf-thermal": ("bracket.msh", "frustum.mesh", "stepped_shaft.inp"),
    "exodus-twist": ("pipe.msh", "lblock.vtu", "drilled_sphere.vtk"),
    "boundary-patches": ("bracket.msh", "drilled_sphere.vtk", "stepped_shaft.inp"),
    "med-layers": ("frustum.mesh", "pipe.msh", "lblock.vtu"),
    "shrink-view": ("pipe.msh", "frustum.mesh", "stepped_shaft.inp"),
    "surface-fairing": ("lblock.vtu", "drilled_sphere.vtk", "frustum.mesh"),
    "symmetry-cgns": ("lblock.vtu", "frustum.mesh", "stepped_shaft.inp"),
}


def bracket(occ) -> None:
    occ.cut([(3, occ.addBox(0, 0, 0, 4, 2, 1))], [(3, occ.addCylinder(1.2, 1, -1, 0, 0, 3, 0.5))])


def pipe(occ) -> None:
    occ.cut([(3, occ.addCylinder(0, 0, 0, 0, 0, 2, 1.0))], [(3, occ.addCylinder(0, 0, -1, 0, 0, 4, 0.6))])


def lblock(occ) -> None:
    occ.fuse([(3, occ.addBox(0, 0, 0, 3, 1, 1))], [(3, occ.addBox(0, 0, 0, 1, 1, 2.5))])


def drilled_sphere(occ) -> None:
    occ.cut([(3, occ.addSphere(0, 0, 0, 1.0))], [(3, occ.addCylinder(-2, 0, 0, 4, 0, 0, 0.35))])


def frustum(occ) -> None:
    occ.addCone(0, 0, 0, 0, 0, 1.5, 1.2, 0.5)


def stepped_shaft(occ) -> None:
    occ.fuse([(3, occ.addCylinder(0, 0, 0, 2.0, 0, 0, 0.5))], [(3, occ.addCylinder(2.0, 0, 0, 1.5, 0, 0, 0.3))])


# name -> (geometry, characteristic length, meshio format, file name)
MESHES = {
    "bracket": (bracket, 0.45, "gmsh22", "bracket.msh"),
    "pipe": (pipe, 0.35, "gmsh22-binary", "pipe.msh"),
    "lblock": (lblock, 0.4, "vtu", "lblock.vtu"),
    "drilled_sphere": (drilled_sphere, 0.3, "vtk", "drilled_sphere.vtk"),
    "frustum": (frustum, 0.3, "medit", "frustum.mesh"),
    "stepped_shaft": (stepped_shaft, 0.22, "abaqus", "stepped_shaft.inp"),
}


def tet_mesh(build, size: float) -> meshio.Mesh:
    """A first-order tetrahedral mesh (tetra cells and their boundary triangles) of one solid."""
    gmsh.initialize()
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setNumber("Mesh.CharacteristicLengthMax", size)
        gmsh.option.setNumber("Mesh.RandomSeed", 1)
        build(gmsh.model.occ)
        gmsh.model.occ.synchronize()
        gmsh.model.mesh.generate(3)
        tags, coords, _ = gmsh.model.mesh.getNodes()
        index = {int(t): i for i, t in enumerate(tags)}
        points = coords.reshape(-1, 3)
        cells = []
        for dim, name, gtype in ((2, "triangle", 2), (3, "tetra", 4)):
            _, nodes = gmsh.model.mesh.getElementsByType(gtype)
            conn = np.array([index[int(n)] for n in nodes], dtype=np.int64).reshape(-1, 3 if dim == 2 else 4)
            cells.append((name, conn))
        return meshio.Mesh(np.round(points, 12), cells)
    finally:
        gmsh.finalize()


def tagged(mesh: meshio.Mesh) -> meshio.Mesh:
    """The mesh with Gmsh's physical and geometrical tags: 1 for the boundary triangles, 2 for the volume."""
    tags = [np.full(len(c.data), 1 if c.type == "triangle" else 2, dtype=np.int32) for c in mesh.cells]
    return meshio.Mesh(mesh.points, mesh.cells, cell_data={"gmsh:physical": tags, "gmsh:geometrical": tags})


def main() -> None:
    for build, size, fmt, fname in MESHES.values():
        mesh = tet_mesh(build, size)
        for target, names in TARGETS.items():
            if names is not None and fname not in names:
                continue
            out = HERE / target / "data" / fname
            out.parent.mkdir(parents=True, exist_ok=True)
            meshio.write(out, tagged(mesh) if fmt.startswith("gmsh") else mesh, file_format=fmt.split("-")[0],
                         **({"binary": fmt.endswith("-binary")} if fmt.startswith("gmsh") else {}))
        print(fname, len(mesh.points), {c.type: len(c.data) for c in mesh.cells})


if __name__ == "__main__":
    main()
