"""Mesh comparator: global invariants (volume, area, bounds, Euler characteristic, watertightness)
plus a bidirectional surface distance measured exactly to triangles, so facet order, vertex order
and file format never matter while a scaled, holed or dented surface does."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ._common import (
    ArtifactConfigError,
    ArtifactResult,
    check,
    close,
    count_option,
    finish,
    load_pair,
    options_for,
    read_suffix,
    tol_value,
)

SUFFIXES = (".stl", ".obj", ".ply", ".off", ".glb")
DEFAULTS: dict[str, Any] = {
    "distance_rtol": 1e-3,      # max surface distance, relative to the reference bbox diagonal
    "samples": 2000,            # seeded surface samples per mesh (vertices are added to them)
    "seed": 0,
    "max_vertex_points": 10000,  # vertices used as extra probe points, a seeded subset beyond this
}
_PAIR_BUDGET = 2_000_000  # point x triangle pairs per numpy block (~50 MB of temporaries)


def load_mesh(path: Path, file_type: str) -> Any:
    """A single Trimesh with vertices merged (STL stores each facet's corners separately)."""
    import trimesh

    mesh = trimesh.load(str(path), file_type=file_type.lstrip("."), force="mesh", process=True)
    if not isinstance(mesh, trimesh.Trimesh):
        raise TypeError(f"not a triangle mesh ({type(mesh).__name__})")
    mesh.merge_vertices(merge_tex=True, merge_norm=True)
    mesh.remove_unreferenced_vertices()
    if len(mesh.faces) == 0:
        raise ValueError("no triangles")
    return mesh


def _points_to_triangles_sq(p: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """Exact squared distance from each point (n,3) to each triangle (m,3,3): (n,m).
    Interior projection when it falls inside, else the nearest of the three edges as segments
    (robust for degenerate triangles, where the interior case simply never applies)."""
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    pp = p[:, None, :]
    best = None
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
    return np.where(inside, np.minimum(best, plane), best)


def distance_numpy(points: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Exact point-to-surface distance by brute force in blocks: the fallback without rtree."""
    points = np.asarray(points, dtype=np.float64)
    triangles = np.asarray(triangles, dtype=np.float64)
    out = np.full(len(points), np.inf)
    fstep = min(len(triangles), 20_000) or 1
    pstep = max(1, _PAIR_BUDGET // fstep)
    for f0 in range(0, len(triangles), fstep):
        tri = triangles[f0:f0 + fstep]
        for p0 in range(0, len(points), pstep):
            d = _points_to_triangles_sq(points[p0:p0 + pstep], tri).min(axis=1)
            np.minimum(out[p0:p0 + pstep], d, out=out[p0:p0 + pstep])
    return np.sqrt(out)


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


def probe_points(mesh: Any, samples: int, seed: int, max_vertices: int) -> np.ndarray:
    """Seeded area-weighted surface samples plus the vertices (where dents and spikes peak)."""
    import trimesh

    pts = np.asarray(trimesh.sample.sample_surface(mesh, samples, seed=seed)[0], dtype=np.float64)
    verts = np.asarray(mesh.vertices, dtype=np.float64)
    if len(verts) > max_vertices:
        rng = np.random.default_rng(seed)
        verts = verts[np.sort(rng.choice(len(verts), max_vertices, replace=False))]
    return np.vstack([pts, verts])


def _summary(mesh: Any) -> dict[str, Any]:
    """The invariants compared, computed once per mesh."""
    return {
        "volume": float(mesh.volume), "area": float(mesh.area),
        "bounds": np.asarray(mesh.bounds, dtype=np.float64),
        "euler": int(mesh.euler_number), "watertight": bool(mesh.is_watertight),
    }


def compare_mesh(reference: Path, candidate: Path, atol: float, rtol: float,
                 options: Mapping[str, Any] | None = None) -> ArtifactResult:
    """Invariants within tolerances scaled by the reference diagonal d (lengths rtol·d, area
    rtol·d², volume rtol·d³, each plus atol); topology exact; max surface distance ≤ atol + distance_rtol·d."""
    opts = options_for("mesh", options, DEFAULTS)
    d_rtol = tol_value("distance_rtol", opts["distance_rtol"])
    samples = count_option("samples", opts["samples"], 1, 1_000_000)
    seed = count_option("seed", opts["seed"], 0, 2**32 - 1)
    max_vertices = count_option("max_vertex_points", opts["max_vertex_points"], 0, 10_000_000)
    pair = load_pair("mesh", reference, lambda: load_mesh(reference, reference.suffix.lower()),
                     lambda: load_mesh(candidate, read_suffix(candidate, reference, SUFFIXES)))
    if isinstance(pair, ArtifactResult):
        return pair
    ref, cand = pair

    r, c = _summary(ref), _summary(cand)
    diag = float(np.linalg.norm(r["bounds"][1] - r["bounds"][0]))
    tol_len, tol_area, tol_vol = atol + rtol * diag, atol + rtol * diag**2, atol + rtol * diag**3
    bounds_ok = all(close(float(x), float(y), tol_len)
                    for x, y in zip(r["bounds"].ravel(), c["bounds"].ravel()))
    checks = {
        "watertight": check(r["watertight"] == c["watertight"], r["watertight"], c["watertight"]),
        "euler": check(r["euler"] == c["euler"], r["euler"], c["euler"]),
        "bounds": check(bounds_ok, r["bounds"], c["bounds"], tol_len),
        "area": check(close(r["area"], c["area"], tol_area), r["area"], c["area"], tol_area),
        "volume": check(close(r["volume"], c["volume"], tol_vol), r["volume"], c["volume"], tol_vol),
    }
    tol_dist = atol + d_rtol * diag
    if not all(checks[k]["ok"] for k in ("watertight", "euler", "bounds")):
        # already wrong in topology or extent: measuring far-apart surfaces is the slow case, and moot
        checks["distance"] = check(True, 0.0, None, tol_dist, skipped="topology or bounds already differ")
        return finish("mesh", checks)
    fwd = surface_distance(probe_points(ref, samples, seed, max_vertices), cand)
    back = surface_distance(probe_points(cand, samples, seed, max_vertices), ref)
    worst = float(max(fwd.max(), back.max()))
    checks["distance"] = check(
        bool(np.isfinite(worst)) and worst <= tol_dist, 0.0, worst, tol_dist,
        reference_to_candidate_max=float(fwd.max()), candidate_to_reference_max=float(back.max()),
        reference_to_candidate_mean=float(fwd.mean()), candidate_to_reference_mean=float(back.mean()),
        diagonal=diag,
    )
    return finish("mesh", checks)
