"""What the verifier recomputes from a candidate's triangle mesh alone: closed oriented 2-manifold or not, shells
and their Euler characteristics, volume, surface area, and inside/outside of points by ray casting."""
from __future__ import annotations

from typing import Any

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

MAX_FACES, MAX_VERTICES = 2_000_000, 1_000_000


class BadMesh(ValueError):
    """The output is not a triangle mesh in the spec's format, or not a closed oriented 2-manifold."""


def parse(out: Any) -> tuple[np.ndarray, np.ndarray]:
    """(vertices (n, 3) float, faces (m, 3) int) from the candidate's JSON, checked for shape and range."""
    if not isinstance(out, dict) or not isinstance(out.get("vertices"), list) or not isinstance(out.get("faces"), list):
        raise BadMesh("output needs `vertices` and `faces` lists")
    if len(out["faces"]) > MAX_FACES or len(out["vertices"]) > MAX_VERTICES:
        raise BadMesh(f"more than {MAX_FACES} faces or {MAX_VERTICES} vertices")
    if not out["faces"]:
        raise BadMesh("no faces")
    try:
        V = np.array(out["vertices"], dtype=float)
        F = np.array(out["faces"])
    except (TypeError, ValueError, OverflowError):
        raise BadMesh("vertices must be [x, y, z] numbers and faces [i, j, k] integers") from None
    if V.ndim != 2 or V.shape[1] != 3 or F.ndim != 2 or F.shape[1] != 3 or F.dtype.kind not in "iu":
        raise BadMesh("vertices must be [x, y, z] numbers and faces [i, j, k] integers")
    if not np.isfinite(V).all() or np.abs(V).max() > 1e6:
        raise BadMesh("a vertex coordinate is not finite or beyond 1e6")
    F = F.astype(np.int64)
    if F.min() < 0 or F.max() >= len(V):
        raise BadMesh("a face refers to a vertex that does not exist")
    return V, F


def manifold(F: np.ndarray) -> None:
    """Raise BadMesh unless every directed edge occurs once and its reverse once (closed, consistently
    oriented, each edge in exactly two faces) and the faces around every vertex form a single fan."""
    if ((F[:, 0] == F[:, 1]) | (F[:, 1] == F[:, 2]) | (F[:, 2] == F[:, 0])).any():
        raise BadMesh("a face repeats a vertex")
    n = int(F.max()) + 1
    src = np.concatenate([F[:, 0], F[:, 1], F[:, 2]])
    dst = np.concatenate([F[:, 1], F[:, 2], F[:, 0]])
    key = src * n + dst
    order = np.argsort(key)
    ks = key[order]
    if (ks[1:] == ks[:-1]).any():
        raise BadMesh("a directed edge occurs twice (inconsistent orientation or a non-manifold edge)")
    twin = np.searchsorted(ks, dst * n + src)
    twin = np.minimum(twin, len(ks) - 1)
    if (ks[twin] != dst * n + src).any():
        raise BadMesh("an edge has no opposite half-edge (the mesh is not closed)")
    # corners: half-edge h = (a -> b) in face f starts at a; the next corner around a is where (c -> a)'s twin
    # (a -> c) starts. One fan per vertex <=> corner components == vertices used.
    m = len(F)
    face = np.tile(np.arange(m), 3)
    pos = np.repeat(np.arange(3), m)
    prev_edge = face + ((pos + 2) % 3) * m  # the half-edge c -> a of the same face
    around = order[twin[prev_edge]]  # its twin a -> c: the next corner at a
    g = coo_matrix((np.ones(3 * m), (np.arange(3 * m), around)), shape=(3 * m, 3 * m))
    fans, _ = connected_components(g, directed=False)
    if fans != len(np.unique(F)):
        raise BadMesh(f"{fans - len(np.unique(F))} vertices where separate sheets touch (non-manifold vertex)")


def shells_euler(F: np.ndarray) -> list[int]:
    """Euler characteristic V − E + F of every connected shell, sorted (needs a closed 2-manifold)."""
    m = len(F)
    n = int(F.max()) + 1
    g = coo_matrix((np.ones(3 * m), (np.tile(np.arange(m), 3), F.T.ravel() + m)), shape=(m + n, m + n))
    _, label = connected_components(g, directed=False)
    comp = label[:m]
    out = []
    for c in np.unique(comp):
        f = F[comp == c]
        out.append(len(np.unique(f)) - 3 * len(f) // 2 + len(f))
    return sorted(out)


def volume_area(V: np.ndarray, F: np.ndarray) -> tuple[float, float]:
    a, b, c = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    vol = float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)
    area = float(np.linalg.norm(np.cross(b - a, c - a), axis=1).sum() / 2)
    return vol, area


def _crossings(V: np.ndarray, F: np.ndarray, P: np.ndarray, axis: int, cells: int = 64) -> np.ndarray:
    """Per point, how many triangles a ray from it along +axis crosses (triangles binned on a 2D grid)."""
    u, w = [i for i in range(3) if i != axis]
    T = V[F]
    lo2, hi2 = T[:, :, [u, w]].min(1), T[:, :, [u, w]].max(1)
    g0 = np.minimum(lo2.min(0), P[:, [u, w]].min(0))
    size = (np.maximum(hi2.max(0), P[:, [u, w]].max(0)) - g0) / cells + 1e-12
    i0 = np.clip(((lo2 - g0) / size).astype(np.int64), 0, cells - 1)
    i1 = np.clip(((hi2 - g0) / size).astype(np.int64), 0, cells - 1)
    span = i1 - i0 + 1
    count = span[:, 0] * span[:, 1]
    if count.sum() > 20_000_000:
        raise BadMesh("triangles too large and too many to classify points")
    tri = np.repeat(np.arange(len(F)), count)
    k = np.arange(len(tri)) - np.repeat(np.cumsum(count) - count, count)
    cell = (i0[tri, 0] + k // span[tri, 1]) * cells + i0[tri, 1] + k % span[tri, 1]
    order = np.argsort(cell, kind="stable")
    start = np.searchsorted(cell[order], np.arange(cells * cells + 1))
    pc = np.clip(((P[:, [u, w]] - g0) / size).astype(np.int64), 0, cells - 1)
    out = np.zeros(len(P), dtype=np.int64)
    for j, p in enumerate(P):
        c = pc[j, 0] * cells + pc[j, 1]
        t = tri[order[start[c]:start[c + 1]]]
        A, B, C = T[t, 0], T[t, 1], T[t, 2]
        e = [(Y[:, u] - X[:, u]) * (p[w] - X[:, w]) - (Y[:, w] - X[:, w]) * (p[u] - X[:, u])
             for X, Y in ((B, C), (C, A), (A, B))]
        tot = e[0] + e[1] + e[2]
        hit = (((e[0] >= 0) & (e[1] >= 0) & (e[2] >= 0)) | ((e[0] <= 0) & (e[1] <= 0) & (e[2] <= 0))) & (tot != 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            depth = (e[0] * A[:, axis] + e[1] * B[:, axis] + e[2] * C[:, axis]) / tot
        out[j] = int(np.count_nonzero(hit & (depth > p[axis])))
    return out


def inside(V: np.ndarray, F: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Inside flags by ray parity, majority of rays along +x, +y and +z."""
    votes = sum(_crossings(V, F, P, ax) % 2 for ax in range(3))
    return votes >= 2
