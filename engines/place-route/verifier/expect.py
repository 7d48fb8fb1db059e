"""Expected wirelength of one case: the reference flow's total (pnr_*: layered beneath this directory by the
check), as the fixed cases' was — the best of its placements with halos 0, 1 and 2, as reference/run takes it.
stdin {"input": design} -> stdout {"expected": {"wirelength"}}; generate.py attaches it to the cases it draws
(one sandboxed process for all)."""
import json
import sys
from typing import Any

from pnr_grid import Design
from pnr_place import place
from pnr_route import route, wirelength


def expected(design_input: dict[str, Any], iterations: int = 100, strict: bool = False) -> dict[str, Any] | None:
    """{"wirelength": total}, or None where the reference flow (its router given `iterations` rounds of
    negotiation, as reference/run does by default) finds no legal result. `strict`: None too where some
    placement it finds does not route within `iterations` — on such a design the flow spends its whole
    budget in vain, for every candidate graded. When every placement routes within fewer rounds than the
    reference's 100, the result is the reference's: its rounds are the same up to the one that settles."""
    design, best = Design.load(design_input), None
    for halo in (0, 1, 2):
        p = place(design, halo)
        routes = route(design, p, iterations) if p is not None else None
        if routes is None and p is not None and strict:
            return None
        if routes is not None:
            wl = sum(wirelength(t) for t in routes.values())
            best = wl if best is None else min(best, wl)
    return None if best is None else {"wirelength": best}


if __name__ == "__main__":
    print(json.dumps({"expected": expected(json.load(sys.stdin)["input"])}))
