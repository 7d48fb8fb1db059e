"""Hidden solid-3d cases from a seed: stdin {"seed": n} -> stdout {"cases": [...]}. Five CSG templates, the
kinds of the fixed cases they replace (a Steinmetz-like intersection of cylinders, a box with crossing bores and
a pin hole, a tube beside a ball, a pierced hemispherical bowl, two linked square rings), each drawn afresh:
sizes, radii, hole positions, rotation axes and angles, placements, the order of commutative children. Sizes
keep the spec's section 5: no tangent or coincident surfaces, walls and gaps of at least about 0.05 D, the solid
inside a box of side 20. The rules stay exercised: rotations about oblique axes by angles that are no symmetry
of the solid (handedness), transforms that both rotate and translate off the axis (order), differences of three
and four children. The expected values come from OpenCASCADE (expect.py)."""
from __future__ import annotations

import json
import math
import random
import sys
from typing import Any

Node = dict[str, Any]


def r2(x: float) -> float:
    """A drawn number rounded to 2 decimals: short inputs, the same on every machine."""
    return round(x, 2)


def box(sx: float, sy: float, sz: float) -> Node:
    return {"type": "box", "size": [r2(sx), r2(sy), r2(sz)]}


def cyl(r: float, h: float) -> Node:
    return {"type": "cylinder", "radius": r2(r), "height": r2(h)}


def sphere(r: float) -> Node:
    return {"type": "sphere", "radius": r2(r)}


def move(child: Node, axis: list[float] | None = None, angle: float = 0.0, to: list[float] | None = None) -> Node:
    """A transform node: rotate about `axis` by `angle` degrees (when given), then move by `to`."""
    node: Node = {"type": "transform", "child": child}
    if axis is not None:
        node["rotate"] = {"axis": axis, "angle": r2(angle)}
    if to is not None:
        node["translate"] = [r2(t) for t in to]
    return node


def oblique(rng: random.Random) -> list[float]:
    """An axis with no zero component (no symmetry axis of the templates' solids)."""
    return [rng.choice([-1, 1]) * rng.randint(1, 4) for _ in range(3)]


def angle(rng: random.Random) -> float:
    """An angle that is no multiple of 45 degrees, either sign."""
    return rng.choice([-1, 1]) * (rng.randint(1, 8) * 10 + rng.randint(1, 9)) * 1.0 if rng.random() < 0.5 else \
        rng.choice([-1, 1]) * rng.uniform(12, 78)


def place(rng: random.Random, node: Node, reach: float) -> Node:
    """The whole solid turned about an oblique axis and moved off the origin (rotation first, then the move:
    a solid that ends up elsewhere when the order or the handedness is wrong)."""
    return move(node, oblique(rng), angle(rng), [rng.uniform(-reach, reach) for _ in range(3)])


def shuffled(rng: random.Random, items: list[Node]) -> list[Node]:
    items = list(items)
    rng.shuffle(items)
    return items


def steinmetz(rng: random.Random) -> Node:
    """Two or three cylinders of one radius along x, y, z, intersected (one cylinder longer than the rest)."""
    r = rng.uniform(0.8, 1.6)
    kids = [cyl(r, r * rng.uniform(2.6, 3.4)),
            move(cyl(r, r * rng.uniform(2.6, 3.4)), [1, 0, 0], 90),
            move(cyl(r, r * rng.uniform(2.6, 3.4)), [0, 1, 0], 90)]
    if rng.random() < 0.4:
        kids = kids[:2] + [box(2.4 * r, 2.4 * r, rng.uniform(1.0, 1.6) * r)]  # a clipped two-cylinder bicylinder
    return place(rng, {"type": "intersection", "children": shuffled(rng, kids)}, 3.0)


