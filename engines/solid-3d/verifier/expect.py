"""Expected values of a solid-3d case from OpenCASCADE: exact volume and area, the Euler characteristic of every
shell, and labelled sample points near the boundary (exact classification, at least MIN_DIST·D from the
surface, D the diagonal of the solid's bounding box). stdin {"input"} -> stdout {"expected"}."""
from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import numpy as np

import occ

OFFSET, MIN_DIST = 0.025, 0.02  # sample offset from the surface and least distance kept, in units of D
N_SURFACE, N_VOLUME = 160, 40


def point_triangle_distance(p: np.ndarray, T: np.ndarray) -> float:
    """Distance from p to the nearest of the triangles T (m, 3, 3)."""
    a, b, c = T[:, 0], T[:, 1], T[:, 2]
    n = np.cross(b - a, c - a)
    nn = np.einsum("ij,ij->i", n, n)
    ok = nn > 1e-30
    w = np.zeros(len(T))
    w[ok] = np.einsum("ij,ij->i", p - a[ok], n[ok]) / nn[ok]
    q = p - w[:, None] * n  # projection on the plane
    inside = ok.copy()
    for u, v in ((a, b), (b, c), (c, a)):
        inside &= np.einsum("ij,ij->i", np.cross(v - u, q - u), n) >= 0
    best = np.where(inside, np.abs(w) * np.sqrt(nn), np.inf)
    for u, v in ((a, b), (b, c), (c, a)):
        e = v - u
        t = np.clip(np.einsum("ij,ij->i", p - u, e) / np.maximum(np.einsum("ij,ij->i", e, e), 1e-300), 0, 1)
        best = np.minimum(best, np.linalg.norm(p - (u + t[:, None] * e), axis=1))
    return float(best.min())


def samples(shape: Any, tris: np.ndarray, diag: float, seed: int) -> tuple[list, list]:
    """Points offset ±OFFSET·D along the surface normal, plus points spread over the bounding box; those within
    MIN_DIST·D of the surface or on it are dropped. Returns (points, inside flags)."""
    rng = np.random.default_rng(seed)
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    n = np.cross(b - a, c - a)
    area = np.linalg.norm(n, axis=1)
    pick = rng.choice(len(tris), N_SURFACE, p=area / area.sum())
    r1, r2 = rng.random(N_SURFACE), rng.random(N_SURFACE)
    s = np.sqrt(r1)
    on = (1 - s)[:, None] * a[pick] + (s * (1 - r2))[:, None] * b[pick] + (s * r2)[:, None] * c[pick]
    side = np.where(np.arange(N_SURFACE) % 2 == 0, 1.0, -1.0)
    pts = on + (side * OFFSET * diag)[:, None] * n[pick] / area[pick, None]
    lo, hi = tris.reshape(-1, 3).min(0) - OFFSET * diag, tris.reshape(-1, 3).max(0) + OFFSET * diag
    pts = np.vstack([pts, lo + rng.random((N_VOLUME, 3)) * (hi - lo)])
    far = np.array([point_triangle_distance(p, tris) >= MIN_DIST * diag for p in pts])
    pts = pts[far]
    labels = occ.classify(shape, pts, 1e-7 * diag)
    keep = [i for i, lab in enumerate(labels) if lab >= 0]
    return pts[keep].tolist(), [bool(labels[i]) for i in keep]


def mesh_euler(tris: np.ndarray, diag: float) -> list[int]:
    """Per connected piece of the welded tessellation, V − E + F: a cross-check of the B-rep count."""
    key = np.round(tris.reshape(-1, 3) / (1e-9 * diag)).astype(np.int64)
    _, vid = np.unique(key, axis=0, return_inverse=True)
    F = vid.reshape(-1, 3)
    F = F[(F[:, 0] != F[:, 1]) & (F[:, 1] != F[:, 2]) & (F[:, 2] != F[:, 0])]
    E = np.sort(np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]]), axis=1)
    parent = np.arange(vid.max() + 1)
    for a, b in E:
        while parent[a] != a:
            a = parent[a]
        while parent[b] != b:
            b = parent[b]
        parent[max(a, b)] = min(a, b)
    root = np.array([r if parent[r] == r else _root(parent, r) for r in range(len(parent))])
    out = []
    for r in np.unique(root[F[:, 0]]):
        f = F[root[F[:, 0]] == r]
        e = np.unique(np.sort(np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]]), axis=1), axis=0)
        out.append(len(np.unique(f)) - len(e) + len(f))
    return sorted(out)


def _root(parent: np.ndarray, r: int) -> int:
    while parent[r] != r:
        r = parent[r]
    return r


def expected(case_input: dict[str, Any]) -> dict[str, Any]:
    tree = case_input["tree"]
    shape = occ.build(tree)
    volume, area = occ.mass(shape)
    if not occ.shell_euler(shape):  # the empty solid: only the empty mesh is right
        return {"volume": 0.0, "area": 0.0, "shells": 0, "euler": [], "diagonal": 0.0, "min_distance": 0.0,
                "points": [], "inside": []}
    diag = occ.bbox_diagonal(shape)
    tris = occ.triangulation(shape, 1e-3 * diag)
    seed = int(hashlib.sha256(json.dumps(tree, sort_keys=True).encode()).hexdigest()[:8], 16)
    pts, inside = samples(shape, tris, diag, seed)
    euler = occ.shell_euler(shape)
    if euler != mesh_euler(tris, diag):
        raise RuntimeError(f"B-rep Euler characteristics {euler} disagree with the tessellation's "
                           f"{mesh_euler(tris, diag)}: a degenerate (tangent) configuration?")
    return {"volume": volume, "area": area, "shells": len(euler), "euler": euler,
            "diagonal": diag, "min_distance": MIN_DIST * diag, "points": pts, "inside": inside}


def main() -> None:
    print(json.dumps({"expected": expected(json.load(sys.stdin)["input"])}))


if __name__ == "__main__":
    main()
