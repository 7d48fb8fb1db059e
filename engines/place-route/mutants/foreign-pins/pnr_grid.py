"""The routing grid of spec.md: W x H squares, two layers (0 = M1, 1 = M2), blocked
squares, cell footprints that obstruct M1 except at their pins, and pin locations from a placement."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Node = tuple[int, int, int]  # (x, y, layer)


@dataclass
class Cell:
    name: str
    w: int
    h: int
    pins: dict[str, tuple[int, int]]
    fixed: tuple[int, int] | None


@dataclass
class Design:
    width: int
    height: int
    blocked: set[tuple[int, int]]
    cells: dict[str, Cell]
    nets: dict[str, list[tuple[str, str]]]  # net -> [(cell, pin)]

    @staticmethod
    def load(d: dict[str, Any]) -> Design:
        cells = {}
        for c in d["cells"]:
            pins = {p: (int(v[0]), int(v[1])) for p, v in c["pins"].items()}
            fixed = tuple(c["fixed"]) if c.get("fixed") is not None else None
            cells[c["name"]] = Cell(c["name"], int(c["w"]), int(c["h"]), pins, fixed)  # type: ignore[arg-type]
        nets = {n["name"]: [tuple(p.split(".", 1)) for p in n["pins"]] for n in d["nets"]}
        return Design(int(d["width"]), int(d["height"]), {(int(x), int(y)) for x, y in d.get("blocked", [])},
                      cells, nets)  # type: ignore[arg-type]

    def footprint(self, cell: str, at: tuple[int, int]) -> list[tuple[int, int]]:
        c = self.cells[cell]
        return [(at[0] + i, at[1] + j) for i in range(c.w) for j in range(c.h)]

    def pin_node(self, place: dict[str, tuple[int, int]], cell: str, pin: str) -> Node:
        x, y = place[cell]
        dx, dy = self.cells[cell].pins[pin]
        return (x + dx, y + dy, 0)

    def net_pins(self, place: dict[str, tuple[int, int]], net: str) -> list[Node]:
        return [self.pin_node(place, c, p) for c, p in self.nets[net]]


def neighbours(n: Node, width: int, height: int) -> list[Node]:
    """A unit step in x or y on the same layer, or a via to the other layer."""
    x, y, l = n
    out = [(x, y, 1 - l)]
    out += [(x + d, y, l) for d in (-1, 1) if 0 <= x + d < width]
    out += [(x, y + d, l) for d in (-1, 1) if 0 <= y + d < height]
    return out


def obstruction(design: Design, place: dict[str, tuple[int, int]]) -> dict[Node, str | None]:
    """Nodes no net may use (value None) or only one net may use (value: that net): blocked squares on both
    layers; M1 under a cell, except a pin square, which belongs to the pin's net."""
    out: dict[Node, str | None] = {}
    for x, y in design.blocked:
        out[(x, y, 0)] = out[(x, y, 1)] = None
    for cell, at in place.items():
        for x, y in design.footprint(cell, at):
            out.setdefault((x, y, 0), None)
    for net in design.nets:
        for node in design.net_pins(place, net):
            if out.get(node, None) is None and node[:2] not in design.blocked:
                out.pop(node, None)  # a pin square free for every net
    return out
