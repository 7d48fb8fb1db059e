"""Mesh comparator: global invariants (volume, area, bounds, Euler characteristic, watertightness, winding)
plus a bidirectional surface distance measured exactly to triangles, so facet order, vertex order
and file format never matter while a scaled, holed or dented surface does."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import struct
import threading
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ._common import (
    ArtifactConfigError,
    ArtifactResult,
    Budget,
    check,
    close,
    count_option,
    count_tokens,
    file_size,
    finish,
    load_pair,
    options_for,
    read_suffix,
    tol_value,
)

SUFFIXES = (".stl", ".obj", ".ply", ".off", ".glb")
DEFAULTS: dict[str, Any] = {
    "distance_rtol": 1e-3,  # max surface distance, relative to the reference bbox diagonal
    "samples": 2000,  # seeded surface samples per mesh (vertices are added to them)
    "seed": 0,
    # vertices used as extra probe points (a seeded subset beyond this): every one by default, the decode
    # budget bounding their number; a defect at one unprobed vertex would otherwise pass
    "max_vertex_points": 10_000_000,
    "translation_invariant": False,  # compare after moving the candidate's bbox minimum onto the reference's
}
_DEGENERATE = 1e-9  # a face whose height is below this fraction of the mesh's diagonal has no area
# Parsed meshes by content: the build and the audits compare one reference file with many others
_PARSED: OrderedDict[tuple[bytes, str], Any] = OrderedDict()
_PARSED_LOCK = threading.Lock()
_PARSED_KEEP = 64
_PAIR_BUDGET = 2_000_000  # point x triangle pairs per numpy block (~50 MB of temporaries)


_PLY_HEADER = 1 << 16  # a PLY header longer than this is refused, not searched
_GLTF_COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
_PRIMITIVE_COST = 64  # values charged per glTF primitive instance, for its per-object overhead


def _binary_stl_facets(path: Path) -> int | None:
    """The facet count of a binary STL, whose header count matches its size; None for any other file (trimesh
    reads a mismatching binary header as ASCII)."""
    with open(path, "rb") as fh:
        head = fh.read(84)
    facets = int.from_bytes(head[80:84], "little") if len(head) == 84 else -1
    return facets if os.stat(path).st_size == 84 + 50 * facets else None


def _ply_header(path: Path) -> bytes:
    """A PLY file's header, up to its end_header."""
    with open(path, "rb") as fh:
        head = fh.read(_PLY_HEADER)
    end = head.find(b"end_header")
    if end < 0:
        raise ValueError(f"no PLY end_header in the first {_PLY_HEADER} bytes")
    return head[:end]


def _stl_values(path: Path) -> int:
    """12 per facet for a binary STL, else its text tokens."""
    facets = _binary_stl_facets(path)
    return count_tokens(path) if facets is None else 12 * facets


def _ply_values(path: Path) -> int:
    """Tokens of an ASCII PLY; a binary body's byte length (no value is shorter than a byte,
    and trimesh requires the body to be exactly what the header declares)."""
    head = _ply_header(path)
    if b"format ascii" in head:
        return count_tokens(path)
    return os.stat(path).st_size - len(head)


def binary_mesh(path: Path) -> bool:
    """Whether the file stores its numbers in binary (float32 for every writer swr has met), read as mesh_values
    reads each format: a binary STL, a PLY whose header is not ascii, a GLB; OBJ and OFF are text."""
    suffix = path.suffix.lower()
    if suffix == ".stl":
        return _binary_stl_facets(path) is not None
    if suffix == ".ply":
        return b"format ascii" not in _ply_header(path)
    return suffix == ".glb"


