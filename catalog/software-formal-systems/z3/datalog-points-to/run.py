"""Andersen-style points-to analysis as Datalog in z3's Fixedpoint engine: statements of a random pointer program
become facts (addr, copy, store, load), four Horn rules derive the points-to relation, and queries read it back."""

import random

import z3

KINDS = ["addr", "copy", "store", "load"]


def program(scn):
    """(kind, lhs, rhs) per statement, drawn in order: r = rng.random() picks the kind, then lhs, then rhs."""
    n, rng = int(scn["n_vars"]), random.Random(int(scn["seed"]))
    p_addr, p_copy = float(scn["p_addr"]), float(scn["p_copy"])
    stmts = []
    for _ in range(int(scn["n_statements"])):
        r = rng.random()
        rest = (1.0 - p_addr - p_copy) / 2
        kind = (
            "addr"
            if r < p_addr
            else "copy"
            if r < p_addr + p_copy
            else "store"
            if r < p_addr + p_copy + rest
            else "load"
        )
        stmts.append((kind, rng.randrange(n), rng.randrange(n)))
    return n, stmts


def main(scn):
    n, stmts = program(scn)
    S = z3.BitVecSort(4)
    fp = z3.Fixedpoint()
    fp.set(engine="datalog")
    rel = {k: z3.Function(k, S, S, z3.BoolSort()) for k in KINDS + ["pt"]}
    for f in rel.values():
        fp.register_relation(f)
    p, q, r, a = z3.Consts("p q r a", S)
    fp.declare_var(p, q, r, a)
    pt = rel["pt"]
    fp.rule(pt(p, a), rel["addr"](p, a))  # p = &a
    fp.rule(pt(p, a), [rel["copy"](p, q), pt(q, a)])  # p = q
    fp.rule(pt(r, a), [rel["store"](p, q), pt(p, r), pt(q, a)])  # *p = q
    fp.rule(pt(p, a), [rel["load"](p, q), pt(q, r), pt(r, a)])  # p = *q
    for kind, lhs, rhs in stmts:
        fp.fact(rel[kind](z3.BitVecVal(lhs, 4), z3.BitVecVal(rhs, 4)))
    sets = [{o for o in range(n) if fp.query(pt(z3.BitVecVal(v, 4), z3.BitVecVal(o, 4))) == z3.sat} for v in range(n)]
    return {
        "statement_counts": [sum(1 for s in stmts if s[0] == k) for k in KINDS],
        "points_to_masks": [sum(1 << o for o in s) for s in sets],
        "points_to_sizes": [len(s) for s in sets],
        "total_points_to": sum(len(s) for s in sets),
        "may_alias_pairs": sum(1 for u in range(n) for v in range(u + 1, n) if sets[u] & sets[v]),
        "empty_vars": sum(1 for s in sets if not s),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
