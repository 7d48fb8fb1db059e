"""Hidden verifier of grid place & route. Everything is recomputed from the candidate's own placement and
routes (its reported wirelength is never read): placement legality, routing legality, connectivity of every
net, shorts between nets, and the total wirelength against the reference's."""
import json
import sys
from collections import defaultdict
from typing import Any

MAX_NODES = 200_000


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Design:
    def __init__(self, d: dict) -> None:
        self.w, self.h = d["width"], d["height"]
        self.blocked = {tuple(b) for b in d.get("blocked", [])}
        self.cells = {c["name"]: c for c in d["cells"]}
        self.nets = {n["name"]: [tuple(p.split(".", 1)) for p in n["pins"]] for n in d["nets"]}


def check_placement(D: Design, pl: Any) -> tuple[dict, int, str]:
    """The positions usable downstream, the number of violations, the first one."""
    if not isinstance(pl, dict):
        pl = {}
    pos, bad, first = {}, 0, ""

    def v(msg: str) -> None:
        nonlocal bad, first
        bad, first = bad + 1, first or msg
    for name in pl:
        if name not in D.cells:
            v(f"unknown cell {str(name)[:30]}")
    for name, c in D.cells.items():
        at = pl.get(name)
        ok = isinstance(at, list) and len(at) == 2 and all(is_int(a) for a in at)
        if c.get("fixed") is not None:
            if at is not None and (not ok or list(at) != list(c["fixed"])):
                v(f"fixed cell {name} moved")
            pos[name] = tuple(c["fixed"])
            continue
        if not ok:
            v(f"cell {name} not placed at [x, y]")
            continue
        x, y = at
        if x < 0 or y < 0 or x + c["w"] > D.w or y + c["h"] > D.h:
            v(f"cell {name} out of bounds")
            continue
        pos[name] = (x, y)
    owner: dict = {}
    for name, (x, y) in pos.items():
        c = D.cells[name]
        for i in range(c["w"]):
            for j in range(c["h"]):
                sq = (x + i, y + j)
                if sq in D.blocked:
                    v(f"cell {name} on blocked square {sq}")
                if sq in owner:
                    v(f"cells {owner[sq]} and {name} overlap at {sq}")
                owner[sq] = name
    return pos, bad, first or "placement legal"


def pin_nodes(D: Design, pos: dict, net: str) -> list:
    out = []
    for cell, pin in D.nets[net]:
        if cell not in pos:
            out.append(None)
            continue
        dx, dy = D.cells[cell]["pins"][pin]
        out.append((pos[cell][0] + dx, pos[cell][1] + dy, 0))
    return out


def node_ok(n: Any) -> bool:
    return isinstance(n, list) and len(n) == 3 and all(is_int(a) for a in n)


def step_ok(a: tuple, b: tuple) -> bool:
    if a[:2] == b[:2]:
        return abs(a[2] - b[2]) == 1
    return a[2] == b[2] and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def check_routes(D: Design, pos: dict, routes: Any) -> dict:
    """Per-net node sets and edge sets, plus routing violations (geometry and obstructions)."""
    if not isinstance(routes, dict):
        routes = {}
    under = {}  # M1 squares under cells -> the net allowed there (a pin's net) or None
    for name, (x, y) in pos.items():
        c = D.cells[name]
        for i in range(c["w"]):
            for j in range(c["h"]):
                under[(x + i, y + j, 0)] = None
    for net in D.nets:
        for p in pin_nodes(D, pos, net):
            if p is not None:
                under[p] = net
    nodes, edges, bad, first, count = defaultdict(set), defaultdict(set), 0, "", 0

    def v(msg: str) -> None:
        nonlocal bad, first
        bad, first = bad + 1, first or msg
    for net, paths in routes.items():
        if net not in D.nets:
            v(f"unknown net {str(net)[:30]}")
            continue
        if not isinstance(paths, list):
            v(f"net {net}: routes are not a list of paths")
            continue
        for path in paths:
            if not isinstance(path, list) or not path or not all(node_ok(n) for n in path):
                v(f"net {net}: a path is not a non-empty list of [x, y, layer]")
                continue
            count += len(path)
            if count > MAX_NODES:
                v("too many route nodes")
                return {"nodes": nodes, "edges": edges, "bad": bad, "first": first}
            pts = [tuple(n) for n in path]
            for n in pts:
                x, y, l = n
                if not (0 <= x < D.w and 0 <= y < D.h and l in (0, 1)):
                    v(f"net {net}: node {n} out of the grid")
                elif (x, y) in D.blocked:
                    v(f"net {net}: node {n} on a blocked square")
                elif n in under and under[n] != net:
                    v(f"net {net}: node {n} on M1 under a cell")
                nodes[net].add(n)
            for a, b in zip(pts, pts[1:]):
                if not step_ok(a, b):
                    v(f"net {net}: {a} -> {b} is not a legal step")
                edges[net].add(frozenset((a, b)))
    return {"nodes": nodes, "edges": edges, "bad": bad, "first": first or "routes legal"}


