"""Exact solution of a linear system x' = A x by the matrix exponential (sympy.Matrix.exp, through its Jordan form),
as used for compartment models and vibration modes, printed as a C function by sympy.ccode and graded by running it."""

import os

import sympy as sp

T = sp.Symbol("t", real=True)
P = sp.Matrix([[1, 0, 1], [1, 1, 0], [0, 1, 1]])  # fixed change of basis: A = P * J * P**-1


def canonical(scn):
    """The block matrix J of the summary for the chosen mode."""
    l1, l2, l3, w = (int(scn[k]) for k in ("lambda1", "lambda2", "lambda3", "omega"))
    mode = str(scn["mode"])
    if mode == "distinct":
        return sp.diag(l1, l2, l3)
    if mode == "jordan":
        return sp.Matrix([[l1, 1, 0], [0, l1, 0], [0, 0, l3]])
    return sp.Matrix([[l1, w, 0], [-w, l1, 0], [0, 0, l3]])


def main(scn):
    a = P * canonical(scn) * P.inv()
    x0 = sp.Matrix([int(v) for v in scn["x0"]])
    x = ((a * T).exp() * x0).applyfunc(sp.expand)
    t_eval = float(scn["t_eval"])
    body = "\n".join(f"    if (k == {k}) return {sp.ccode(x[k], standard='c99')};" for k in range(2))
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "propagate.c"), "w", encoding="utf-8") as fh:
        fh.write(
            f"#include <math.h>\n\ndouble state(double t, int k) {{\n{body}\n"
            f"    return {sp.ccode(x[2], standard='c99')};\n}}\n"
        )
    eigs = a.eigenvals()
    return {
        "c_source": "propagate.c",
        "matrix": [[float(v) for v in row] for row in a.tolist()],
        "trace": float(a.trace()),
        "state_at_t": [float(v.subs(T, t_eval)) for v in x],
        "stable": all(sp.re(e) < 0 for e in eigs),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
