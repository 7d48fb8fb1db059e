"""The operations of spec.md on parsed entities: exact area, perimeter and intersection points; offsets (the
convolution of the flattened boundary with a disk, kept where its winding number is at least one) and
booleans of closed regions (winding numbers of the flattened boundaries)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

import curves
from arrangement import Polygon, boolean, signed_area
from dxfread import Entity


class OpError(ValueError):
    """An operation the spec answers with {"error": ...} (unknown handle, open entity where a region is needed)."""


def _arc_points(center: np.ndarray, r: float, a0: float, sweep: float) -> list[np.ndarray]:
    """Points of an arc of the disk, both ends included, chords within the chord tolerance."""
    n = curves.arc_steps(r, sweep)
    return [center + r * np.array([math.cos(a0 + sweep * k / n), math.sin(a0 + sweep * k / n)]) for k in range(n + 1)]


def convolution(ring: np.ndarray, d: float) -> np.ndarray:
    """The ring (region on its left) convolved with a disk of radius d > 0 on its right: offset edges joined by
    arcs at left turns and through the vertex itself at right turns (Minkowski sum = winding >= 1)."""
    n = len(ring)
    out: list[np.ndarray] = []
    for i in range(n):
        p, prev, nxt = ring[i], ring[i - 1], ring[(i + 1) % n]
        u0, u1 = p - prev, nxt - p
        u0, u1 = u0 / np.hypot(*u0), u1 / np.hypot(*u1)
        n0, n1 = np.array([u0[1], -u0[0]]), np.array([u1[1], -u1[0]])
        turn = math.atan2(u0[0] * u1[1] - u0[1] * u1[0], float(np.dot(u0, u1)))
        if turn > 1e-12:
            out.extend([p + d * n0, p + d * (n0 + n1) / (1 + float(np.dot(n0, n1))), p + d * n1])
        elif turn < -1e-12:
            out.extend([p + d * n0, p.copy(), p + d * n1])
        else:
            out.append(p + d * n0)
    return np.array(out)


def region_ring(ent: Entity) -> np.ndarray:
    """The closed entity's boundary, flattened, counter-clockwise."""
    if not curves.is_closed(ent):
        raise OpError(f"entity {ent.handle} ({ent.kind}) is not a closed region")
    ring = curves.flatten(curves.primitives(ent))
    return ring if signed_area(ring) > 0 else ring[::-1].copy()


def offset(ent: Entity, d: float) -> list[Polygon]:
    ring = region_ring(ent)
    if d == 0:
        return boolean([[ring]], lambda w: w[0] >= 1)
    if d > 0:
        return boolean([[convolution(ring, d)]], lambda w: w[0] >= 1)
    inner = convolution(ring[::-1].copy(), -d)[::-1].copy()  # the complement's dilation, turned inside out
    return boolean([[inner]], lambda w: w[0] >= 1)


KEEP = {
    "union": lambda w: bool((w >= 1).any()),
    "intersection": lambda w: bool((w >= 1).all()),
    "difference": lambda w: bool(w[0] >= 1 and not (w[1:] >= 1).any()),
}


def _entity(ents: dict[str, Entity], handle: Any) -> Entity:
    if not isinstance(handle, str) or handle.upper() not in ents:
        raise OpError(f"no entity with handle {handle!r}")
    return ents[handle.upper()]


def _handles(op: dict[str, Any], n: int) -> list[str]:
    hs = op.get("entities")
    if not isinstance(hs, list) or len(hs) < n:
        raise OpError(f"`entities` must list at least {n} handles")
    return hs


def run_op(ents: dict[str, Entity], op: dict[str, Any]) -> dict[str, Any]:
    kind = op.get("op")
    if kind == "area":
        ent = _entity(ents, op.get("entity"))
        if not curves.is_closed(ent):
            raise OpError(f"entity {ent.handle} ({ent.kind}) is not closed: no area")
        return {"value": curves.area(curves.primitives(ent))}
    if kind == "perimeter":
        return {"value": curves.length(curves.primitives(_entity(ents, op.get("entity"))))}
    if kind == "offset":
        d = op.get("distance")
        if not isinstance(d, (int, float)) or isinstance(d, bool):
            raise OpError("`distance` must be a number")
        return {"regions": offset(_entity(ents, op.get("entity")), float(d))}
    if kind in KEEP:
        rings = [[region_ring(_entity(ents, h))] for h in _handles(op, 1)]
        return {"regions": boolean(rings, KEEP[kind])}
    if kind == "intersection_points":
        a, b = (curves.primitives(_entity(ents, h)) for h in _handles(op, 2)[:2])
        return {"points": [list(p) for p in curves.intersection_points(a, b)]}
    raise OpError(f"unknown op {kind!r}")


def to_json(result: dict[str, Any]) -> dict[str, Any]:
    """Arrays to lists of [x, y]."""
    if "regions" not in result:
        return result
    return {"regions": [{"exterior": p["exterior"].tolist(), "holes": [h.tolist() for h in p["holes"]]}
                        for p in result["regions"]]}
