"""Routing: each net a tree grown pin by pin with multi-source Dijkstra (Prim-like Steiner heuristic);
nets negotiate shared nodes PathFinder-style (present and history congestion costs) until no node is used
twice; then each net is re-routed alone with the others as hard obstacles while that shortens it."""
from __future__ import annotations

import heapq
import random

from pnr_grid import Design, Node, neighbours, obstruction
from pnr_place import Place

Tree = list[list[Node]]  # the paths of one net


def _grow(design: Design, net: str, pins: list[Node], obst: dict[Node, str | None],
          cost_of: dict[Node, float], hard: set[Node]) -> Tree | None:
    """One net's tree: start at its first pin, add the cheapest path from the tree to any unreached pin."""
    tree: set[Node] = {pins[0]}
    paths: Tree = [[pins[0]]]
    todo = set(pins[1:]) - tree
    while todo:
        dist: dict[Node, float] = {n: 0.0 for n in tree}
        back: dict[Node, Node] = {}
        heap = [(0.0, n) for n in sorted(tree)]
        heapq.heapify(heap)
        hit = None
        while heap:
            d, n = heapq.heappop(heap)
            if d > dist.get(n, float("inf")):
                continue
            if n in todo:
                hit = n
                break
            for m in neighbours(n, design.width, design.height):
                if m in hard or (m in obst and obst[m] != net):
                    continue
                nd = d + cost_of.get(m, 1.0)
                if nd < dist.get(m, float("inf")):
                    dist[m], back[m] = nd, n
                    heapq.heappush(heap, (nd, m))
        if hit is None:
            return None
        path = [hit]
        while path[-1] not in tree:
            path.append(back[path[-1]])
        path.reverse()
        paths.append(path)
        tree.update(path)
        todo -= tree
    return paths


def _nodes(tree: Tree) -> set[Node]:
    return {n for p in tree for n in p}


def wirelength(tree: Tree) -> int:
    return len({frozenset(e) for p in tree for e in zip(p, p[1:])})


def route(design: Design, place: Place, iterations: int = 100) -> dict[str, Tree] | None:
    """PathFinder: each net in turn is ripped up and re-routed against the present use of all others
    plus the history of past congestion, until no node is shared."""
    obst = obstruction(design, place)
    pins = {net: design.net_pins(place, net) for net in design.nets}
    order = sorted(design.nets, key=lambda n: (len(pins[n]), n))
    hist: dict[Node, float] = {}
    use: dict[Node, int] = {}
    trees: dict[str, Tree] = {}
    pres = 0.5
    rng = random.Random(0)
    for _ in range(iterations):
        for net in order:
            for n in _nodes(trees.get(net, [])):
                use[n] -= 1
            cost = {n: (1.0 + hist.get(n, 0.0)) * (1.0 + pres * use.get(n, 0)) for n in set(use) | set(hist)}
            t = _grow(design, net, pins[net], obst, cost, set())
            if t is None:
                return None
            trees[net] = t
            for n in _nodes(t):
                use[n] = use.get(n, 0) + 1
        over = [n for n, k in use.items() if k > 1]
        if not over:
            return _polish(design, pins, obst, trees)
        for n in over:
            hist[n] = hist.get(n, 0.0) + 1.0 * (use[n] - 1)
        pres = min(pres * 1.3, 20.0)
        rng.shuffle(order)  # a fixed order can cycle; the seed keeps the result reproducible
    return None


def _polish(design: Design, pins: dict[str, list[Node]], obst: dict[Node, str | None],
            trees: dict[str, Tree]) -> dict[str, Tree]:
    """Re-route each net alone (every pin order start) with the other nets as obstacles; keep the shorter."""
    for _ in range(3):
        better = False
        for net in sorted(trees):
            others = set().union(*(_nodes(t) for n, t in trees.items() if n != net))
            best = trees[net]
            for k in range(len(pins[net])):
                order = pins[net][k:] + pins[net][:k]
                t = _grow(design, net, order, obst, {}, others)
                if t is not None and wirelength(t) < wirelength(best):
                    best, better = t, True
            trees[net] = best
        if not better:
            break
    return trees
