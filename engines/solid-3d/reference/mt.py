"""Marching tetrahedra on a regular grid: each cube is cut into the 6 Kuhn tetrahedra around its main diagonal,
the surface separates grid nodes where f < 0 from those where f >= 0, and every surface vertex lies on a grid
edge at the root of f found by bisection. The result is a closed, consistently oriented 2-manifold."""
from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

import numpy as np

# corner c of a cube sits at offset (c & 1, c >> 1 & 1, c >> 2 & 1); 6 tetrahedra share the diagonal 0-7
TETS = np.array([[0, 1 << a, (1 << a) | (1 << b), 7] for a, b, _ in permutations(range(3))])
CORNERS = np.array([[c & 1, c >> 1 & 1, c >> 2 & 1] for c in range(8)])
# grid offsets (in cells) tried in turn: irrational-looking, so grid nodes stay off the primitives' planes
SHIFTS = np.array([[0.1234567, 0.2345678, 0.3456789], [0.6180339, 0.4142135, 0.7320508],
                   [0.2718281, 0.8414709, 0.5772156], [0.9159655, 0.3183098, 0.1415926]])
EDGES = [(a, b) for a in range(8) for b in range(a + 1, 8) if np.abs(CORNERS[a] - CORNERS[b]).sum() == 1]
DIAGONALS = sorted({(min(int(t[i]), int(t[j])), max(int(t[i]), int(t[j]))) for t in TETS
                    for i in range(4) for j in range(i + 1, 4)})


def _parts(nodes: list[int], edges: list[tuple[int, int]]) -> int:
    label = {n: n for n in nodes}
    for _ in range(8):
        for a, b in edges:
            if a in label and b in label:
                label[a] = label[b] = min(label[a], label[b])
    return len(set(label.values()))


def _ambiguity_table() -> np.ndarray:
    """Per 8-bit corner configuration: do the Kuhn diagonals join corners that the cube's edges leave apart
    (inside or outside)? There the triangulation, not the solid, decides the topology."""
    out = np.zeros(256, dtype=bool)
    for cfg in range(256):
        ins = [c for c in range(8) if cfg >> c & 1]
        outs = [c for c in range(8) if not cfg >> c & 1]
        out[cfg] = _parts(ins, EDGES) != _parts(ins, DIAGONALS) or _parts(outs, EDGES) != _parts(outs, DIAGONALS)
    return out


AMBIGUOUS = _ambiguity_table()


def _grid(lo: np.ndarray, hi: np.ndarray, n_cells: int, shift: np.ndarray = SHIFTS[0]
          ) -> tuple[np.ndarray, float, np.ndarray]:
    """Origin, spacing and node counts of a grid covering [lo, hi] with margin."""
    h = float((hi - lo).max()) / n_cells
    origin = lo - h * (1.5 + shift)
    dims = np.ceil((hi - origin) / h).astype(int) + 2
    return origin, h, dims


