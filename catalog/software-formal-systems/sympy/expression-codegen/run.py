"""Code generation with sympy: a C99 routine (sympy.utilities.codegen) for f(x, y) and a Python function (sympy's
Python code printer) for its exact partial derivative df/dx, written as files an agent's code must match by
behaviour."""

import os

import sympy as sp
from sympy.printing.pycode import pycode
from sympy.utilities.codegen import codegen

X, Y = sp.symbols("x y")


def build(scn):
    coeffs = [int(c) for c in scn["poly"]]
    if not any(coeffs):
        coeffs = [1]
    P = sp.Poly(coeffs, X).as_expr()                      # poly[0] is the leading coefficient
    if scn["form"] == "horner":
        P = sp.horner(P, X)
    decay, wave, weight = int(scn["decay"]), int(scn["wave"]), int(scn["weight"])
    return P * sp.exp(-sp.Rational(decay, 4) * Y**2) + weight * sp.sin(wave * X * Y) / (1 + Y**2)


def main(scn):
    f = build(scn)
    dfdx = sp.diff(f, X)
    out = os.environ["SWR_ARTIFACTS"]
    [(_, c_code), _header] = codegen(("f", f), "C99", "f", header=False, empty=False, argument_sequence=(X, Y))
    c_code = "".join(ln for ln in c_code.splitlines(keepends=True) if ln.strip() != '#include "f.h"')
    with open(os.path.join(out, "f.c"), "w", encoding="utf-8") as fh:
        fh.write(c_code)
    with open(os.path.join(out, "dfdx.py"), "w", encoding="utf-8") as fh:
        fh.write(f"import math\n\n\ndef dfdx(x, y):\n    return {pycode(dfdx, fully_qualified_modules=True)}\n")
    point = {X: sp.Rational(repr(float(scn["x0"]))), Y: sp.Rational(repr(float(scn["y0"])))}
    return {
        "c_source": "f.c",
        "py_source": "dfdx.py",
        "count_ops": int(sp.count_ops(f)),
        "value_at_point": float(sp.N(f.subs(point), 30)),
        "dfdx_at_point": float(sp.N(dfdx.subs(point), 30)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
