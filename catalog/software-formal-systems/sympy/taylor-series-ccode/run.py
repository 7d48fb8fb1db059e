"""Taylor expansion with sympy's series machinery (sympy.series, removeO), the polynomial rewritten in Horner form
in powers of (x - x0) and printed as a C99 function by sympy.ccode; f and T reported at a point."""

import os

import sympy as sp

X, U = sp.symbols("x u")
FUNCTIONS = {
    "exp_cos": sp.exp(X) * sp.cos(X),
    "log1p_ratio": sp.log(1 + X) / (1 + X),
    "atan": sp.atan(X),
    "sinc": sp.sin(X) / X,
    "sqrt_1p": sp.sqrt(1 + X),
    "tan": sp.tan(X),
}


def main(scn):
    f = FUNCTIONS[str(scn["function"])]
    x0 = sp.Rational(int(scn["center_quarters"]), 4)
    order = int(scn["order"])
    taylor = sp.series(f, X, x0, order).removeO()                 # terms (x - x0)**k, k < order
    in_u = sp.expand(taylor.subs(X, U + x0))                     # the same polynomial in u = x - x0
    coeffs = [in_u.coeff(U, k) for k in range(order)]
    poly = sp.horner(sum(c * U**k for k, c in enumerate(coeffs)), U) if any(coeffs) else sp.Integer(0)
    body = sp.ccode(poly.subs(U, X - x0), standard="c99")
    source = f"#include <math.h>\n\ndouble taylor(double x) {{\n    return {body};\n}}\n"
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "taylor.c"), "w", encoding="utf-8") as fh:
        fh.write(source)
    xe = x0 + sp.Rational(repr(float(scn["eval_offset"])))
    exact = sp.N(f.subs(X, xe), 30) if xe != 0 or scn["function"] != "sinc" else sp.Integer(1)
    approx = sp.N(taylor.subs(X, xe), 30)
    return {
        "c_source": "taylor.c",
        "coefficients": [float(sp.N(c, 30)) for c in coeffs],
        "nonzero_terms": sum(1 for c in coeffs if c != 0),
        "value_at_point": float(approx),
        "function_value": float(exact),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
