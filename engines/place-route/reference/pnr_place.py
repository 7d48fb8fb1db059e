"""Placement: fixed cells where they are told; movable cells greedily, most-connected first, at the legal
spot minimising half-perimeter wirelength, then improved by re-placing each cell while it helps. A halo
ring around each movable cell (on the grid, clear of blocked squares and other cells) leaves routing room."""
from __future__ import annotations

from pnr_grid import Design

Place = dict[str, tuple[int, int]]


def hpwl(design: Design, place: Place, nets: list[str]) -> int:
    total = 0
    for net in nets:
        pts = [design.pin_node(place, c, p)[:2] for c, p in design.nets[net] if c in place]
        if len(pts) > 1:
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            total += max(xs) - min(xs) + max(ys) - min(ys)
    return total


def _free(design: Design, place: Place, cell: str, at: tuple[int, int], halo: int) -> bool:
    c = design.cells[cell]
    if at[0] < 0 or at[1] < 0 or at[0] + c.w > design.width or at[1] + c.h > design.height:
        return False
    x0, y0, x1, y1 = at[0] - halo, at[1] - halo, at[0] + c.w + halo, at[1] + c.h + halo
    if x0 < 0 or y0 < 0 or x1 > design.width or y1 > design.height:
        return False  # the halo ring stays on the grid ...
    if any((x, y) in design.blocked for x in range(x0, x1) for y in range(y0, y1)):
        return False  # ... and clear of blocked squares
    if not _pin_access(design, cell, at):
        return False
    for other, (ox, oy) in place.items():
        if other == cell:
            continue
        o = design.cells[other]
        if (at[0] - halo < ox + o.w and ox < at[0] + c.w + halo and
                at[1] - halo < oy + o.h and oy < at[1] + c.h + halo):
            return False
    return True


def _pin_access(design: Design, cell: str, at: tuple[int, int]) -> bool:
    """Every pin can leave the cell: on M1 to a free side square, or on M2 up or down the column to a free
    square outside the cell (M1 under the cell is obstructed, blocked squares stop both layers)."""
    c = design.cells[cell]

    def free(x: int, y: int) -> bool:
        inside = at[0] <= x < at[0] + c.w and at[1] <= y < at[1] + c.h
        return 0 <= x < design.width and 0 <= y < design.height and (x, y) not in design.blocked and not inside

    for dx, dy in c.pins.values():
        x, y = at[0] + dx, at[1] + dy
        ok = free(x - 1, y) or free(x + 1, y)
        for step in (-1, 1):
            yy = y + step
            while not ok and 0 <= yy < design.height and (x, yy) not in design.blocked:
                ok = free(x, yy)
                yy += step
        if not ok:
            return False
    return True


def _best_spot(design: Design, place: Place, cell: str, nets: list[str], halo: int) -> tuple[int, int] | None:
    best, best_cost = None, None
    for y in range(design.height):
        for x in range(design.width):
            if not _free(design, place, cell, (x, y), halo):
                continue
            place[cell] = (x, y)
            cost = (hpwl(design, place, nets), abs(2 * x - design.width) + abs(2 * y - design.height), y, x)
            del place[cell]
            if best_cost is None or cost < best_cost:
                best, best_cost = (x, y), cost
    return best


def place(design: Design, halo: int = 1) -> Place | None:
    """A legal placement with the halo, or None where the greedy pass cannot fit every cell."""
    out: Place = {n: c.fixed for n, c in design.cells.items() if c.fixed is not None}
    nets_of = {n: [net for net, pins in design.nets.items() if any(c == n for c, _ in pins)] for n in design.cells}
    movable = sorted((n for n, c in design.cells.items() if c.fixed is None),
                     key=lambda n: (-len(nets_of[n]), -design.cells[n].w * design.cells[n].h, n))
    for cell in movable:
        spot = _best_spot(design, out, cell, nets_of[cell], halo)
        if spot is None:
            return None
        out[cell] = spot
    for _ in range(4):
        moved = False
        for cell in movable:
            here = out.pop(cell)
            out[cell] = here
            before = hpwl(design, out, nets_of[cell])
            del out[cell]
            spot = _best_spot(design, out, cell, nets_of[cell], halo)
            out[cell] = here
            if spot is not None and spot != here:
                out[cell] = spot
                if hpwl(design, out, nets_of[cell]) < before:
                    moved = True
                else:
                    out[cell] = here
        if not moved:
            break
    return out
