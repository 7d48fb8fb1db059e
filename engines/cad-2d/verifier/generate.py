"""Hidden cad-2d cases from a seed: stdin {"seed": n} -> stdout {"cases": [...]}. Five drawings, the kinds of
the fixed cases they replace (a dumbbell whose offsets split, vanish and grow; a C shape with bulged edges whose
opening an offset closes into a hole; a rosette of overlapping circles with a square and a slot; two bulged
outlines with an arc and an open bulged polyline; a keyed hub with a bar, a line, a wrapping arc and erroneous
operations), each drawn afresh: every size, the offsets (kept well away from the distances where the topology
changes), the crossing curves, the drawing's rotation and position, the polylines' direction and first vertex,
handles and their letter case, entity, group and operation order, closed flags with other bits set. The rules
of the spec stay exercised: bulges on start vertices and their sign, ARC sweeps across 0 degrees, the closed
flag's bit 1, errors for open entities and unknown handles, round joins of a grown outline. The engine is scored
per operation and passes at 40 of 42 (engine.toml [score]), so each rule decides three or more operations (the
area of an open entity is asked in three drawings, of a LINE, an ARC and an open polyline or ARC), and so do the
straight-segment crossings (a LINE across a bulged outline, a bulged polyline across one, a LINE across a bar)."""
from __future__ import annotations

import json
import math
import random
import sys
from typing import Any

Ent = dict[str, Any]  # {"kind", ...geometry in local coordinates}
Op = dict[str, Any]
MARGIN = 0.3  # least distance of a tested crossing from a vertex, an arc end or a tangency


# ---- geometry helpers -------------------------------------------------------------------------------------


def poly(verts: list[tuple[float, float, float]], closed: bool = True) -> Ent:
    return {"kind": "LWPOLYLINE", "verts": [list(v) for v in verts], "closed": closed}


def rect(x0: float, y0: float, x1: float, y1: float) -> Ent:
    return poly([(x0, y0, 0), (x1, y0, 0), (x1, y1, 0), (x0, y1, 0)])


def circle(cx: float, cy: float, r: float) -> Ent:
    return {"kind": "CIRCLE", "c": [cx, cy], "r": r}


def line_clear(p: tuple[float, float], q: tuple[float, float], ent: Ent) -> bool:
    """The line p-q crosses ent only transversally, far from its vertices, arc ends and tangencies (the
    spec's tested subset), and its own ends lie away from ent's curves."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy)

    def dist(x: float, y: float) -> float:  # to the infinite line
        return abs((x - p[0]) * dy - (y - p[1]) * dx) / n

    if ent["kind"] == "CIRCLE":
        return abs(dist(*ent["c"]) - ent["r"]) > MARGIN and all(abs(math.dist(e, ent["c"]) - ent["r"]) > 1 for e in (p, q))
    vs = ent["verts"]
    if any(dist(v[0], v[1]) < MARGIN for v in vs):
        return False
    for i, v in enumerate(vs):
        w = vs[(i + 1) % len(vs)]
        if v[2]:
            c, r = bulge_center(v, w)
            if abs(dist(*c) - r) < MARGIN:
                return False
    return True


def bulge_center(v: list[float], w: list[float]) -> tuple[tuple[float, float], float]:
    """Center and radius of the bulge arc from v to w (spec section 2)."""
    theta = 4 * math.atan(v[2])
    dx, dy = w[0] - v[0], w[1] - v[1]
    c = math.hypot(dx, dy)
    k = 0.5 / math.tan(theta / 2)
    return ((v[0] + w[0]) / 2 - k * dy, (v[1] + w[1]) / 2 + k * dx), c / (2 * abs(math.sin(theta / 2)))


def reversed_poly(ent: Ent) -> Ent:
    """The same curve traversed the other way: vertex order reversed, each bulge negated and moved to its
    segment's new start vertex."""
    vs, n = ent["verts"], len(ent["verts"])
    out = [[vs[n - 1 - k][0], vs[n - 1 - k][1], -vs[(n - 2 - k) % n][2]] for k in range(n)]
    if not ent["closed"]:
        out[-1][2] = 0.0
    return {**ent, "verts": out}


def rolled(ent: Ent, k: int) -> Ent:
    """A closed polyline started at its k-th vertex."""
    return {**ent, "verts": ent["verts"][k:] + ent["verts"][:k]}


# ---- the drawings (local coordinates; ops name entities by key) -------------------------------------------


