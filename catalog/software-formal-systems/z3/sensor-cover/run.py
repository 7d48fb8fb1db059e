"""Minimum-cost sensor placement as a pseudo-Boolean optimisation in z3: every grid cell must be seen by at least
k chosen sensors (z3.PbGe), the total cost is minimised and ties are broken lexicographically towards
low-numbered sites (a second objective on a power-of-two weighted sum)."""

import random

import z3


def sites(scn):
    """Candidate sites (x, y, cost), drawn per site as x, y, then cost = rng.randint(1, max_cost)."""
    rng = random.Random(int(scn["seed"]))
    w, h = int(scn["grid_width"]), int(scn["grid_height"])
    return [
        (rng.randrange(w), rng.randrange(h), rng.randint(1, int(scn["max_cost"]))) for _ in range(int(scn["n_sites"]))
    ]


def sees(site, cell, radius, metric):
    dx, dy = abs(site[0] - cell[0]), abs(site[1] - cell[1])
    return (max(dx, dy) if metric == "chebyshev" else dx + dy) <= radius


def main(scn):
    cand = sites(scn)
    w, h, k = int(scn["grid_width"]), int(scn["grid_height"]), int(scn["coverage"])
    radius, metric = int(scn["radius"]), str(scn["metric"])
    x = [z3.Bool(f"s{i}") for i in range(len(cand))]
    opt = z3.Optimize()
    cells = [(cx, cy) for cy in range(h) for cx in range(w)]
    coverable = []
    for cell in cells:
        seen = [x[i] for i, s in enumerate(cand) if sees(s, cell, radius, metric)]
        need = min(k, len(seen))  # a cell seen by fewer sites than k needs all of them
        coverable.append(len(seen) >= k)
        if need:
            opt.add(z3.PbGe([(v, 1) for v in seen], need))
    cost = z3.Sum([z3.If(v, c, 0) for v, (_, _, c) in zip(x, cand)])
    tiebreak = z3.Sum([z3.If(v, 2**i, 0) for i, v in enumerate(x)])
    opt.minimize(cost)
    opt.minimize(tiebreak)  # lexicographic: cost first, then the lowest-numbered set
    assert opt.check() == z3.sat
    m = opt.model()
    chosen = [i for i, v in enumerate(x) if z3.is_true(m.eval(v, model_completion=True))]
    counts = [sum(1 for i in chosen if sees(cand[i], cell, radius, metric)) for cell in cells]
    return {
        "sites": [list(s) for s in cand],
        "chosen": chosen if chosen else [-1],
        "total_cost": sum(cand[i][2] for i in chosen),
        "n_chosen": len(chosen),
        "cells_short_of_k": sum(1 for c in coverable if not c),
        "coverage_histogram": [counts.count(j) for j in range(k + 3)],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