def connected(D: Design, pos: dict, r: dict) -> tuple[int, str]:
    bad, first = 0, ""
    for net in D.nets:
        pins = pin_nodes(D, pos, net)
        adj = defaultdict(list)
        for e in r["edges"][net]:
            if len(e) == 2:
                a, b = tuple(e)
                adj[a].append(b)
                adj[b].append(a)
        start = pins[0]
        seen = {start} if start in r["nodes"][net] else set()
        stack = list(seen)
        while stack:
            for m in adj[stack.pop()]:
                if m not in seen:
                    seen.add(m)
                    stack.append(m)
        if any(p is None or p not in seen for p in pins):
            bad += 1
            first = first or f"net {net} does not connect its pins"
    return bad, first or "every net connected"


def shorts(r: dict) -> tuple[int, str]:
    users = defaultdict(set)
    for net, ns in r["nodes"].items():
        for n in ns:
            users[n].add(net)
    bad = [(n, sorted(u)) for n, u in users.items() if len(u) > 1]
    return len(bad), (f"{len(bad)} nodes shared, e.g. {bad[0][0]} by {bad[0][1][:2]}" if bad else "no shorts")


def grade(d: dict) -> list[dict]:
    D, out, exp = Design(d["input"]), d.get("output"), d["expected"]
    out = out if isinstance(out, dict) else {}
    pos, pbad, pfirst = check_placement(D, out.get("placement"))
    r = check_routes(D, pos, out.get("routes"))
    cbad, cfirst = connected(D, pos, r)
    sbad, sfirst = shorts(r)
    recs = [{"check": "placement_legal", "measured": pbad, "pass": pbad == 0, "detail": pfirst},
            {"check": "routing_legal", "measured": r["bad"], "pass": r["bad"] == 0, "detail": r["first"]},
            {"check": "connected", "measured": cbad, "pass": cbad == 0, "detail": cfirst},
            {"check": "no_shorts", "measured": sbad, "pass": sbad == 0, "detail": sfirst}]
    wl = sum(len(e) for e in r["edges"].values())
    thr = d["checks"]["wirelength"]["threshold"]
    if cbad or not D.nets:
        recs.append({"check": "wirelength", "measured": None, "pass": False,
                     "detail": "not comparable: some net is not connected"})
    else:
        excess = wl / exp["wirelength"] - 1.0
        recs.append({"check": "wirelength", "measured": round(excess, 6), "pass": excess <= thr,
                     "detail": f"recomputed wirelength {wl}, reference {exp['wirelength']}"})
    return recs


def main() -> None:
    d = json.load(sys.stdin)
    try:
        recs = grade(d)
    except Exception as e:  # a malformed output is a failure, never a crash
        recs = [{"check": c, "measured": None, "pass": False, "detail": f"malformed output: {type(e).__name__}"}
                for c in ("placement_legal", "routing_legal", "connected", "no_shorts", "wirelength")]
    print(json.dumps({"checks": recs}))


main()
