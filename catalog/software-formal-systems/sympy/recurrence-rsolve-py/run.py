"""A linear recurrence with constant coefficients solved in closed form by sympy.rsolve, its partial sums by
sympy.summation over a concrete range, and the closed form printed as a Python function (sympy.printing.pycode)
graded by running it."""

import os

import sympy as sp
from sympy.printing.pycode import pycode

N, K = sp.symbols("n k", integer=True, nonnegative=True)
A = sp.Function("a")


def forcing(kind, c, d):
    return {"none": sp.Integer(0), "poly": c * N**d, "geometric": c * sp.Integer(d + 1) ** N}[kind]


def main(scn):
    r1, r2 = int(scn["root1"]), int(scn["root2"])
    p, q = r1 + r2, -r1 * r2                               # characteristic x**2 - p*x - q = (x - r1)(x - r2)
    g = forcing(str(scn["forcing"]), int(scn["forcing_coeff"]), int(scn["forcing_param"]))
    eq = A(N + 2) - p * A(N + 1) - q * A(N) - g
    closed = sp.rsolve(eq, A(N), {A(0): int(scn["a0"]), A(1): int(scn["a1"])})
    m = int(scn["n_terms"])
    terms = [int(closed.subs(N, i)) for i in range(m)]
    partial = sp.summation(sp.expand(closed.subs(N, K)), (K, 0, int(scn["sum_upto"]) - 1))
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "sequence.py"), "w", encoding="utf-8") as fh:
        fh.write(f"import math\n\n\ndef a(n):\n    return {pycode(closed, fully_qualified_modules=True)}\n")
    return {
        "py_source": "sequence.py",
        "terms": terms,
        "partial_sum": int(partial),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