def _item(seq: list[Any], index: Any) -> Any:
    """seq[index] for a real non-negative index only (Python's -1 is no glTF index)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(seq):
        raise ValueError(f"glTF index {index!r} out of range")
    return seq[index]


def gltf_values(doc: Any) -> int:
    """Values a glTF document makes trimesh build: every accessor once (count x components, all
    decoded, bufferless ones as zeros), plus each mesh's accessors again per node instancing it
    and once for the mesh itself."""
    sizes = []
    for acc in doc.get("accessors", []):
        count = acc["count"]
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"accessor count {count!r}")
        sizes.append(count * _GLTF_COMPONENTS[acc.get("type", "SCALAR")])
    per_mesh = []
    for mesh in doc.get("meshes", []):
        total = 0
        for prim in mesh.get("primitives", []):
            refs = [*prim.get("attributes", {}).values(), *([prim["indices"]] if "indices" in prim else [])]
            refs += [i for target in prim.get("targets", []) for i in target.values()]
            total += _PRIMITIVE_COST + sum(_item(sizes, i) for i in refs)
        per_mesh.append(total)
    instanced = sum(_item(per_mesh, node["mesh"]) for node in doc.get("nodes", []) if "mesh" in node)
    total_size: int = sum(sizes) + sum(per_mesh) + instanced
    return total_size


def _glb_values(path: Path) -> int:
    """gltf_values of a GLB's JSON chunk, read without its binary chunk."""
    with open(path, "rb") as fh:
        head = fh.read(20)
        if len(head) < 20 or head[:4] != b"glTF" or head[16:20] != b"JSON":
            raise ValueError("not a GLB file (no glTF header and JSON chunk)")
        doc = json.loads(fh.read(struct.unpack("<I", head[12:16])[0]))
    try:
        return gltf_values(doc)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"malformed glTF meshes or accessors: {exc!r}") from None


def mesh_values(path: Path, file_type: str) -> int:
    """An upper bound on the scalar values loading the file allocates, read without loading it:
    header counts for binary formats, whitespace tokens for text ones (OBJ, OFF, ASCII STL/PLY)."""
    if file_type == ".stl":
        return _stl_values(path)
    if file_type == ".ply":
        return _ply_values(path)
    if file_type == ".glb":
        return _glb_values(path)
    return count_tokens(path)


def off_arrays(data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """An OFF file's vertices and its faces fanned into triangles. trimesh's own reader hands the face indices on as
    strings, and with numpy 2 a file mixing polygon sizes (OpenSCAD's hexagon caps beside triangles) fails to load:
    a valid candidate judged unreadable. Line by line as trimesh reads it: a COFF's colours follow the values used."""
    from trimesh.geometry import triangulate_quads

    text = re.sub(r"#[^\n]*", "", data.decode("utf-8", errors="replace")).strip()
    parts = re.split(r"(COFF|OFF)", text, maxsplit=1)
    if len(parts) != 3 or parts[0].strip():
        raise ValueError("not an OFF file (no OFF header)")
    lines = [ln.split() for ln in parts[2].splitlines() if ln.strip()]
    if not lines or len(lines[0]) < 2:
        raise ValueError("OFF file without its vertex and face counts")
    n_vertices, n_faces = int(lines[0][0]), int(lines[0][1])
    if len(lines) < 1 + n_vertices + n_faces:
        raise ValueError(f"OFF file declares {n_vertices} vertices and {n_faces} faces and holds fewer")
    vertices = np.array([ln[:3] for ln in lines[1 : 1 + n_vertices]], dtype=np.float64).reshape((n_vertices, 3))
    polygons = [[int(i) for i in ln[1 : 1 + int(ln[0])]] for ln in lines[1 + n_vertices : 1 + n_vertices + n_faces]]
    faces = np.asarray(triangulate_quads([p for p in polygons if len(p) >= 3]), dtype=np.int64).reshape((-1, 3))
    if len(faces) and (faces.min() < 0 or faces.max() >= n_vertices):
        raise ValueError("OFF file has a face index outside its vertices")
    return vertices, faces


def load_mesh(path: Path, file_type: str, budget: Budget) -> Any:
    """A single Trimesh with vertices merged (STL stores each facet's corners separately).
    Size and values are admitted to the budget first; materials, textures and any file the
    mesh names beside it (a FIFO, a huge sparse file) are never read: the resolver is empty."""
    import trimesh

    file_size(path, budget)
    budget.admit("values", mesh_values(path, file_type))
    data = path.read_bytes()  # admitted above: its size and its value count
    key = (hashlib.sha256(data).digest(), file_type)
    with _PARSED_LOCK:
        hit = _PARSED.get(key)
        if hit is not None:
            _PARSED.move_to_end(key)
    if hit is not None:
        return hit.copy()
    mesh: Any
    if file_type == ".off":
        vertices, faces = off_arrays(data)
        mesh = trimesh.Trimesh(vertices=vertices, faces=faces, process=True)
    else:
        opts: dict[str, Any] = {"force": "mesh", "process": True, "skip_materials": True, "resolver": {}}
        mesh = trimesh.load(io.BytesIO(data), file_type=file_type.lstrip("."), **opts)
    if not isinstance(mesh, trimesh.Trimesh):
        raise TypeError(f"not a triangle mesh ({type(mesh).__name__})")
    mesh.merge_vertices(merge_tex=True, merge_norm=True)
    mesh.remove_unreferenced_vertices()
    if len(mesh.faces) == 0:
        raise ValueError("no triangles")
    mesh = without_degenerate(mesh)
    with _PARSED_LOCK:
        _PARSED[key] = mesh
        while len(_PARSED) > _PARSED_KEEP:
            _PARSED.popitem(last=False)
    return mesh.copy()


def degenerate_faces(mesh: Any) -> np.ndarray:
    """Mask of zero-area faces: a repeated corner, or a height below _DEGENERATE of the diagonal."""
    faces, tri = np.asarray(mesh.faces), np.asarray(mesh.triangles, dtype=np.float64)
    repeated = (faces[:, 0] == faces[:, 1]) | (faces[:, 1] == faces[:, 2]) | (faces[:, 0] == faces[:, 2])
    longest = np.linalg.norm(tri - np.roll(tri, 1, axis=1), axis=2).max(axis=1)
    twice_area = np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)
    height = twice_area / np.where(longest > 0, longest, 1.0)
    mask: np.ndarray = repeated | (height <= _DEGENERATE * float(mesh.scale))
    return mask