def dumbbell(rng: random.Random) -> tuple[dict[str, Ent], list[Op]]:
    """Two pads joined by a neck: shrunk past the neck's half-width it splits, past every pad's it vanishes;
    grown it keeps one component with round corners; a disk inside a pad makes a hole."""
    w1, w2, h, neck_len = rng.uniform(8, 13), rng.uniform(8, 13), rng.uniform(8, 12), rng.uniform(6, 12)
    n = rng.uniform(2.5, 4)
    y0 = (h - n) / 2 + rng.uniform(-1, 1)
    x1, x2 = w1, w1 + neck_len
    W = x2 + w2
    body = poly([(0, 0, 0), (x1, 0, 0), (x1, y0, 0), (x2, y0, 0), (x2, 0, 0), (W, 0, 0), (W, h, 0), (x2, h, 0),
                 (x2, y0 + n, 0), (x1, y0 + n, 0), (x1, h, 0), (0, h, 0)])
    body["flags"] = 129  # closed, and the linetype-generation bit: only bit 1 means closed
    inner = min(h, w1, w2) / 2
    split = -(n / 2 + rng.uniform(0.3, 0.7) * (inner - n / 2))
    vanish = -(max(h, w1, w2) / 2 + rng.uniform(0.3, 1.5))
    r = rng.uniform(1.5, min(w1, h) / 2 - 1)
    hole = circle(rng.uniform(r + 0.6, w1 - r - 0.6), rng.uniform(r + 0.6, h - r - 0.6), r)
    while True:  # a disk crossing pad 2's top and right edges, clear of its corners
        a, b, rc = rng.uniform(1, 3), rng.uniform(1, 3), rng.uniform(1.5, 4.5)
        corner = math.hypot(a, b)
        if rc > max(a, b) + MARGIN and abs(rc - corner) > MARGIN and rc < min(w2 - a, h - b) - MARGIN:
            break
    cross = circle(W - a, h - b, rc)
    ents = {"body": body, "hole": hole, "cross": cross}
    ops = [{"id": "split", "op": "offset", "entity": "body", "distance": split},
           {"id": "vanish", "op": "offset", "entity": "body", "distance": vanish},
           {"id": "grow", "op": "offset", "entity": "body", "distance": rng.uniform(1.3, 2.0)},
           {"id": "p", "op": "perimeter", "entity": "body"},
           {"id": "ring", "op": "difference", "entities": ["body", "hole"]},
           {"id": "x", "op": "intersection_points", "entities": ["cross", "body"]}]
    return ents, ops


def c_shape(rng: random.Random) -> tuple[dict[str, Ent], list[Op]]:
    """A C shape, its right arm bulged outwards and its top edge inwards: grown by more than half its opening
    the opening closes into a hole; grown by less it stays open; shrunk a little it stays one piece."""
    t, g = rng.uniform(4, 6), rng.uniform(3, 5)
    closed_d = g / 2 + rng.uniform(0.4, 1.2)
    thin = rng.uniform(0.8, 1.4)
    S = 2 * t + 2 * closed_d + rng.uniform(2, 6)
    xo, ya = S - t, S / 2 - g / 2
    b1 = rng.uniform(0.15, 0.4)
    b2 = -min(rng.uniform(0.1, 0.3), (t - 2 * thin - 1) * 2 / S)  # sagitta |b| S / 2 leaves the top wall > 2 thin
    body = poly([(0, 0, 0), (S, 0, b1), (S, ya, 0), (xo, ya, 0), (xo, t, 0), (t, t, 0), (t, S - t, 0), (xo, S - t, 0),
                 (xo, S - ya, 0), (S, S - ya, 0), (S, S, b2), (0, S, 0)])
    while True:
        p = (-rng.uniform(1, 4), S / 2 + rng.uniform(-S / 4, S / 4))
        q = (S + rng.uniform(2, 5), S / 2 + rng.uniform(-S / 4, S / 4))
        if line_clear(p, q, body):
            break
    ents = {"body": body, "cut": {"kind": "LINE", "p": list(p), "q": list(q)}}
    ops = [{"id": "closed", "op": "offset", "entity": "body", "distance": closed_d},
           {"id": "open", "op": "offset", "entity": "body", "distance": rng.uniform(0.4, g / 2 - 0.5)},
           {"id": "thin", "op": "offset", "entity": "body", "distance": -thin},
           {"id": "a", "op": "area", "entity": "body"},
           {"id": "p", "op": "perimeter", "entity": "body"},
           {"id": "x", "op": "intersection_points", "entities": ["cut", "body"]},
           {"id": "open_area", "op": "area", "entity": "cut"}]
    return ents, ops


