"""An exact interpolating spline through sampled data with sympy (sympy.interpolating_spline, a Piecewise of
polynomials built from B-splines), printed as a C function by sympy.ccode (Piecewise as nested conditionals) and
integrated and differentiated exactly piece by piece."""

import os

import sympy as sp

X = sp.Symbol("x", real=True)


def main(scn):
    ys = [int(v) for v in scn["values"]]
    h = sp.Rational(int(scn["spacing_quarters"]), 4)
    x0 = sp.Integer(int(scn["x_start"]))
    xs = [x0 + i * h for i in range(len(ys))]
    degree = min(int(scn["degree"]), len(ys) - 1)
    spline = sp.interpolating_spline(degree, X, xs, ys)
    pieces = [(sp.expand(e), c) for e, c in spline.args]
    outside = sp.Integer(int(scn["outside_value"]))
    f = sp.Piecewise(*pieces, (outside, True))
    body = sp.ccode(f, standard="c99")
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "spline.c"), "w", encoding="utf-8") as fh:
        fh.write(f"#include <math.h>\n\ndouble spline(double x) {{\n    return {body};\n}}\n")
    # the pieces cover consecutive knot intervals in order: integrate each polynomial over its own interval
    knots = sorted({a.rhs if a.lhs == X else a.lhs for _, c in pieces for a in c.atoms(sp.Rel)})
    integral = sum(sp.integrate(e, (X, lo, hi)) for (e, _), lo, hi in zip(pieces, knots, knots[1:]))
    xe = xs[0] + sp.Rational(repr(float(scn["eval_frac"]))) * (xs[-1] - xs[0])
    fe = f.subs(X, xe)
    dfe = sp.Piecewise(*[(sp.diff(e, X), c) for e, c in pieces], (0, True)).subs(X, xe)
    return {
        "c_source": "spline.c",
        "degree": degree,
        "pieces": len(pieces),
        "breakpoints": [float(k) for k in knots],
        "integral": float(integral),
        "value_at_point": float(fe),
        "slope_at_point": float(dfe),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
