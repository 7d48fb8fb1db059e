"""Hidden place-and-route designs from a seed: stdin {"seed": n} -> stdout {"cases": [...]}. Like the fixed
cases they replace, each is a grid of 16-22 x 12-17 squares with one or two macro keep-outs (blocked
rectangles, which stop wires on both layers) and scattered blocked squares, IO pads fixed on the border
(some right behind a keep-out, so that the short way to them crosses it), 6-8 movable cells of the usual
shapes with pins drawn inside them (so M1 under a cell, which belongs to the cell, is on many short ways),
and 2- to 4-pin nets over the pins. Sizes, shapes, pins, blockages and nets are all drawn; a design the
reference flow cannot place and route, or one of whose placements its router cannot settle within SETTLE
rounds (the flow would spend its whole budget on it, for every candidate graded), is drawn again. Each case
carries the reference flow's wirelength (expect.py)."""
from __future__ import annotations

import json
import random
import sys
from typing import Any

from expect import expected

SHAPES = [(3, 1), (2, 2), (2, 3), (3, 2), (4, 2), (2, 1), (3, 1), (2, 3)]
PIN_NAMES = ["A", "B", "C", "Y"]
SETTLE = 25  # negotiation rounds within which every placement of a drawn design must route (expect.py)
Square = tuple[int, int]


def keepouts(rng: random.Random, width: int, height: int) -> set[Square]:
    """One or two blocked rectangles away from the border, and a few blocked squares anywhere inside."""
    out: set[Square] = set()
    for _ in range(rng.randint(1, 2)):
        w, h = rng.randint(2, 4), rng.randint(2, 4)
        x, y = rng.randint(3, width - w - 3), rng.randint(2, height - h - 2)
        out |= {(x + i, y + j) for i in range(w) for j in range(h)}
    for _ in range(rng.randint(3, 8)):
        out.add((rng.randrange(1, width - 1), rng.randrange(1, height - 1)))
    return out


def pads(rng: random.Random, width: int, height: int, blocked: set[Square], n: int) -> list[Square]:
    """IO pad squares on the border, not blocked, not next to each other; the first one facing a keep-out
    across the grid's middle where there is one."""
    border = [(x, y) for x in range(width) for y in range(height)
              if (x in (0, width - 1) or y in (0, height - 1)) and (x, y) not in blocked]
    behind = [(x, y) for x, y in border
              if any((x + d * k, y) in blocked or (x, y + d * k) in blocked for d in (-1, 1) for k in (2, 3, 4))]
    out: list[Square] = []
    for sq in ([rng.choice(behind)] if behind else []) + rng.sample(border, len(border)):
        if len(out) < n and all(abs(sq[0] - p[0]) + abs(sq[1] - p[1]) > 2 for p in out):
            out.append(sq)
    return out


def cell(rng: random.Random, name: str) -> dict[str, Any]:
    w, h = rng.choice(SHAPES)
    squares = [(i, j) for i in range(w) for j in range(h)]
    k = rng.randint(2, min(4, len(squares)))
    return {"name": name, "w": w, "h": h, "pins": {p: list(sq) for p, sq in zip(PIN_NAMES, rng.sample(squares, k))}}


def nets(rng: random.Random, cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Nets of 2-4 pins of different cells, every IO pad on one; some pins stay unconnected."""
    io = [f"{c['name']}.P" for c in cells if c["name"].startswith("IO")]
    free = [f"{c['name']}.{p}" for c in cells if not c["name"].startswith("IO") for p in c["pins"]]
    rng.shuffle(free)
    out = []
    while io or len(free) > 3:
        size = rng.choice([2, 2, 2, 3, 3, 4])
        pins = [io.pop()] if io else []
        for ref in list(free):
            if len(pins) < size and ref.split(".")[0] not in {p.split(".")[0] for p in pins}:
                pins.append(ref)
                free.remove(ref)
        if len(pins) >= 2:
            out.append({"name": f"n{len(out)}", "pins": pins})
        if rng.random() < 0.15 and free:
            free.pop()  # a pin on no net
    return out


def design(rng: random.Random) -> dict[str, Any]:
    width, height = rng.randint(16, 22), rng.randint(12, 17)
    blocked = keepouts(rng, width, height)
    io = pads(rng, width, height, blocked, rng.randint(4, 6))
    cells = [{"name": f"IO{i}", "w": 1, "h": 1, "pins": {"P": [0, 0]}, "fixed": list(sq)} for i, sq in enumerate(io)]
    cells += [cell(rng, f"U{i}") for i in range(rng.randint(6, 8))]
    return {"width": width, "height": height, "blocked": [list(b) for b in sorted(blocked)], "cells": cells,
            "nets": nets(rng, cells)}


def cases(seed: int, n: int = 6) -> list[dict[str, Any]]:
    rng, out = random.Random(seed), []
    while len(out) < n:
        d = design(rng)
        exp = expected(d, SETTLE, strict=True) if len(d["nets"]) >= 6 else None
        if exp is not None:
            out.append({"id": f"g{len(out) + 1}", "input": d, "expected": exp})
    return out


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))
