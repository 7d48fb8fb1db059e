"""Regions from closed polylines by winding numbers: the rings of every operand are cut at all their mutual
intersections into a planar arrangement, each face gets the vector of winding numbers (one per operand), and the
result is the boundary between faces where a predicate on that vector holds and faces where it does not."""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable

import numpy as np

Ring = np.ndarray  # (n, 2), closed implicitly
Polygon = dict[str, list]  # {"exterior": ring, "holes": [ring, ...]}


def _segments(operands: list[list[Ring]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All points, and per segment its start and end point index and its operand."""
    pts, a, b, k = [], [], [], []
    base = 0
    for op, rings in enumerate(operands):
        for ring in rings:
            n = len(ring)
            pts.append(ring)
            idx = np.arange(n) + base
            a.append(idx)
            b.append(np.roll(idx, -1))
            k.append(np.full(n, op))
            base += n
    if not pts:
        return np.zeros((0, 2)), np.zeros(0, int), np.zeros(0, int), np.zeros(0, int)
    return np.vstack(pts), np.concatenate(a), np.concatenate(b), np.concatenate(k)


def _candidate_pairs(p0: np.ndarray, p1: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """Segment pairs (i < j) whose bounding boxes overlap."""
    lo, hi = np.minimum(p0, p1) - tol, np.maximum(p0, p1) + tol
    ii, jj = [], []
    for s in range(0, len(p0), 512):
        e = min(s + 512, len(p0))
        m = (lo[s:e, None, 0] <= hi[None, :, 0]) & (hi[s:e, None, 0] >= lo[None, :, 0]) & \
            (lo[s:e, None, 1] <= hi[None, :, 1]) & (hi[s:e, None, 1] >= lo[None, :, 1])
        i, j = np.nonzero(m)
        i += s
        keep = j > i
        ii.append(i[keep])
        jj.append(j[keep])
    return np.concatenate(ii), np.concatenate(jj)


def _split_events(pts: np.ndarray, a: np.ndarray, b: np.ndarray, tol: float) -> tuple[np.ndarray, list[list]]:
    """Points (original and new) and, per segment, the (parameter, point index) where it must be cut."""
    p0, p1 = pts[a], pts[b]
    ii, jj = _candidate_pairs(p0, p1, tol)
    d = p1 - p0
    ln = np.hypot(d[:, 0], d[:, 1])
    events: list[list] = [[] for _ in range(len(a))]
    extra: list[np.ndarray] = []
    npts = len(pts)
    d1, d2, r = d[ii], d[jj], p0[jj] - p0[ii]
    den = d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]
    par = np.abs(den) <= 1e-12 * ln[ii] * ln[jj]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (r[:, 0] * d2[:, 1] - r[:, 1] * d2[:, 0]) / den
        u = (r[:, 0] * d1[:, 1] - r[:, 1] * d1[:, 0]) / den
    et, eu = tol / ln[ii], tol / ln[jj]
    hit = ~par & (t >= -et) & (t <= 1 + et) & (u >= -eu) & (u <= 1 + eu)
    for i, j, ti, uj, ei, ej in zip(ii[hit], jj[hit], t[hit], u[hit], et[hit], eu[hit]):
        pid = a[i] if ti <= ei else b[i] if ti >= 1 - ei else a[j] if uj <= ej else b[j] if uj >= 1 - ej else -1
        if pid < 0:
            extra.append(p0[i] + ti * d[i])
            pid = npts + len(extra) - 1
        if ei < ti < 1 - ei:
            events[i].append((float(ti), int(pid)))
        if ej < uj < 1 - ej:
            events[j].append((float(uj), int(pid)))
    collinear = par & (np.abs(r[:, 0] * d1[:, 1] - r[:, 1] * d1[:, 0]) <= tol * ln[ii])
    for i, j in zip(ii[collinear], jj[collinear]):
        for s, o in ((i, j), (j, i)):  # endpoints of one lying inside the other
            for pid in (a[o], b[o]):
                w = float(np.dot(pts[pid] - p0[s], d[s]) / ln[s] ** 2)
                if tol / ln[s] < w < 1 - tol / ln[s]:
                    events[s].append((w, int(pid)))
    allpts = np.vstack([pts] + [np.array(extra)]) if extra else pts
    return allpts, events


def _merge_points(pts: np.ndarray, tol: float) -> np.ndarray:
    """A representative index per point: points closer than tol become one (four grids of cell 4·tol, shifted
    by half a cell along each axis: two such points share a cell in at least one of them)."""
    parent = np.arange(len(pts))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    cell = 4.0 * tol
    for shift in ((0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)):
        keys = np.floor(pts / cell + np.array(shift)).astype(np.int64)
        _, inv, cnt = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
        inv = inv.reshape(-1)
        for g in np.nonzero(cnt > 1)[0]:
            members = np.nonzero(inv == g)[0]
            for m in members[1:]:
                if np.hypot(*(pts[m] - pts[members[0]])) <= tol:
                    ra, rb = find(int(members[0])), find(int(m))
                    if ra != rb:
                        parent[max(ra, rb)] = min(ra, rb)
    return np.array([find(i) for i in range(len(pts))])


def _edges(operands: list[list[Ring]], tol: float) -> tuple[np.ndarray, dict[tuple[int, int], np.ndarray]]:
    """Points and the arrangement's edges (lo, hi) -> net traversal count per operand in the lo→hi direction."""
    pts, a, b, k = _segments(operands)
    pts, events = _split_events(pts, a, b, tol)
    rep = _merge_points(pts, tol)
    count: dict[tuple[int, int], np.ndarray] = defaultdict(lambda: np.zeros(len(operands), dtype=np.int64))
    for s in range(len(a)):
        chain = [rep[a[s]]] + [rep[p] for _, p in sorted(events[s])] + [rep[b[s]]]
        for u, v in zip(chain, chain[1:]):
            if u != v:
                count[(min(u, v), max(u, v))][k[s]] += 1 if u < v else -1
    return pts, {e: c for e, c in count.items() if c.any()}


class HalfEdges:
    """Half-edge 2e runs lo→hi of edge e, 2e+1 back; `nxt` follows the face on the left (sharpest left turn)."""

    def __init__(self, pts: np.ndarray, edges: list[tuple[int, int]]):
        self.pts = pts
        self.org = np.array([x for lo, hi in edges for x in (lo, hi)], dtype=np.int64)
        n = len(self.org)
        self.dst = self.org[np.arange(n) ^ 1]
        d = pts[self.dst] - pts[self.org]
        self.ang = np.arctan2(d[:, 1], d[:, 0])
        out: dict[int, list[int]] = defaultdict(list)
        for h in range(n):
            out[int(self.org[h])].append(h)
        self.nxt = np.zeros(n, dtype=np.int64)
        for v, hs in out.items():
            hs.sort(key=lambda h: self.ang[h])
            pos = {h: i for i, h in enumerate(hs)}
            for h in hs:  # twin h leaves v; the face on the left of (h^1) continues with the half-edge before h
                self.nxt[h ^ 1] = hs[pos[h] - 1]

    def cycles(self) -> list[list[int]]:
        seen = np.zeros(len(self.org), dtype=bool)
        out = []
        for h0 in range(len(self.org)):
            if seen[h0]:
                continue
            cyc, h = [], h0
            while not seen[h]:
                seen[h] = True
                cyc.append(h)
                h = int(self.nxt[h])
            out.append(cyc)
        return out


def signed_area(ring: np.ndarray) -> float:
    x, y = ring[:, 0], ring[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def _winding_at(p: np.ndarray, A: np.ndarray, B: np.ndarray, C: np.ndarray) -> np.ndarray:
    """Winding vector at p from edges A→B with count vectors C (rightward ray, half-open rule)."""
    up_a, up_b = A[:, 1] > p[1], B[:, 1] > p[1]
    cross = up_a != up_b
    with np.errstate(divide="ignore", invalid="ignore"):
        x = A[:, 0] + (p[1] - A[:, 1]) * (B[:, 0] - A[:, 0]) / (B[:, 1] - A[:, 1])
    hit = cross & (x > p[0])
    sign = np.where(up_b, 1, -1)
    return (C[hit] * sign[hit, None]).sum(axis=0)


def _face_windings(he: HalfEdges, counts: np.ndarray, faces: list[list[int]]) -> np.ndarray:
    """Winding vector per face: components of the edge graph are placed by a ray from one of their vertices,
    then faces inside a component follow by crossing edges (left = right + count)."""
    n_he = len(he.org)
    face_of = np.zeros(n_he, dtype=np.int64)
    for f, cyc in enumerate(faces):
        face_of[cyc] = f
    comp = _components(he)
    flow = np.where((np.arange(n_he) % 2 == 0)[:, None], counts[np.arange(n_he) // 2], -counts[np.arange(n_he) // 2])
    w = np.zeros((len(faces), counts.shape[1]), dtype=np.int64)
    done = np.zeros(len(faces), dtype=bool)
    A, B = he.pts[he.org[0::2]], he.pts[he.dst[0::2]]
    face_comp = np.array([comp[cyc[0]] for cyc in faces])
    face_area = np.array([signed_area(he.pts[he.org[cyc]]) for cyc in faces])
    for c in np.unique(comp):
        mine = comp[0::2] == c
        outer = np.nonzero((face_comp == c) & (face_area < 0))[0]
        start = int(outer[0]) if len(outer) else int(face_of[np.nonzero(comp == c)[0][0]])
        w[start] = _winding_at(he.pts[he.org[faces[start][0]]], A[~mine], B[~mine], counts[~mine])
        done[start] = True
        stack = [start]
        while stack:
            f = stack.pop()
            for h in faces[f]:
                g = int(face_of[h ^ 1])
                if not done[g]:  # g is on the left of h^1, f on its right
                    w[g] = w[f] + flow[h ^ 1]
                    done[g] = True
                    stack.append(g)
    return w


def _components(he: HalfEdges) -> np.ndarray:
    """Connected component label per half-edge."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for h in range(0, len(he.org), 2):
        ra, rb = find(int(he.org[h])), find(int(he.dst[h]))
        if ra != rb:
            parent[ra] = rb
    return np.array([find(int(v)) for v in he.org])


def _trace(pts: np.ndarray, bounds: list[tuple[int, int]]) -> list[np.ndarray]:
    """Rings from directed boundary edges (inside on the left): at a vertex take the sharpest left turn."""
    out: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for i, (u, v) in enumerate(bounds):
        out[u].append((math.atan2(pts[v][1] - pts[u][1], pts[v][0] - pts[u][0]), i))
    for v in out:
        out[v].sort()
    used = [False] * len(bounds)
    rings = []
    for i0 in range(len(bounds)):
        if used[i0]:
            continue
        ring, i = [], i0
        while not used[i]:
            used[i] = True
            u, v = bounds[i]
            ring.append(u)
            back = math.atan2(pts[u][1] - pts[v][1], pts[u][0] - pts[v][0])
            cands = out[v]
            before = [j for ang, j in cands if ang < back]  # first clockwise from `back`
            i = before[-1] if before else cands[-1][1]
        if len(ring) >= 3:
            rings.append(pts[ring])
    return rings


def _inside(p: np.ndarray, ring: np.ndarray) -> bool:
    x, y = ring[:, 0], ring[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    cross = (y > p[1]) != (yn > p[1])
    with np.errstate(divide="ignore", invalid="ignore"):
        xi = x + (p[1] - y) * (xn - x) / (yn - y)
    return bool(np.count_nonzero(cross & (xi > p[0])) % 2)


def assemble(rings: list[np.ndarray]) -> list[Polygon]:
    """Counter-clockwise rings become exteriors; each clockwise ring is a hole of the smallest exterior holding it."""
    ext = sorted((r for r in rings if signed_area(r) > 0), key=signed_area)
    polys: list[Polygon] = [{"exterior": r, "holes": []} for r in ext]
    for h in (r for r in rings if signed_area(r) < 0):
        probe = 0.5 * (h[0] + h[1])
        for p in polys:
            if _inside(probe, p["exterior"]):
                p["holes"].append(h)
                break
    return polys


def boolean(operands: list[list[Ring]], keep: Callable[[np.ndarray], bool]) -> list[Polygon]:
    """The region {p : keep(winding vector at p)} as polygons with holes."""
    allpts = [r for rings in operands for r in rings]
    if not allpts:
        return []
    span = float(np.ptp(np.vstack(allpts), axis=0).max()) or 1.0
    tol = 1e-9 * max(span, 1.0)
    pts, edges = _edges(operands, tol)
    if not edges:
        return []
    keys = list(edges)
    counts = np.array([edges[e] for e in keys])
    he = HalfEdges(pts, keys)
    faces = he.cycles()
    face_of = np.zeros(len(he.org), dtype=np.int64)
    for f, cyc in enumerate(faces):
        face_of[cyc] = f
    w = _face_windings(he, counts, faces)
    inside = np.array([bool(keep(x)) for x in w])
    bounds = []
    for e, (lo, hi) in enumerate(keys):
        left, right = inside[face_of[2 * e]], inside[face_of[2 * e + 1]]
        if left != right:
            bounds.append((lo, hi) if left else (hi, lo))
    return assemble(_trace(pts, bounds))