def _tet_triangles(s: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For tetrahedra with corner node ids `nodes` (m, 4) and inside flags `s` (m, 4): triangles as triples of
    grid edges (pairs of node ids, inside node first), and per triangle the tet it came from."""
    tris_a, tris_b, owner = [], [], []
    cnt = s.sum(axis=1)
    for k in (1, 3):
        sel = np.nonzero(cnt == k)[0]
        if not len(sel):
            continue
        lone = np.argmax(s[sel] if k == 1 else ~s[sel], axis=1)  # the corner alone on its side
        others = np.array([[j for j in range(4) if j != i] for i in range(4)])[lone]
        a = np.take_along_axis(nodes[sel], lone[:, None], 1).repeat(3, axis=1)
        b = np.take_along_axis(nodes[sel], others, 1)
        if k == 3:
            a, b = b, a
        tris_a.append(a)
        tris_b.append(b)
        owner.append(sel)
    sel = np.nonzero(cnt == 2)[0]
    if len(sel):
        order = np.argsort(~s[sel], axis=1, kind="stable")  # two inside corners first
        q = np.take_along_axis(nodes[sel], order, 1)
        i1, i2, o1, o2 = q.T
        for tri in (((i1, o1), (i1, o2), (i2, o2)), ((i1, o1), (i2, o2), (i2, o1))):
            tris_a.append(np.stack([e[0] for e in tri], axis=1))
            tris_b.append(np.stack([e[1] for e in tri], axis=1))
            owner.append(sel)
    return np.vstack(tris_a), np.vstack(tris_b), np.concatenate(owner)


def _bisect(f: Callable[[np.ndarray], np.ndarray], pin: np.ndarray, pout: np.ndarray, steps: int) -> np.ndarray:
    """The point where f changes sign on each segment pin -> pout (f(pin) < 0 <= f(pout)): bisection, then
    the secant of the last bracket."""
    for _ in range(steps):
        mid = 0.5 * (pin + pout)
        inside = f(mid) < 0
        pin = np.where(inside[:, None], mid, pin)
        pout = np.where(inside[:, None], pout, mid)
    fa, fb = f(pin), f(pout)
    t = np.clip(np.where(fb - fa > 0, -fa / np.where(fb - fa > 0, fb - fa, 1.0), 0.5), 0.0, 1.0)
    return pin + t[:, None] * (pout - pin)


def _signs(f: Callable[[np.ndarray], np.ndarray], lo: np.ndarray, hi: np.ndarray, n_cells: int,
           shift: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Node positions, inside flags per cube corner (cubes, 8), and the number of ambiguous cubes."""
    origin, h, dims = _grid(lo, hi, n_cells, shift)
    nx, ny, nz = dims
    axes = [origin[i] + h * np.arange(dims[i]) for i in range(3)]
    X, Y, Z = np.meshgrid(*axes, indexing="ij")
    pos = np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1)
    inside = (f(pos) < 0).reshape(nx, ny, nz)
    corner_in = np.stack([inside[cx:nx - 1 + cx, cy:ny - 1 + cy, cz:nz - 1 + cz] for cx, cy, cz in CORNERS], -1)
    cfg = (corner_in.astype(np.int64) << np.arange(8)).sum(-1)
    return pos, dims, corner_in, int(AMBIGUOUS[cfg].sum())


def mesh(f: Callable[[np.ndarray], np.ndarray], lo: np.ndarray, hi: np.ndarray, n_cells: int,
         steps: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (n, 3) and outward-oriented triangles (m, 3) of the surface f = 0 inside [lo, hi], on the first
    grid offset without ambiguous cubes (else the one with fewest)."""
    best = None
    for shift in SHIFTS:
        got = _signs(f, lo, hi, n_cells, shift)
        if best is None or got[3] < best[3]:
            best = got
        if got[3] == 0:
            break
    assert best is not None
    pos, dims, corner_in, _ = best
    nx, ny, nz = dims
    active = np.nonzero(corner_in.any(-1) & ~corner_in.all(-1))
    if not len(active[0]):
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    base = np.stack(active, axis=1)  # cube's lowest corner (i, j, k)
    corner_ids = ((base[:, None, :] + CORNERS[None]) * np.array([ny * nz, nz, 1])).sum(-1)  # (cubes, 8)
    nodes = corner_ids[:, TETS].reshape(-1, 4)
    s = corner_in[active][:, TETS].reshape(-1, 4)
    ea, eb, owner = _tet_triangles(s, nodes)
    keys = np.minimum(ea, eb) * (nx * ny * nz) + np.maximum(ea, eb)
    _, first, tri = np.unique(keys.ravel(), return_index=True, return_inverse=True)
    tri = tri.reshape(-1, 3)
    # orientation from the midpoint surface (same combinatorics, never degenerate): normal toward outside
    mid = 0.5 * (pos[ea] + pos[eb])
    normal = np.cross(mid[:, 1] - mid[:, 0], mid[:, 2] - mid[:, 0])
    tet_nodes = nodes[owner]
    tet_in = s[owner]
    c_in = (pos[tet_nodes] * tet_in[..., None]).sum(1) / tet_in.sum(1, keepdims=True)
    c_out = (pos[tet_nodes] * ~tet_in[..., None]).sum(1) / (~tet_in).sum(1, keepdims=True)
    flip = (normal * (c_out - c_in)).sum(1) < 0
    tri[flip] = tri[flip][:, ::-1]
    vin, vout = pos[ea.ravel()[first]], pos[eb.ravel()[first]]
    return _bisect(f, vin, vout, steps), tri
