"""Proving branch-free bit tricks with z3's bit-vector theory: each trick is compared with its specification for
every input of the chosen width (the negated equivalence is unsatisfiable) or, for a faulty variant, the smallest
unsigned counterexample is found by binary search with ULE bounds."""

import z3


def masks(w):
    """SWAR constants 0x55.., 0x33.., 0x0F.., 0x01.. of width w."""
    rep = lambda byte: int(byte * (w // 8), 16)  # noqa: E731
    return rep("55"), rep("33"), rep("0f"), rep("01")


def trick(name, x, y, w, buggy):
    """(implementation, specification) as bit-vector terms."""
    if name == "lowest_set_bit":
        impl = x & (x - 1) if buggy else x & (~x + 1)
        spec = z3.If(
            x == 0,
            z3.BitVecVal(0, w),
            z3.Sum(
                [
                    z3.If(
                        z3.And(z3.Extract(k, k, x) == 1, z3.Extract(k - 1, 0, x) == 0 if k else z3.BoolVal(True)),
                        z3.BitVecVal(1 << k, w),
                        z3.BitVecVal(0, w),
                    )
                    for k in range(w)
                ]
            ),
        )
        return impl, spec
    if name == "average":
        impl = z3.LShR(x + y, 1) if buggy else (x & y) + z3.LShR(x ^ y, 1)
        spec = z3.Extract(w - 1, 0, z3.LShR(z3.ZeroExt(1, x) + z3.ZeroExt(1, y), 1))
        return impl, spec
    if name == "abs":
        m = z3.LShR(x, w - 1) if buggy else x >> (w - 1)  # bug: logical instead of arithmetic shift
        return (x ^ m) - m, z3.If(x < 0, -x, x)
    if name == "popcount":
        m1, m2, m4, h01 = masks(w)
        if buggy:
            m2 = m2 ^ 1
        v = x - (z3.LShR(x, 1) & m1)
        v = (v & m2) + (z3.LShR(v, 2) & m2)
        v = (v + z3.LShR(v, 4)) & m4
        impl = z3.LShR(v * h01, w - 8)
        spec = z3.Sum([z3.ZeroExt(w - 1, z3.Extract(k, k, x)) for k in range(w)])
        return impl, spec
    impl = (
        z3.If(x & (x - 1) == 0, z3.BitVecVal(1, w), z3.BitVecVal(0, w))
        if buggy
        else z3.If(z3.And(x != 0, x & (x - 1) == 0), z3.BitVecVal(1, w), z3.BitVecVal(0, w))
    )  # is_power_of_two
    spec = z3.If(z3.Or([x == (1 << k) for k in range(w)]), z3.BitVecVal(1, w), z3.BitVecVal(0, w))
    return impl, spec


def smallest(solver, v, w, lo=0):
    """Smallest unsigned value of v (at least lo) in a model of the solver (binary search), then fixed."""
    hi = (1 << w) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        solver.push()
        solver.add(z3.ULE(v, mid))
        if solver.check() == z3.sat:
            hi = mid
        else:
            lo = mid + 1
        solver.pop()
    solver.add(v == lo)
    return lo


def main(scn):
    w = int(scn["width"])
    name = str(scn["trick"])
    x, y = z3.BitVecs("x y", w)
    impl, spec = trick(name, x, y, w, bool(scn["buggy"]))
    s = z3.Solver()
    s.add(impl != spec, z3.UGE(x, int(scn["min_x"]) % (1 << w)))  # the checked range: x >= min_x (unsigned)
    proved = s.check() == z3.unsat
    cx = cy = -1
    vi = vs = -1
    if not proved:
        cx = smallest(s, x, w, int(scn["min_x"]) % (1 << w))
        cy = smallest(s, y, w) if name == "average" else 0
        s.add(y == cy)
        assert s.check() == z3.sat
        m = s.model()
        vi, vs = m.eval(impl, model_completion=True).as_long(), m.eval(spec, model_completion=True).as_long()
    return {"proved": proved, "counterexample_x": cx, "counterexample_y": cy, "impl_value": vi, "spec_value": vs}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