def without_degenerate(mesh: Any) -> Any:
    """The mesh without its zero-area faces, which add no surface but open edges; kept only when
    they are what closes it (a T-junction filled by a sliver)."""
    bad = degenerate_faces(mesh)
    if not bad.any() or bad.all():
        return mesh
    cleaned = mesh.copy()
    cleaned.update_faces(~bad)
    cleaned.remove_unreferenced_vertices()
    return cleaned if cleaned.is_watertight or not mesh.is_watertight else mesh


def _points_to_triangles_sq(p: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """Exact squared distance from each point (n,3) to each triangle (m,3,3): (n,m).
    Interior projection when it falls inside, else the nearest of the three edges as segments
    (robust for degenerate triangles, where the interior case simply never applies)."""
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    pp = p[:, None, :]
    best: np.ndarray | None = None
    for s, e in ((a, b), (b, c), (c, a)):
        d = e - s
        dd = np.einsum("ij,ij->i", d, d)
        t = np.einsum("nmj,mj->nm", pp - s, d) / np.where(dd > 0, dd, 1.0)
        t = np.clip(t, 0.0, 1.0)
        diff = pp - s - t[..., None] * d
        dist = np.einsum("nmj,nmj->nm", diff, diff)
        best = dist if best is None else np.minimum(best, dist)
    n = np.cross(b - a, c - a)
    nn = np.einsum("ij,ij->i", n, n)
    ok = nn > 0
    h = np.einsum("nmj,mj->nm", pp - a, n) / np.where(ok, nn, 1.0)  # signed height / |n|^2
    q = pp - h[..., None] * n  # projection onto the plane
    inside = ok[None, :]
    for s, e in ((a, b), (b, c), (c, a)):
        side = np.einsum("nmj,mj->nm", np.cross(e - s, q - s), n)
        inside = inside & (side >= 0)
    plane = h * h * nn
    assert best is not None  # three edges
    return np.where(inside, np.minimum(best, plane), best)


def distance_numpy(points: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Exact point-to-surface distance by brute force in blocks: the fallback without rtree."""
    points = np.asarray(points, dtype=np.float64)
    triangles = np.asarray(triangles, dtype=np.float64)
    out = np.full(len(points), np.inf)
    fstep = min(len(triangles), 20_000) or 1
    pstep = max(1, _PAIR_BUDGET // fstep)
    for f0 in range(0, len(triangles), fstep):
        tri = triangles[f0 : f0 + fstep]
        for p0 in range(0, len(points), pstep):
            d = _points_to_triangles_sq(points[p0 : p0 + pstep], tri).min(axis=1)
            np.minimum(out[p0 : p0 + pstep], d, out=out[p0 : p0 + pstep])
    dist: np.ndarray = np.sqrt(out)
    return dist


def surface_distance(points: np.ndarray, mesh: Any, backend: str = "auto") -> np.ndarray:
    """Exact distance from points to a mesh's triangles: trimesh.proximity (rtree + scipy) when
    available, else the numpy brute force. Never a point-to-sample distance."""
    if backend not in ("auto", "trimesh", "numpy"):
        raise ArtifactConfigError(f"unknown distance backend {backend!r}")
    if backend != "numpy":
        try:
            import rtree  # noqa: F401
            import scipy.spatial  # noqa: F401
            from trimesh.proximity import closest_point
        except ImportError:
            if backend == "trimesh":
                raise
        else:
            return np.asarray(closest_point(mesh, points)[1], dtype=np.float64)
    return distance_numpy(points, mesh.triangles)


def surface_samples(mesh: Any, samples: int, seed: int) -> np.ndarray:
    """Seeded area-weighted points on the surface."""
    import trimesh

    return np.asarray(trimesh.sample.sample_surface(mesh, samples, seed=seed)[0], dtype=np.float64)


def probe_vertices(mesh: Any, seed: int, max_vertices: int) -> np.ndarray:
    """The mesh's vertices, or a seeded subset of max_vertices of them when there are more."""
    verts = np.asarray(mesh.vertices, dtype=np.float64)
    if len(verts) > max_vertices:
        rng = np.random.default_rng(seed)
        verts = verts[np.sort(rng.choice(len(verts), max_vertices, replace=False))]
    return verts


def vertex_distance(verts: np.ndarray, mesh: Any, tol: float) -> np.ndarray:
    """Distance from each vertex to the mesh's surface, exact wherever it could exceed `tol`: the surface passes
    through its own vertices, so the distance to the nearest of them (a KD-tree query over all) bounds the
    distance to the surface; only vertices whose bound exceeds `tol` are measured exactly. Every vertex is
    thereby covered at the cost of those few (the same tessellation costs none); the others report their bound."""
    if len(verts) == 0:
        return np.zeros(0)
    try:
        from scipy.spatial import cKDTree
    except ImportError:
        return surface_distance(verts, mesh)
    bound = np.asarray(cKDTree(np.asarray(mesh.vertices, dtype=np.float64)).query(verts)[0], dtype=np.float64)
    far = ~(bound <= tol)
    if far.any():
        bound[far] = surface_distance(verts[far], mesh)
    return bound


def _probe_distance(src: Any, dst: Any, samples: int, seed: int, max_vertices: int, tol: float) -> np.ndarray:
    """Distances from src's surface samples and vertices (where dents and spikes peak) to dst's surface."""
    pts = surface_distance(surface_samples(src, samples, seed), dst)
    return np.concatenate([pts, vertex_distance(probe_vertices(src, seed, max_vertices), dst, tol)])


def _summary(mesh: Any) -> dict[str, Any]:
    """The invariants compared, computed once per mesh."""
    return {
        "volume": float(mesh.volume),
        "area": float(mesh.area),
        "bounds": np.asarray(mesh.bounds, dtype=np.float64),
        "euler": int(mesh.euler_number),
        "watertight": bool(mesh.is_watertight),
        "winding": surface_winding(mesh),
    }


def surface_winding(mesh: Any) -> str:
    """How the facets are wound: `outward` or `inward` (consistent, and the signed volume of the divergence
    theorem is positive or negative), `consistent` (an open surface wound alike), or `inconsistent` (some
    edge is crossed the same way by both of its facets). trimesh's volume and area ignore this: a box whose
    y- and z-facing facets point inward has the right volume, area and surface."""
    if not mesh.is_winding_consistent:
        return "inconsistent"
    if not mesh.is_watertight:
        return "consistent"
    tri = np.asarray(mesh.triangles, dtype=np.float64)
    signed = float(np.einsum("ij,ij->i", tri[:, 0], np.cross(tri[:, 1], tri[:, 2])).sum()) / 6.0
    return "outward" if signed > 0 else "inward"


def surface_volume(mesh: Any) -> float | None:
    """The volume a surface encloses whatever its facets' winding: each connected piece re-wound consistently
    and its |signed volume| summed. None when a piece is open or cannot be wound consistently: then no volume
    belongs to the surface (the signed sum changes with the winding of any facet)."""
    import trimesh

    if not mesh.is_watertight:  # then some piece is open (each piece of a watertight surface is closed)
        return None
    total = 0.0
    for piece in mesh.split(only_watertight=False):
        trimesh.repair.fix_winding(piece)
        if not piece.is_winding_consistent:
            return None
        total += abs(float(piece.volume))
    return total


def _volume_check(ref: Any, cand: Any, r: dict[str, Any], c: dict[str, Any], tol_vol: float) -> dict[str, Any]:
    """Signed volumes where the reference is wound consistently (its winding is then graded too); where it is
    not, the volume each surface encloses (`surface_volume`), or no volume when the reference's has none."""
    if r["winding"] != "inconsistent":
        return check(close(r["volume"], c["volume"], tol_vol), r["volume"], c["volume"], tol_vol)
    rv = surface_volume(ref)
    if rv is None:
        return check(True, None, None, tol_vol, skipped="the reference is open and wound inconsistently: no volume")
    cv = surface_volume(cand)
    ok = cv is not None and close(rv, cv, tol_vol)
    return check(ok, rv, cv, tol_vol, note="volume enclosed by each surface re-wound consistently")


def compare_mesh(
    reference: Path, candidate: Path, atol: float, rtol: float, options: Mapping[str, Any] | None = None
) -> ArtifactResult:
    """Invariants within tolerances scaled by the reference diagonal d (lengths rtol·d, area
    rtol·d², volume rtol·d³, each plus atol); topology exact; max surface distance ≤ atol + distance_rtol·d."""
    opts = options_for("mesh", options, DEFAULTS)
    d_rtol = tol_value("distance_rtol", opts["distance_rtol"])
    samples = count_option("samples", opts["samples"], 1, 1_000_000)
    seed = count_option("seed", opts["seed"], 0, 2**32 - 1)
    max_vertices = count_option("max_vertex_points", opts["max_vertex_points"], 0, 10_000_000)
    if not isinstance(opts["translation_invariant"], bool):
        raise ArtifactConfigError(f"translation_invariant must be true or false, got {opts['translation_invariant']!r}")
    pair = load_pair(
        "mesh",
        reference,
        lambda b: load_mesh(reference, reference.suffix.lower(), b),
        lambda b: load_mesh(candidate, read_suffix(candidate, reference, SUFFIXES), b),
    )
    if isinstance(pair, ArtifactResult):
        return pair
    ref, cand = pair
    shift = None
    if opts["translation_invariant"]:  # a rigid translation of the reference is the same answer
        shift = np.asarray(ref.bounds[0], dtype=np.float64) - np.asarray(cand.bounds[0], dtype=np.float64)
        cand.apply_translation(shift)

    r, c = _summary(ref), _summary(cand)
    diag = float(np.linalg.norm(r["bounds"][1] - r["bounds"][0]))
    tol_len, tol_area, tol_vol = atol + rtol * diag, atol + rtol * diag**2, atol + rtol * diag**3
    bounds_ok = all(close(float(x), float(y), tol_len) for x, y in zip(r["bounds"].ravel(), c["bounds"].ravel()))
    checks = {
        "watertight": check(r["watertight"] == c["watertight"], r["watertight"], c["watertight"]),
        "euler": check(r["euler"] == c["euler"], r["euler"], c["euler"]),
        # a consistently wound reference demands the same winding; an inconsistent one demands nothing of it,
        # and its volume is then the one its surface encloses
        "winding": check(
            r["winding"] == c["winding"] if r["winding"] != "inconsistent" else True, r["winding"], c["winding"]
        ),
        "bounds": check(bounds_ok, r["bounds"], c["bounds"], tol_len),
        "area": check(close(r["area"], c["area"], tol_area), r["area"], c["area"], tol_area),
        "volume": _volume_check(ref, cand, r, c, tol_vol),
    }
    if shift is not None:
        checks["translation"] = check(True, None, -shift, None, note="the candidate's offset, removed before comparing")
    tol_dist = atol + d_rtol * diag
    if not all(checks[k]["ok"] for k in ("watertight", "euler", "bounds", "winding")):
        # already wrong in topology or extent: measuring far-apart surfaces is the slow case, and moot
        checks["distance"] = check(True, 0.0, None, tol_dist, skipped="topology or bounds already differ")
        return finish("mesh", checks)
    fwd = _probe_distance(ref, cand, samples, seed, max_vertices, tol_dist)
    back = _probe_distance(cand, ref, samples, seed, max_vertices, tol_dist)
    worst = float(max(fwd.max(), back.max()))
    checks["distance"] = check(
        bool(np.isfinite(worst)) and worst <= tol_dist,
        0.0,
        worst,
        tol_dist,
        reference_to_candidate_max=float(fwd.max()),
        candidate_to_reference_max=float(back.max()),
        reference_to_candidate_mean=float(fwd.mean()),
        candidate_to_reference_mean=float(back.mean()),
        diagonal=diag,
    )
    return finish("mesh", checks)
