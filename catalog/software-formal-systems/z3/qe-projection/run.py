"""Projection of a random polytope by quantifier elimination in z3: Exists z. A(x, y, z) <= b is reduced to a
quantifier-free formula in x, y with the `qe` tactic, evaluated on an integer grid, and compared with the
integer shadow (points with an integer z) found by the solver."""

import random

import z3


def instance(scn):
    rng = random.Random(int(scn["seed"]))
    c = int(scn["coef_max"])
    rows = []
    for _ in range(int(scn["n_constraints"])):  # per constraint: a_x, a_y, a_z, then b
        a = [rng.randint(-c, c) for _ in range(3)]
        if a[2] == 0:
            a[2] = c  # every constraint involves z
        rows.append((a, rng.randint(1, int(scn["rhs_max"]))))
    return rows


def main(scn):
    rows = instance(scn)
    bound = int(scn["bound"])
    strict = bool(scn["strict"])
    x, y, z = z3.Reals("x y z")
    cons = [(a[0] * x + a[1] * y + a[2] * z < b) if strict else (a[0] * x + a[1] * y + a[2] * z <= b) for a, b in rows]
    cons += [z >= -bound, z <= bound]
    goal = z3.Goal()
    goal.add(z3.Exists([z], z3.And(cons)))
    projected = z3.Tactic("qe")(goal).as_expr()  # quantifier-free in x, y
    zi = z3.Int("zi")
    solver = z3.Solver()
    real_rows, int_rows = [], []
    for xv in range(-bound, bound + 1):
        real_count = int_count = 0
        for yv in range(-bound, bound + 1):
            sub = [(x, z3.RealVal(xv)), (y, z3.RealVal(yv))]
            if z3.is_true(z3.simplify(z3.substitute(projected, *sub))):
                real_count += 1
            solver.push()
            solver.add([z3.substitute(c, *sub, (z, z3.ToReal(zi))) for c in cons])
            if solver.check() == z3.sat:
                int_count += 1
            solver.pop()
        real_rows.append(real_count)
        int_rows.append(int_count)
    return {
        "constraints": [a + [b] for a, b in rows],
        "real_shadow_rows": real_rows,
        "integer_shadow_rows": int_rows,
        "real_shadow_points": sum(real_rows),
        "integer_shadow_points": sum(int_rows),
        "gap_points": sum(real_rows) - sum(int_rows),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