def rosette(rng: random.Random) -> tuple[dict[str, Ent], list[Op]]:
    """k overlapping disks on a ring (their union has a hole), a square around them and a slot with round ends
    across them, poking out of the square."""
    while True:
        k, R = rng.randint(5, 8), rng.uniform(8, 12)
        half = R * math.sin(math.pi / k)  # half the distance between neighbouring centres
        r = rng.uniform(half + 0.8, half + 4)
        if R * math.cos(math.pi / k) - math.sqrt(r * r - half * half) > 1.0:  # the ring keeps its hole
            break
    phase = rng.uniform(0, 360 / k) * math.pi / 180
    disks = {f"d{j}": circle(R * math.cos(phase + 2 * math.pi * j / k), R * math.sin(phase + 2 * math.pi * j / k), r)
             for j in range(k)}
    hx, hy = R + r + rng.uniform(0.8, 3), R + r + rng.uniform(0.8, 3)
    square = rect(-hx, -hy, hx, hy)
    while True:
        w, L = rng.uniform(1, 2.5), hx + rng.uniform(0.5, 2)
        slot = poly([(-L, -w, 0), (L, -w, 1.0), (L, w, 0), (-L, w, 1.0)])
        if all(line_clear((-L - 5, y), (L + 5, y), d) for y in (-w, w) for d in disks.values()) and \
                all(abs(math.hypot(abs(d["c"][0]) - L, d["c"][1]) - w - d["r"]) > 1 for d in disks.values()):
            break
    crossing = min(disks, key=lambda name: abs(disks[name]["c"][1]))  # it crosses the slot's straight edges
    ents = {**disks, "square": square, "slot": slot}
    names = list(disks)
    ops = [{"id": "ring", "op": "union", "entities": names},
           {"id": "holes", "op": "difference", "entities": ["square", *names]},
           {"id": "bits", "op": "intersection", "entities": ["slot", "square"]},
           {"id": "slot_cut", "op": "difference", "entities": ["square", "slot", names[1], names[k // 2 + 1]]},
           {"id": "x", "op": "intersection_points", "entities": ["slot", crossing]},
           {"id": "a", "op": "area", "entity": "slot"}]
    return ents, ops


def waves(rng: random.Random, theta: float) -> tuple[dict[str, Ent], list[Op]]:
    """Two outlines with bulges of both signs, overlapping (their union, intersection and difference), one grown
    and one shrunk; an arc and an open bulged polyline crossing them. Vertices and bulges jitter around a shape
    known to keep these topologies. The arc's 60 degree gap faces away from the world's +x direction (the drawing
    turns by theta), so that it runs across 0 degrees, its start angle above its end angle, as keyway's does: two drawings
    decide the ARC's sweep rule on three or more operations."""
    def j(x: float) -> float:
        return x + rng.uniform(-0.3, 0.3)

    def jb(b: float) -> float:
        return b + rng.uniform(-0.08, 0.08)

    s = rng.uniform(0.8, 1.6)  # scale of the whole drawing (the offsets scale with it)
    a = poly([(0, 0, 0), (j(3), 0, jb(-0.6)), (j(6), 0, 0), (10, 0, jb(0.7)), (10, j(3), 0), (10, 7, jb(-0.9)),
              (j(8), 7, 0), (0, 7, jb(0.35))])
    b = poly([(j(1), j(-2), jb(0.25)), (j(7.5), j(-1.5), jb(-0.3)), (j(7.2), j(5.2), jb(0.55)), (j(1.3), j(5), jb(-0.2))])
    while True:
        gap = rng.uniform(70, 290) - theta  # the gap's centre: in the world at least 70 degrees from 0, local here
        arc = {"kind": "ARC", "c": [j(5), j(3.5)], "r": j(4.2), "a0": j(30) + gap, "a1": j(330) + gap}
        track = poly([(j(-2), j(4), 0), (j(4), j(9), jb(0.5)), (j(9), j(-3), 0), (j(12), j(1), jb(-0.4))], closed=False)
        ends = [arc_end(arc, arc["a0"]), arc_end(arc, arc["a1"])]
        if all(near(e, b) > 1 for e in ends) and polyline_clear(track, a):
            break
    ents = {k: scaled(e, s) for k, e in {"a": a, "b": b, "arc": arc, "track": track}.items()}
    ops = [{"id": "u", "op": "union", "entities": ["a", "b"]},
           {"id": "i", "op": "intersection", "entities": ["a", "b"]},
           {"id": "d", "op": "difference", "entities": ["b", "a"]},
           {"id": "g", "op": "offset", "entity": "a", "distance": s * rng.uniform(1.8, 2.6)},
           {"id": "s", "op": "offset", "entity": "b", "distance": -s * rng.uniform(1.1, 1.6)},
           {"id": "a", "op": "area", "entity": "b"},
           {"id": "p", "op": "perimeter", "entity": "track"},
           {"id": "pa", "op": "perimeter", "entity": "arc"},
           {"id": "x1", "op": "intersection_points", "entities": ["arc", "b"]},
           {"id": "x2", "op": "intersection_points", "entities": ["track", "a"]},
           rng.choice([{"id": "open", "op": "area", "entity": "track"},
                       {"id": "open", "op": "offset", "entity": "track", "distance": 1.0},
                       {"id": "open", "op": "union", "entities": ["a", "track"]}]),
           {"id": "open_area", "op": "area", "entity": "arc"}]
    return ents, ops


def arc_end(arc: Ent, deg: float) -> tuple[float, float]:
    t = math.radians(deg)
    return arc["c"][0] + arc["r"] * math.cos(t), arc["c"][1] + arc["r"] * math.sin(t)


def samples(ent: Ent, step: float = 0.02) -> list[tuple[float, float]]:
    """Points along the entity's curve, at most `step` apart (for clearance checks only)."""
    if ent["kind"] == "CIRCLE":
        n = max(8, int(math.tau * ent["r"] / step))
        return [(ent["c"][0] + ent["r"] * math.cos(math.tau * k / n), ent["c"][1] + ent["r"] * math.sin(math.tau * k / n))
                for k in range(n)]
    vs = ent["verts"]
    out = []
    for i in range(len(vs) if ent["closed"] else len(vs) - 1):
        v, w = vs[i], vs[(i + 1) % len(vs)]
        if v[2]:
            c, r = bulge_center(v, w)
            a0, sweep = math.atan2(v[1] - c[1], v[0] - c[0]), 4 * math.atan(v[2])
            n = max(2, int(abs(sweep) * r / step))
            out += [(c[0] + r * math.cos(a0 + sweep * k / n), c[1] + r * math.sin(a0 + sweep * k / n)) for k in range(n)]
        else:
            n = max(2, int(math.dist(v[:2], w[:2]) / step))
            out += [(v[0] + (w[0] - v[0]) * k / n, v[1] + (w[1] - v[1]) * k / n) for k in range(n)]
    return out


def near(pt: tuple[float, float], ent: Ent) -> float:
    """About the distance from pt to the entity's curve."""
    return min(math.dist(pt, q) for q in samples(ent))


def polyline_clear(track: Ent, ent: Ent) -> bool:
    """Every straight piece of the open polyline crosses ent cleanly (line_clear), and its vertices are away
    from ent's vertices."""
    vs = track["verts"]
    straight = all(line_clear((v[0], v[1]), (w[0], w[1]), ent) for v, w in zip(vs, vs[1:]) if not v[2])
    return straight and all(near((v[0], v[1]), ent) > 0.5 for v in (vs[0], vs[-1])) and \
        all(math.dist(v[:2], u[:2]) > 1 for v in vs for u in ent["verts"])


def scaled(e: Ent, s: float) -> Ent:
    if e["kind"] == "LWPOLYLINE":
        return {**e, "verts": [[v[0] * s, v[1] * s, v[2]] for v in e["verts"]]}
    if e["kind"] == "ARC":
        return {**e, "c": [e["c"][0] * s, e["c"][1] * s], "r": e["r"] * s}
    raise ValueError(e["kind"])


def keyway(rng: random.Random, theta: float) -> tuple[dict[str, Ent], list[Op]]:
    """A disk with a bore and a key slot (a C-shaped ring), cut in three by a bar, a hub, a shrink; a line and
    an arc that crosses the 0 degree direction of the drawing's frame (its start angle above its end angle)
    crossing it; and operations the spec answers with an error: an unknown handle, the area of an open entity."""
    R0 = rng.uniform(14, 26)
    r1, kw, kd, hb = R0 * rng.uniform(0.3, 0.5), rng.uniform(1.5, 3.5), rng.uniform(1, 3), rng.uniform(1.5, 3.5)
    ents: dict[str, Ent] = {"disk": circle(0, 0, R0), "bore": circle(0, 0, r1),
                            "key": rect(-kw, r1 - kd, kw, R0 + rng.uniform(2, 6)),
                            "bar": rect(-R0 - rng.uniform(3, 10), -hb, R0 + rng.uniform(3, 10), hb)}
    while True:
        u, v = rng.uniform(-0.9, 0.9) * R0, rng.uniform(-0.9, 0.9) * R0
        ang = rng.uniform(0, math.tau)
        p = (u - (R0 + 5) * math.cos(ang), v - (R0 + 5) * math.sin(ang))
        q = (u + (R0 + 5) * math.cos(ang), v + (R0 + 5) * math.sin(ang))
        if line_clear(p, q, ents["disk"]) and line_clear(p, q, ents["bar"]):
            break
    ents["rod"] = {"kind": "LINE", "p": list(p), "q": list(q)}
    # the arc: its centre a distance R0 + a from the disk's, in the drawing frame's -x direction from it
    a = rng.uniform(2, 6)
    ra = rng.uniform(a + 1.5, a + 8)
    phi = math.degrees(math.acos(((R0 + a) ** 2 + ra * ra - R0 * R0) / (2 * ra * (R0 + a))))
    alpha = rng.uniform(phi + 10, min(phi + 60, 170))
    if abs(alpha - 90) < 8:
        alpha += 16
    back = math.radians(180 - theta)  # the world -x direction, in local coordinates
    ents["swing"] = {"kind": "ARC", "c": [(R0 + a) * math.cos(back), (R0 + a) * math.sin(back)], "r": ra,
                     "a0": -alpha - theta, "a1": alpha - theta}
    ops = [{"id": "key", "op": "difference", "entities": ["disk", "bore", "key"]},
           {"id": "three", "op": "difference", "entities": ["disk", "key", "bar"]},
           {"id": "hub", "op": "union", "entities": ["bore", "key"]},
           {"id": "shrink", "op": "offset", "entity": "disk", "distance": -rng.uniform(1, 0.6 * R0)},
           {"id": "x", "op": "intersection_points", "entities": ["rod", "disk"]},
           {"id": "xb", "op": "intersection_points", "entities": ["rod", "bar"]},
           {"id": "xa", "op": "intersection_points", "entities": ["swing", "disk"]},
           {"id": "pa", "op": "perimeter", "entity": "swing"},
           {"id": "missing", "op": "perimeter", "entity": None}]
    first = rng.choice(["rod", "swing"])
    ops += [{"id": "open_area", "op": "area", "entity": first},
            {"id": "open_area2", "op": "area", "entity": "swing" if first == "rod" else "rod"}]
    return ents, ops


# ---- the DXF text and the case ---------------------------------------------------------------------------


def fmt(x: float, places: int = 4) -> str:
    """A coordinate as DXF text: rounded to `places` decimals by round() and written by repr (shortest
    round-trip, the same on every IEEE machine), never `-0.0`."""
    return repr(round(x, places) + 0.0)


class Motion:
    """The drawing's rigid motion: a rotation by whole degrees, then a move."""

    def __init__(self, rng: random.Random) -> None:
        self.deg = rng.randrange(360)
        self.c, self.s = math.cos(math.radians(self.deg)), math.sin(math.radians(self.deg))
        self.t = (rng.uniform(-300, 300), rng.uniform(-300, 300))

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return self.c * x - self.s * y + self.t[0], self.s * x + self.c * y + self.t[1]


def tags(rng: random.Random, ent: Ent, handle: str, move: Motion) -> list[tuple[int, str]]:
    """The entity's group code / value pairs, after the motion, with the groups the spec ignores."""
    kind = ent["kind"]
    out = [(0, kind), (5, handle), (100, "AcDbEntity"), (8, rng.choice(["0", "OUTLINE", "Cut-2"]))]
    if rng.random() < 0.3:
        out.append((62, str(rng.randint(1, 255))))
    if kind == "LINE":
        (px, py), (qx, qy) = move(*ent["p"]), move(*ent["q"])
        return out + [(100, "AcDbLine"), (10, fmt(px)), (20, fmt(py)), (30, "0.0"), (11, fmt(qx)), (21, fmt(qy)),
                      (31, "0.0")]
    if kind in ("CIRCLE", "ARC"):
        cx, cy = move(*ent["c"])
        out += [(100, "AcDbCircle"), (10, fmt(cx)), (20, fmt(cy)), (30, "0.0"), (40, fmt(ent["r"]))]
        if kind == "ARC":
            out += [(100, "AcDbArc"), (50, fmt((ent["a0"] + move.deg) % 360)), (51, fmt((ent["a1"] + move.deg) % 360))]
        return out
    e = reversed_poly(ent) if rng.random() < 0.5 else ent
    if e["closed"]:
        e = rolled(e, rng.randrange(len(e["verts"])))
    verts = [list(v) for v in e["verts"]]
    if rng.random() < 0.3:  # a repeated vertex: a zero-length segment, skipped
        i = rng.randrange(len(verts) - 1)
        verts.insert(i + 1, list(verts[i]))
    flags = ent.get("flags", rng.choice([1, 129])) if e["closed"] else rng.choice([0, 128])
    out += [(100, "AcDbPolyline"), (90, str(len(verts))), (70, str(flags)), (43, "0.0")]
    for x, y, b in verts:
        wx, wy = move(x, y)
        out += [(10, fmt(wx)), (20, fmt(wy))] + ([(42, fmt(b, 6))] if b else [])
    return out


def dxf(rng: random.Random, ents: dict[str, Ent], handles: dict[str, str], move: Motion) -> str:
    pairs = [(0, "SECTION"), (2, "HEADER"), (9, "$ACADVER"), (1, "AC1015"), (9, "$INSUNITS"), (70, "4"), (0, "ENDSEC")]
    if rng.random() < 0.5:
        pairs += [(0, "SECTION"), (2, "TABLES"), (0, "TABLE"), (2, "LAYER"), (70, "1"), (0, "ENDTAB"), (0, "ENDSEC")]
    body = [tags(rng, ents[k], handles[k], move) for k in ents]
    if rng.random() < 0.5:  # an entity type outside the subset
        x, y = move(rng.uniform(-5, 5), rng.uniform(-5, 5))
        body.append([(0, "POINT"), (5, "FF0"), (100, "AcDbEntity"), (8, "0"), (100, "AcDbPoint"), (10, fmt(x)),
                     (20, fmt(y)), (30, "0.0")])
    rng.shuffle(body)
    pairs += [(0, "SECTION"), (2, "ENTITIES"), *(t for ent in body for t in ent), (0, "ENDSEC"), (0, "EOF")]
    return "".join(f"{code:>3}\n{value}\n" for code, value in pairs)


def case(rng: random.Random, name: str) -> dict[str, Any]:
    move = Motion(rng)
    ents, ops = TEMPLATES[name](rng, move.deg) if name in TURNED else TEMPLATES[name](rng)
    keys = list(ents)
    rng.shuffle(keys)
    free = rng.sample(range(0x20, 0xFEF), len(keys) + 1)
    handles = {k: f"{h:X}" for k, h in zip(keys, free)}
    unknown = f"{free[-1]:X}"

    def ref(k: str | None) -> str:
        h = handles[k] if k is not None else unknown
        return h.lower() if rng.random() < 0.4 else h

    out = []
    for op in ops:
        o = dict(op)
        if "entity" in o:
            o["entity"] = ref(o["entity"])
        if "entities" in o:
            o["entities"] = [ref(k) for k in o["entities"]]
        if "distance" in o:
            o["distance"] = round(o["distance"], 3)
        out.append(o)
    rng.shuffle(out)
    return {"dxf": dxf(rng, {k: ents[k] for k in keys}, handles, move), "operations": out}


TEMPLATES: dict[str, Any] = {"dumbbell": dumbbell, "c_shape": c_shape, "rosette": rosette, "waves": waves,
                             "keyway": keyway}
TURNED = ("waves", "keyway")  # drawn knowing the drawing's rotation (their arcs cross the world's 0 degrees)


def cases(seed: int) -> list[dict[str, Any]]:
    """One case per template; its operations are its scored items (engine.toml [score]), 42 in every release."""
    out = []
    for k, name in enumerate(TEMPLATES):
        inp = case(random.Random(f"{seed}:{name}"), name)
        out.append({"id": f"h{k + 1}_{name}", "items": [str(op["id"]) for op in inp["operations"]], "input": inp})
    return out


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))
