"""Exact curve geometry of the entities: line segments and circular arcs (bulges turned into arcs), their exact
area and length, flattening by the spec's chord tolerance, and exact pairwise intersection points."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dxfread import Entity

TAU = 2.0 * math.pi
CHORD_TOL = 1e-3  # spec.md: maximum sagitta of a flattened arc, drawing units


@dataclass(frozen=True)
class Seg:
    p: tuple[float, float]
    q: tuple[float, float]


@dataclass(frozen=True)
class Arc:
    """Center c, radius r, start angle a0 (radians) and signed sweep (positive = counter-clockwise)."""

    c: tuple[float, float]
    r: float
    a0: float
    sweep: float

    def at(self, t: float) -> tuple[float, float]:
        a = self.a0 + t * self.sweep
        return (self.c[0] + self.r * math.cos(a), self.c[1] + self.r * math.sin(a))


Prim = Seg | Arc


def bulge_arc(p: tuple[float, float], q: tuple[float, float], bulge: float) -> Arc:
    """The arc from p to q whose included angle is 4·atan(bulge) (DXF LWPOLYLINE group 42)."""
    theta = 4.0 * math.atan(bulge)
    dx, dy = q[0] - p[0], q[1] - p[1]
    chord = math.hypot(dx, dy)
    s = 0.5 / math.tan(theta / 2.0)  # signed center offset from the chord midpoint, in chord lengths, to the left
    c = (0.5 * (p[0] + q[0]) - s * dy, 0.5 * (p[1] + q[1]) + s * dx)
    r = chord / (2.0 * abs(math.sin(theta / 2.0)))
    return Arc(c, r, math.atan2(p[1] - c[1], p[0] - c[0]), theta)


def primitives(ent: Entity) -> list[Prim]:
    """The entity as a chain of segments and arcs, in its own direction."""
    v = ent.values
    if ent.kind == "LINE":
        return [Seg((v[10], v[20]), (v[11], v[21]))]
    if ent.kind == "CIRCLE":
        return [Arc((v[10], v[20]), v[40], 0.0, TAU)]
    if ent.kind == "ARC":
        sweep = math.radians((v[51] - v[50]) % 360.0) or TAU
        return [Arc((v[10], v[20]), v[40], math.radians(v[50]), sweep)]
    pts = ent.vertices
    n = len(pts) if ent.closed else len(pts) - 1
    out: list[Prim] = []
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % len(pts)]
        if (a[0], a[1]) == (b[0], b[1]):
            continue
        out.append(bulge_arc((a[0], a[1]), (b[0], b[1]), b[2]) if b[2] else Seg((a[0], a[1]), (b[0], b[1])))
    return out


def is_closed(ent: Entity) -> bool:
    return ent.kind == "CIRCLE" or (ent.kind == "LWPOLYLINE" and ent.closed)


def length(prims: list[Prim]) -> float:
    return sum(math.dist(p.p, p.q) if isinstance(p, Seg) else p.r * abs(p.sweep) for p in prims)


def area(prims: list[Prim]) -> float:
    """|½∮(x dy − y dx)| over the closed chain, arcs integrated exactly (Green's theorem)."""
    total = 0.0
    for p in prims:
        if isinstance(p, Seg):
            total += p.p[0] * p.q[1] - p.q[0] * p.p[1]
        else:
            a1 = p.a0 + p.sweep
            total += p.r * p.r * p.sweep + p.r * p.c[0] * (math.sin(a1) - math.sin(p.a0)) \
                - p.r * p.c[1] * (math.cos(a1) - math.cos(p.a0))
    return abs(0.5 * total)


def arc_steps(r: float, sweep: float, tol: float = CHORD_TOL) -> int:
    """Fewest equal chords whose sagitta r·(1 − cos(φ/2)) stays within tol."""
    phi = 2.0 * math.acos(1.0 - tol / r) if tol < r else math.pi
    return max(1, math.ceil(abs(sweep) / phi - 1e-9))


def flatten(prims: list[Prim], tol: float = CHORD_TOL) -> np.ndarray:
    """The closed chain as a ring of points (start points of chords; the closing point is not repeated)."""
    pts: list[tuple[float, float]] = []
    for p in prims:
        if isinstance(p, Seg):
            pts.append(p.p)
            continue
        n = arc_steps(p.r, p.sweep, tol)
        if abs(p.sweep) >= TAU - 1e-12:
            n = max(n, 3)
        pts.extend(p.at(k / n) for k in range(n))
    return np.array(pts, dtype=float)


def _on_arc(a: Arc, x: float, y: float, eps: float = 1e-9) -> bool:
    if abs(a.sweep) >= TAU - 1e-12:
        return True
    ang = math.atan2(y - a.c[1], x - a.c[0])
    off = (ang - a.a0) % TAU if a.sweep > 0 else (a.a0 - ang) % TAU
    return off <= abs(a.sweep) + eps or off >= TAU - eps


def _seg_seg(s: Seg, t: Seg) -> list[tuple[float, float]]:
    d1 = (s.q[0] - s.p[0], s.q[1] - s.p[1])
    d2 = (t.q[0] - t.p[0], t.q[1] - t.p[1])
    den = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(den) <= 1e-14 * math.hypot(*d1) * math.hypot(*d2):
        return []  # parallel: overlaps are outside the tested subset
    r = (t.p[0] - s.p[0], t.p[1] - s.p[1])
    u = (r[0] * d2[1] - r[1] * d2[0]) / den
    v = (r[0] * d1[1] - r[1] * d1[0]) / den
    e = 1e-12
    return [(s.p[0] + u * d1[0], s.p[1] + u * d1[1])] if -e <= u <= 1 + e and -e <= v <= 1 + e else []


def _seg_arc(s: Seg, a: Arc) -> list[tuple[float, float]]:
    d = (s.q[0] - s.p[0], s.q[1] - s.p[1])
    f = (s.p[0] - a.c[0], s.p[1] - a.c[1])
    qa, qb, qc = d[0] ** 2 + d[1] ** 2, 2 * (f[0] * d[0] + f[1] * d[1]), f[0] ** 2 + f[1] ** 2 - a.r ** 2
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return []
    root = math.sqrt(disc)
    out = []
    for u in {(-qb - root) / (2 * qa), (-qb + root) / (2 * qa)}:
        x, y = s.p[0] + u * d[0], s.p[1] + u * d[1]
        if -1e-12 <= u <= 1 + 1e-12 and _on_arc(a, x, y):
            out.append((x, y))
    return out


def _arc_arc(a: Arc, b: Arc) -> list[tuple[float, float]]:
    dx, dy = b.c[0] - a.c[0], b.c[1] - a.c[1]
    dist = math.hypot(dx, dy)
    if dist == 0 or dist > a.r + b.r or dist < abs(a.r - b.r):
        return []
    along = (a.r ** 2 - b.r ** 2 + dist ** 2) / (2 * dist)
    h = math.sqrt(max(a.r ** 2 - along ** 2, 0.0))
    mx, my = a.c[0] + along * dx / dist, a.c[1] + along * dy / dist
    cands = {(mx - h * dy / dist, my + h * dx / dist), (mx + h * dy / dist, my - h * dx / dist)}
    return [p for p in cands if _on_arc(a, *p) and _on_arc(b, *p)]


def intersect(p: Prim, q: Prim) -> list[tuple[float, float]]:
    if isinstance(p, Seg):
        return _seg_seg(p, q) if isinstance(q, Seg) else _seg_arc(p, q)
    return _seg_arc(q, p) if isinstance(q, Seg) else _arc_arc(p, q)


def intersection_points(a: list[Prim], b: list[Prim], merge: float = 1e-7) -> list[tuple[float, float]]:
    """Distinct points where chain a meets chain b (a point at a chain's vertex is reported once)."""
    out: list[tuple[float, float]] = []
    for p in a:
        for q in b:
            for x in intersect(p, q):
                if all(math.dist(x, y) > merge for y in out):
                    out.append(x)
    return sorted(out)
