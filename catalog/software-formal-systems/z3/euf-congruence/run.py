"""Entailed equalities of random ground equations over uninterpreted functions (EUF) with z3: an uninterpreted
sort, function symbols f and g, and one validity check per candidate equality (the congruence-closure question
that compilers' value numbering and program verifiers ask)."""

import random

import z3


class Terms:
    """Random ground terms over constants c0..c{n-1}, unary f and (when binary) g(., .), drawn in a fixed order."""

    def __init__(self, scn):
        self.rng = random.Random(int(scn["seed"]))
        self.n = int(scn["n_constants"])
        self.binary = bool(scn["binary_function"])
        self.sort = z3.DeclareSort("S")
        self.consts = [z3.Const(f"c{i}", self.sort) for i in range(self.n)]
        self.f = z3.Function("f", self.sort, self.sort)
        self.g = z3.Function("g", self.sort, self.sort, self.sort)

    def draw(self, depth):
        """A term as (z3 expression, text); the rng calls are exactly those in the summary."""
        if depth == 0 or self.rng.random() < 0.3:
            i = self.rng.randrange(self.n)
            return self.consts[i], f"c{i}"
        if self.binary and self.rng.random() < 0.5:
            (a, ta), (b, tb) = self.draw(depth - 1), self.draw(depth - 1)
            return self.g(a, b), f"g({ta}, {tb})"
        a, ta = self.draw(depth - 1)
        return self.f(a), f"f({ta})"


def entailed(solver, a, b):
    """Whether the asserted equations imply a == b (a != b is unsatisfiable with them)."""
    solver.push()
    solver.add(a != b)
    res = solver.check()
    solver.pop()
    return res == z3.unsat


def main(scn):
    t = Terms(scn)
    depth, c = int(scn["max_depth"]), t.consts
    eqs = []
    for _ in range(int(scn["n_equations"])):
        lhs = t.draw(depth)
        i = t.rng.randrange(t.n)
        eqs.append((lhs, (c[i], f"c{i}")))
    diseqs = [tuple(t.rng.sample(range(t.n), 2)) for _ in range(int(scn["n_disequalities"]))]
    s = z3.Solver()
    s.add([lhs == rhs for (lhs, _), (rhs, _) in eqs])
    rep = list(range(t.n))
    for j in range(t.n):
        rep[j] = next(i for i in range(j + 1) if i == j or entailed(s, c[i], c[j]))
    classes = [[j for j in range(t.n) if rep[j] == i] for i in range(t.n) if rep[i] == i]
    f_image = [next((j for j in range(t.n) if entailed(s, t.f(c[i]), c[j])), -1) for i in range(t.n)]
    violated = [k for k, (i, j) in enumerate(diseqs) if rep[i] == rep[j]]
    s.add([c[i] != c[j] for i, j in diseqs])
    return {
        "equations": [[ta, tb] for (_, ta), (_, tb) in eqs],
        "disequalities": [list(d) for d in diseqs],
        "classes": classes,
        "n_classes": len(classes),
        "f_image": f_image,
        "violated_disequalities": violated if violated else [-1],
        "satisfiable": s.check() == z3.sat,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
