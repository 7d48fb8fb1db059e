"""Weighted MaxSAT over bit-vector constraints with z3.Optimize, then lexicographic tie-breaking."""

import z3

N_SOFT = 6


def soft_constraints(x, y, w, c):
    """The six soft constraints, in order; c are the six constants reduced modulo 2**w."""
    return [
        x + y == c[0],                               # wrapping sum
        x * y == c[1],                               # wrapping product
        (x & y) == c[2],
        (z3.RotateLeft(x, 3) ^ y) == c[3],
        z3.ULE(y - x, c[4]),                         # wrapping difference, unsigned compare
        (x | y) == c[5],
    ]


def main(scn):
    w = int(scn["width"])
    mod = 1 << w
    c = [int(v) % mod for v in scn["constants"]]
    weights = [float(v) for v in scn["weights"]]
    lo = int(round(float(scn["x_min_fraction"]) * (mod - 1)))

    x, y = z3.BitVecs("x y", w)
    hard = [z3.ULT(x, y), z3.UGE(x, lo)]
    soft = soft_constraints(x, y, w, c)

    opt = z3.Optimize()
    opt.add(hard)
    for s, wt in zip(soft, weights):
        opt.add_soft(s, repr(wt))                 # decimal weight, exact rational inside z3
    opt.minimize(x)                               # tie-break 1: smallest x
    opt.minimize(y)                               # tie-break 2: smallest y
    assert opt.check() == z3.sat
    m = opt.model()
    xv, yv = m[x].as_long(), m[y].as_long()
    sat = [bool(z3.is_true(m.eval(s, model_completion=True))) for s in soft]
    violated = sum(wt for s_ok, wt in zip(sat, weights) if not s_ok)

    # Which soft constraints can hold together with the hard ones at all (each alone)?
    alone = []
    for s in soft:
        sv = z3.Solver()
        sv.add(hard)
        sv.add(s)
        alone.append(sv.check() == z3.sat)

    return {
        "x": int(xv),
        "y": int(yv),
        "satisfied": sat,
        "n_satisfied": int(sum(sat)),
        "violated_weight": float(violated),
        "satisfied_weight": float(sum(weights) - violated),
        "individually_satisfiable": alone,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
