"""The reference side of the verifier: ezdxf reads the DXF, exact formulas give areas, lengths and intersection
points (ezdxf.math constructions), shapely gives the regions (boundaries flattened 10 times finer than the
spec's chord tolerance; offsets from round-capped segment buffers)."""
from __future__ import annotations

import io
import math
from typing import Any

import ezdxf
import numpy as np
import shapely
from ezdxf.math import ConstructionArc, ConstructionCircle, ConstructionLine, Vec2, bulge_to_arc
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

FINE = 1e-4  # sagitta of the reference flattening (spec tolerance 1e-3)


class Expected(Exception):
    """The operation is one the spec answers with an error object."""


def read(dxf_text: str) -> dict[str, Any]:
    doc = ezdxf.read(io.StringIO(dxf_text))
    return {e.dxf.handle.upper(): e for e in doc.modelspace()}


def _closed(e: Any) -> bool:
    return e.dxftype() == "CIRCLE" or (e.dxftype() == "LWPOLYLINE" and e.closed)


def _poly_segments(e: Any) -> list[tuple[Vec2, Vec2, float]]:
    pts = [(Vec2(x, y), b) for x, y, b in e.get_points("xyb")]
    n = len(pts) if e.closed else len(pts) - 1
    return [(pts[i][0], pts[(i + 1) % len(pts)][0], pts[i][1]) for i in range(n)
            if not pts[i][0].isclose(pts[(i + 1) % len(pts)][0], abs_tol=0)]


def area(e: Any) -> float:
    """Shoelace of the vertices plus the signed circular segment of every bulge."""
    if not _closed(e):
        raise Expected("area of an open entity")
    if e.dxftype() == "CIRCLE":
        return math.pi * e.dxf.radius ** 2
    total = 0.0
    for p, q, b in _poly_segments(e):
        total += 0.5 * (p.x * q.y - q.x * p.y)
        if b:
            _, a0, a1, r = bulge_to_arc(p, q, b)
            theta = (a1 - a0) % math.tau or math.tau
            total += math.copysign(0.5 * r * r * (theta - math.sin(theta)), b)
    return abs(total)


def perimeter(e: Any) -> float:
    kind = e.dxftype()
    if kind == "LINE":
        return Vec2(e.dxf.start).distance(Vec2(e.dxf.end))
    if kind == "CIRCLE":
        return math.tau * e.dxf.radius
    if kind == "ARC":
        return e.dxf.radius * math.radians((e.dxf.end_angle - e.dxf.start_angle) % 360.0 or 360.0)
    total = 0.0
    for p, q, b in _poly_segments(e):
        if b:
            _, a0, a1, r = bulge_to_arc(p, q, b)
            total += r * ((a1 - a0) % math.tau or math.tau)
        else:
            total += p.distance(q)
    return total


def _pieces(e: Any) -> list[Any]:
    """ezdxf construction tools for the entity's lines, arcs and circles."""
    kind = e.dxftype()
    if kind == "LINE":
        return [ConstructionLine(Vec2(e.dxf.start), Vec2(e.dxf.end))]
    if kind == "CIRCLE":
        return [ConstructionCircle(Vec2(e.dxf.center), e.dxf.radius)]
    if kind == "ARC":
        return [e.construction_tool()]
    out = []
    for p, q, b in _poly_segments(e):
        if b:
            c, a0, a1, r = bulge_to_arc(p, q, b)
            out.append(ConstructionArc(c, r, math.degrees(a0), math.degrees(a1)))
        else:
            out.append(ConstructionLine(p, q))
    return out


def _meet(a: Any, b: Any) -> list[Vec2]:
    if isinstance(a, ConstructionLine) and isinstance(b, ConstructionLine):
        x = a.intersect(b)
        return [x] if x is not None else []
    if isinstance(a, ConstructionLine):
        a, b = b, a
    if isinstance(b, ConstructionLine):
        return list(a.intersect_line(b))
    if isinstance(a, ConstructionCircle):
        a, b = b, a
    if isinstance(b, ConstructionCircle):
        return list(a.intersect_circle(b))
    return list(a.intersect_arc(b))


def intersection_points(e1: Any, e2: Any) -> list[tuple[float, float]]:
    out: list[Vec2] = []
    for a in _pieces(e1):
        for b in _pieces(e2):
            for x in _meet(a, b):
                if all(not x.isclose(y, abs_tol=1e-7) for y in out):
                    out.append(x)
    return [(p.x, p.y) for p in out]


def polygon(e: Any) -> Polygon:
    """The closed entity's region, its boundary flattened with sagitta FINE (vertices on the true curve)."""
    if not _closed(e):
        raise Expected("region of an open entity")
    if e.dxftype() == "CIRCLE":
        return Polygon([(v.x, v.y) for v in ConstructionCircle(Vec2(e.dxf.center), e.dxf.radius).flattening(FINE)])
    ring: list[Vec2] = []
    for p, q, b in _poly_segments(e):
        ring.append(p)  # the exact vertex, then the arc's interior points in travel order
        if b:
            c, a0, a1, r = bulge_to_arc(p, q, b)
            pts = list(ConstructionArc(c, r, math.degrees(a0), math.degrees(a1)).flattening(FINE))[1:-1]
            ring.extend(pts if b > 0 else pts[::-1])
    return Polygon([(v.x, v.y) for v in ring])


def offset(e: Any, d: float) -> BaseGeometry:
    """Dilation (d > 0) or erosion (d < 0) as the region united with, or cut by, the union of the boundary
    segments' round-capped buffers (GEOS buffers a dense curved ring itself unreliably)."""
    g = polygon(e)
    if d == 0:
        return g
    c = np.asarray(g.exterior.coords)
    quad = max(8, math.ceil((math.pi / 2) / (2 * math.acos(1 - FINE / abs(d)))))
    band = shapely.union_all(shapely.buffer(shapely.linestrings(np.stack([c[:-1], c[1:]], axis=1)), abs(d),
                                            quad_segs=quad))
    return g.union(band) if d > 0 else g.difference(band)


def boolean(kind: str, ents: list[Any]) -> BaseGeometry:
    gs = [polygon(e) for e in ents]
    if kind == "union":
        return unary_union(gs)
    if kind == "intersection":
        out = gs[0]
        for g in gs[1:]:
            out = out.intersection(g)
        return out
    return gs[0].difference(unary_union(gs[1:])) if len(gs) > 1 else gs[0]


def expected(ents: dict[str, Any], op: dict[str, Any]) -> dict[str, Any]:
    """The reference answer of one operation: {"value"}, {"geometry"}, {"points"} or {"error"}."""
    try:
        kind = op["op"]
        if kind in ("area", "perimeter", "offset"):
            e = ents.get(str(op.get("entity")).upper())
            if e is None:
                raise Expected("unknown handle")
            if kind == "offset":
                return {"geometry": offset(e, float(op["distance"]))}
            return {"value": area(e) if kind == "area" else perimeter(e)}
        hs = [ents.get(str(h).upper()) for h in op["entities"]]
        if any(h is None for h in hs):
            raise Expected("unknown handle")
        if kind == "intersection_points":
            return {"points": intersection_points(hs[0], hs[1])}
        return {"geometry": boolean(kind, hs)}
    except Expected as e:
        return {"error": str(e)}