def cross_bore(rng: random.Random) -> Node:
    """A plate with a bore along x and one along y crossing at its centre, and a pin hole along z in one
    quadrant: a difference of four children (their order after the first is free). Drawn until every wall
    (bore to face, pin to bore, pin to edge) is at least 0.05 D."""
    while True:
        sx, sy, sz = rng.uniform(4, 6.5), rng.uniform(4, 6.5), rng.uniform(2.2, 3.4)
        wall = 0.05 * math.sqrt(sx * sx + sy * sy + sz * sz)
        rx, ry, rz = rng.uniform(0.4, 0.9), rng.uniform(0.4, 0.9), rng.uniform(0.25, 0.5)
        px, py = rng.uniform(0.8, sx / 2), rng.uniform(0.8, sy / 2)
        if (max(rx, ry) <= sz / 2 - wall and px - rz - ry >= wall and py - rz - rx >= wall
                and sx / 2 - px - rz >= wall and sy / 2 - py - rz >= wall):
            break
    px, py = rng.choice([-1, 1]) * px, rng.choice([-1, 1]) * py
    holes = [move(cyl(rx, sy + 2), [1, 0, 0], 90), move(cyl(ry, sx + 2), [0, 1, 0], 90),
             move(cyl(rz, sz + 1), to=[px, py, 0])]
    tree = {"type": "difference", "children": [box(sx, sy, sz), *shuffled(rng, holes)]}
    return place(rng, tree, 2.0) if rng.random() < 0.5 else tree


def tube_and_ball(rng: random.Random) -> Node:
    """A short tube tilted about y beside a ball that does not touch it: two shells (a torus-like one and a
    sphere-like one)."""
    ro = rng.uniform(1.2, 2.0)
    ri = ro * rng.uniform(0.55, 0.75)
    h = rng.uniform(0.8, 1.4)
    tube = {"type": "difference", "children": [cyl(ro, h), cyl(ri, h + rng.uniform(0.6, 1.5))]}
    rb = rng.uniform(0.6, 1.0)
    gap = rng.uniform(0.6, 1.2)
    direction = rng.uniform(-0.5, 0.5)
    at = [(ro + h + rb + gap) * math.cos(direction), (ro + h + rb + gap) * math.sin(direction), rng.uniform(-0.4, 0.4)]
    kids = [move(tube, [0, 1, 0], rng.uniform(15, 60)), move(sphere(rb), to=at)]
    return {"type": "union", "children": shuffled(rng, kids)}


def bowl(rng: random.Random) -> Node:
    """A spherical shell cut below its equator by a box and pierced along z by a cylinder, then tilted."""
    ro = rng.uniform(1.6, 2.6)
    ri = ro * rng.uniform(0.68, 0.8)
    cut = rng.uniform(0.15, 0.35) * ri  # the box's top lies this far above the centre: a rim wider than the wall
    bh = ro + 0.5
    shell = {"type": "difference", "children": [sphere(ro), sphere(ri)]}
    inter = {"type": "intersection", "children": shuffled(rng, [shell, move(box(2 * ro + 1, 2 * ro + 1, bh),
                                                                             to=[0, 0, cut - bh / 2])])}
    tree = {"type": "difference", "children": [inter, cyl(rng.uniform(0.25, 0.45) * ri, 3 * ro)]}
    return move(tree, [1, 0, 0] if rng.random() < 0.5 else oblique(rng), angle(rng),
                [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)])


def chain(rng: random.Random) -> Node:
    """Two square rings, the second turned a quarter about x and moved along x so that they link: one shell
    of genus 2."""
    side, bar, thick = rng.uniform(2.6, 3.6), rng.uniform(0.45, 0.6), rng.uniform(0.5, 0.7)
    ring = {"type": "difference", "children": [box(side, side, thick), box(side - 2 * bar, side - 2 * bar, thick + 1)]}
    shift = side / 2 - bar / 2 + rng.uniform(-0.1, 0.1)  # the second ring's bar runs through the first's opening
    kids = [ring, move(ring, [1, 0, 0], rng.choice([90, -90]), [shift, 0, 0])]
    return place(rng, {"type": "union", "children": shuffled(rng, kids)}, 2.0)


TEMPLATES = (steinmetz, cross_bore, tube_and_ball, bowl, chain)


def cases(seed: int) -> list[dict[str, Any]]:
    out = []
    for k, template in enumerate(TEMPLATES):
        rng = random.Random(f"{seed}:{template.__name__}")
        out.append({"id": f"h{k + 1}_{template.__name__}", "input": {"tree": template(rng)}})
    return out


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))
