"""Size and shape statistics of a tetrahedral mesh read with meshio from a solver's or mesher's file (Gmsh 2.2
ASCII or binary, VTU, legacy VTK, Medit, Abaqus), after a non-uniform scaling: element volumes, the mean-ratio
shape quality, edge lengths and the boundary area, as one checks a mesh before a finite-element run.

Entry workflow: main(dict) -> dict; the mesh file is read on every call, no module state is mutated.
"""

import meshio
import numpy as np

EDGES = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
FORMATS = {".msh": "gmsh", ".vtu": "vtu", ".vtk": "vtk", ".mesh": "medit", ".inp": "abaqus"}  # named, never guessed


def tet_measures(points: np.ndarray, tets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per tetrahedron: volume, and mean-ratio quality 12 (3V)^(2/3) / sum of squared edge lengths (1 if regular)."""
    p = points[tets]
    vol = np.abs(np.einsum("ij,ij->i", p[:, 1] - p[:, 0], np.cross(p[:, 2] - p[:, 0], p[:, 3] - p[:, 0]))) / 6.0
    l2 = sum(np.sum((p[:, a] - p[:, b]) ** 2, axis=1) for a, b in EDGES)
    return vol, 12.0 * np.cbrt(3.0 * vol) ** 2 / l2


def unique_edge_lengths(points: np.ndarray, tets: np.ndarray) -> np.ndarray:
    edges = np.sort(np.concatenate([tets[:, [a, b]] for a, b in EDGES]), axis=1)
    edges = np.unique(edges, axis=0)
    return np.linalg.norm(points[edges[:, 0]] - points[edges[:, 1]], axis=1)


def triangle_area(points: np.ndarray, tris: np.ndarray) -> float:
    p = points[tris]
    return float(np.sum(np.linalg.norm(np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]), axis=1)) / 2.0)


def main(s: dict) -> dict:
    path = str(s["mesh"])
    mesh = meshio.read(path, file_format=FORMATS[path[path.rfind("."):]])
    pts = np.asarray(mesh.points, dtype=np.float64)[:, :3] * np.asarray(s["scale_xyz"], dtype=np.float64)
    pts = pts + np.asarray(s["offset_xyz"], dtype=np.float64)
    tets = np.concatenate([c.data for c in mesh.cells if c.type == "tetra"]).astype(np.int64)
    tris = [c.data for c in mesh.cells if c.type == "triangle"]
    tris = np.concatenate(tris).astype(np.int64) if tris else np.zeros((0, 3), dtype=np.int64)
    vol, q = tet_measures(pts, tets)
    edges = unique_edge_lengths(pts, tets)
    threshold = float(s["quality_threshold"])
    return {
        "n_points": int(len(pts)),
        "n_tetra": int(len(tets)),
        "n_triangles": int(len(tris)),
        "bounds": [*map(float, pts.min(axis=0)), *map(float, pts.max(axis=0))],
        "total_volume": float(vol.sum()),
        "volume_min": float(vol.min()),
        "volume_max": float(vol.max()),
        "quality_min": float(q.min()),
        "quality_mean": float(q.mean()),
        "n_below_threshold": int(np.count_nonzero(q < threshold)),
        "quality_quartiles": [float(v) for v in np.percentile(q, [25.0, 50.0, 75.0])],
        "edge_min": float(edges.min()),
        "edge_max": float(edges.max()),
        "boundary_area": triangle_area(pts, tris),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
